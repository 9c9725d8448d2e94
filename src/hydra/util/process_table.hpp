// Reading the machine's process table (/proc): which processes are the
// children of a process. Used by the step reaper (reaper.hpp).
#pragma once

#include <sys/types.h>

#include <vector>

namespace hydra::util {

/// The children of process `pid` now, zombies included, from
/// /proc/<pid>/task/*/children, or from a scan of every /proc/<n>/stat where
/// the kernel does not provide that file. Sorted.
std::vector<pid_t> child_processes(pid_t pid);

}  // namespace hydra::util
