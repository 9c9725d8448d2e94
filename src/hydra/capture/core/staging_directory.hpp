// The hidden staging directory a capture assembles its run directory in
// (`.<name>.capture-XXXXXX` next to `<name>`), and the removal of those that
// killed captures left behind.
//
// Ownership is a lock: the capture holds flock(LOCK_EX) on the staging
// directory itself for as long as it runs. The kernel drops the lock when the
// process dies, by SIGKILL too, so a staging directory whose lock can be taken
// belongs to no live capture and is stale.
#pragma once

#include <filesystem>
#include <vector>

namespace hydra::capture {

class StagingDirectory {
 public:
  /// Removes the stale staging directories of `out` (remove_stale_staging),
  /// then creates a fresh one next to `out` and locks it. Throws
  /// hydra::Error when it cannot be created.
  explicit StagingDirectory(const std::filesystem::path& out);
  /// Removes the directory (what is at its path: after publishing, that is
  /// nothing, or the run directory it replaced) and drops the lock.
  ~StagingDirectory();
  StagingDirectory(const StagingDirectory&) = delete;
  StagingDirectory& operator=(const StagingDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// False where the file system refuses flock() on a directory (some
  /// network file systems): the directory is then unprotected, and its
  /// siblings are never removed either.
  bool locked() const { return locked_; }

 private:
  std::filesystem::path path_;
  int descriptor_ = -1;
  bool locked_ = false;
};

/// Removes every `.<name>.capture-XXXXXX` next to `out` that no live capture
/// owns (its lock can be taken); returns the paths removed. A staging
/// directory being created or used by a live capture is never touched.
std::vector<std::filesystem::path> remove_stale_staging(const std::filesystem::path& out);

}  // namespace hydra::capture
