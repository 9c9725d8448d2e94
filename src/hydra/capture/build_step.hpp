// The build step (build_step.cpp): configure when needed, then build.
#pragma once

#include <functional>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

struct BuildResult {
  bool passed = false;
  bool timed_out = false;
  int exit_code = 127;
  double seconds = 0.0;
};
/// Configures the build tree when it is new, its last configure failed or
/// its settings changed, then builds; both under the sandbox and the build
/// timeout. Writes configure.log and build.log. `configured` is called
/// once a configure passed and what it wrote is read: before the configure
/// differential and the build.
BuildResult run_build(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                      Progress& progress, const std::function<void()>& configured = {});

}  // namespace hydra::capture
