// The configure differential (docs/threat-model.md, "Configure keyed on the
// capture"): after the capture's configure, the project is configured once
// more, still in the sandbox and without network, into a fresh build tree,
// in an environment that differs from the capture's in everything a correct
// configure never needs and looks like a user's checkout: the tree is a
// fresh copy of the same files at the same path with a git repository of
// its own at its top (the commit checked out, its tags; the capture shows
// none), HOME and TMPDIR at the user's usual places, the build tree in
// TMPDIR, USER/LOGNAME/SHELL set, none of HydraScore's cache variables,
// compiler launcher, test launcher or CCACHE_* settings. What the two
// configures decided about the build is compared (cmake/configure_differential.hpp)
// and recorded as manifest.json's "configure_differential"; scoring fails
// the anti-gaming gate on a difference the baseline's own differential
// does not show.
#pragma once

#include <filesystem>
#include <vector>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>
#include <hydra/model/build_targets.hpp>

namespace hydra::capture {

/// What the capture's configure left, read right after it (before any build
/// step ran the tree's code).
struct CapturedConfigure {
  std::filesystem::path build_dir;   ///< HydraScore's side
  std::filesystem::path seen_build;  ///< as the configure saw it
  model::BuildTargets targets;       ///< its codemodel
  std::filesystem::file_time_type started;  ///< when it began (older files of the tree are an earlier build's)
  std::vector<std::filesystem::path> readable;  ///< what it read besides the trees (the initial cache)
  double timeout = 0;  ///< seconds
};

/// Runs the plain configure under the sandbox (skipped, and recorded so,
/// without one), compares it with `captured` and records the result in
/// `staging`'s manifest ("configure_differential") and its step ("steps").
void run_configure_differential(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                Staging& staging, const CapturedConfigure& captured);

}  // namespace hydra::capture
