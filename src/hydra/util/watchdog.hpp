// The watchdog: no step outlives the process that runs it (process.hpp).
// Every step runs in a process group of its own; one small process, forked
// on first use, kills every group still watched when this process dies (by
// SIGKILL too). Used by run_process only.
#pragma once

#include <sys/types.h>

namespace hydra::util {

/// Watches one process group from watch() until destroyed (declare it before
/// whatever kills and reaps the group, so it forgets the group once it is gone).
class WatchedGroup {
 public:
  WatchedGroup() = default;
  ~WatchedGroup();
  WatchedGroup(const WatchedGroup&) = delete;
  WatchedGroup& operator=(const WatchedGroup&) = delete;
  /// Watches `group` from now on; throws hydra::Error when no watchdog can run.
  void watch(pid_t group);

 private:
  pid_t group_ = -1;
};

}  // namespace hydra::util
