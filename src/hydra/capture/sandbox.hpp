// The sandbox the tree's own code runs in (configure, build, tests, the
// security check): bubblewrap, when it is installed and works here.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hydra::capture {

struct Sandbox {
  std::optional<std::filesystem::path> bwrap;  ///< nullopt: no sandbox (see `description`)
  /// --unshare-pid works here: the step's processes live in a PID namespace
  /// that ends with the step, so even one that left its process group
  /// (setsid, a daemon) does not outlive it.
  bool pid_namespace = false;
  std::string description;  ///< recorded in the manifest: which protection was in force
  /// HydraScore's evidence (run directories, reports, the staging directory):
  /// read-only inside the sandbox even where it lies inside a writable tree
  /// (a build tree inside the source tree); writable paths inside it stay writable.
  std::vector<std::filesystem::path> evidence;

  /// `argv` run with everything but `writable` read-only (still visible, so
  /// toolchains and dependencies anywhere keep working), TMPDIR pointing at
  /// `temporary` (writable), and no process surviving hydra-score. Without
  /// bubblewrap, `argv` unchanged.
  std::vector<std::string> wrap(const std::vector<std::string>& argv,
                                const std::vector<std::filesystem::path>& writable,
                                const std::filesystem::path& temporary) const;
};

/// Bubblewrap when `wanted`, installed and able to make a sandbox here (a
/// probe runs `true` in one); otherwise no sandbox and the reason.
Sandbox find_sandbox(bool wanted);

}  // namespace hydra::capture
