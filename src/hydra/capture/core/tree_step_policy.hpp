// The step policy of a step of a plan (tree_step_policy.cpp): the plan's
// trees as the step sees them, HydraScore's evidence and what the plan hides,
// the system's hidden paths, the environment and limits of [sandbox].
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/sandbox/step_policy.hpp>

namespace hydra::capture {

/// The policy of a step of `plan` that writes `writable` (the trees it works
/// in, as HydraScore's side names them), reads `readable` besides what is
/// readable anyway (a compiler cache inside a hidden folder) and keeps its
/// temporary files in `temporary`: first `plan.tree_mounts` (a tree shown at
/// another path than its own), then those trees writable at the paths the
/// step sees them (seen_path), HydraScore's evidence (`plan.evidence`: this
/// run, the runs beside it, the baseline) and `plan.hidden` hidden even
/// inside them, with the step's own trees inside those visible again, the
/// system's hidden paths (hidden_system_paths) and the tools inside them
/// (tool_mounts). Creates the folders (or empty files) a mount needs inside
/// the origin of an enclosing one, so that bubblewrap can mount it there.
/// Its environment, network and limits come from `plan.config.sandbox`.
StepPolicy tree_step_policy(const Plan& plan, std::string step, const std::vector<std::filesystem::path>& writable,
                            const std::filesystem::path& temporary,
                            const std::vector<std::filesystem::path>& readable = {});

}  // namespace hydra::capture
