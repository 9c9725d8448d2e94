// The sandbox the tree's own code runs in (configure, build, tests, lint,
// the held-out runs, the security check): bubblewrap, when it is installed
// and can make its namespaces here; every step's command runs under the step
// reaper (util/reaper.hpp) either way.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <hydra/capture/sandbox/step_policy.hpp>
#include <hydra/config/settings.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

struct Sandbox {
  std::optional<std::filesystem::path> bwrap;  ///< nullopt: no sandbox, the steps run unconfined (see `description`)
  /// --unshare-pid works here: the step's processes live in a PID namespace
  /// that ends with the step, so even one that left its process group
  /// (setsid, a daemon) does not outlive it.
  bool pid_namespace = false;
  /// The steps may reach the network ([sandbox] network = true).
  bool network = false;
  /// hydra-score itself: every step's command runs as `hydra-score run-step
  /// -- COMMAND...` (util/reaper.hpp); nullopt: without the reaper.
  std::optional<std::filesystem::path> step_runner;
  std::string description;  ///< recorded in the manifest: which protection was in force

  /// Whether the steps run inside bubblewrap.
  bool confined() const { return bwrap.has_value(); }

  /// `argv` run as `policy` says: its mounts (shallowest path first) over a
  /// read-only view of everything else, hidden folders as empty read-only
  /// ones, no network unless the policy allows it, and no process surviving
  /// hydra-score; under the step reaper when the policy says so. Without
  /// bubblewrap, `argv` under the reaper only.
  std::vector<std::string> wrap(const StepPolicy& policy, const std::vector<std::string>& argv) const;

  /// The request that runs `argv` under `policy`: wrapped as above, with the
  /// policy's whole environment (nothing else of HydraScore's), its limits
  /// and working directory. Callers add output, timeout and callbacks.
  util::ProcessRequest request(const StepPolicy& policy, const std::vector<std::string>& argv) const;
};

/// Bubblewrap when `wanted`, installed and able to make a sandbox here with
/// its PID, IPC and (unless `settings.network`) network namespaces (a probe
/// runs `true` in one); otherwise no sandbox and the reason. Throws hydra::Error (exit 8) when there is none and
/// `settings.require` is set. `step_runner`: Sandbox::step_runner.
Sandbox find_sandbox(bool wanted, const config::SandboxSettings& settings,
                     const std::optional<std::filesystem::path>& step_runner);

}  // namespace hydra::capture
