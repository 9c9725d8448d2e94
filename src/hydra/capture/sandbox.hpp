// The sandbox the tree's own code runs in (configure, build, tests, the
// security check): bubblewrap, when it is installed and works here.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <hydra/capture/step_policy.hpp>

namespace hydra::capture {

struct Sandbox {
  std::optional<std::filesystem::path> bwrap;  ///< nullopt: no sandbox (see `description`)
  /// --unshare-pid works here: the step's processes live in a PID namespace
  /// that ends with the step, so even one that left its process group
  /// (setsid, a daemon) does not outlive it.
  bool pid_namespace = false;
  std::string description;  ///< recorded in the manifest: which protection was in force

  /// `argv` run as `policy` says: its mounts in order over a read-only view
  /// of everything else (still visible, so toolchains and dependencies
  /// anywhere keep working), TMPDIR pointing at its temporary folder, and no
  /// process surviving hydra-score. Without bubblewrap, `argv` unchanged.
  std::vector<std::string> wrap(const StepPolicy& policy, const std::vector<std::string>& argv) const;
};

/// Bubblewrap when `wanted`, installed and able to make a sandbox here (a
/// probe runs `true` in one); otherwise no sandbox and the reason.
Sandbox find_sandbox(bool wanted);

}  // namespace hydra::capture
