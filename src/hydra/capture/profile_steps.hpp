// The steps of the js-node, rust and python profiles (profile_steps.cpp).
#pragma once

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

/// The steps of the js-node, rust and python profiles (profile_steps.cpp):
/// copies the tree into the build tree (tree_copy.hpp), then runs the
/// profile's lint, build and test commands there (profile_commands.hpp),
/// under the sandbox and the step timeouts. Throws hydra::Error (exit 8)
/// naming the tool and the profile when a step's program is not installed.
void run_profile_steps(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                       Progress& progress);

/// The profile's build and test steps only, in a copy of `plan.source` in
/// `plan.build_dir` (the held-out runs of these profiles). Returns whether
/// the build passed (true when the profile has no build step).
bool run_profile_build_and_tests(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                 Staging& staging, Progress& progress);

}  // namespace hydra::capture
