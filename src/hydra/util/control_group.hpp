// Control groups for the processes a step starts (cgroup v1 or v2), where
// this machine lets this process make them: a memory limit on all of them
// together, a limit on how many there are, an equal share of the processors
// beside the other steps, and a list of every process the step started,
// wherever it moved (another process group, another session), so that all of
// them can be killed when the step ends. Used by run_process (process.hpp).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/util/process.hpp>

namespace hydra::util {

/// Where this process's own control groups are: per controller ("memory",
/// "pids", "cpu"), the folder of this process's group in its hierarchy.
struct ControlGroupPlaces {
  int version = 0;  ///< 1 (one hierarchy per controller) or 2 (one unified hierarchy); 0: none found
  std::map<std::string, std::filesystem::path> controllers;
};

/// The places of the controllers memory, pids and cpu, from the text of
/// /proc/self/cgroup and /proc/self/mountinfo (`root` prefixed to every
/// mount point, for tests). Version 1 when a cgroup v1 hierarchy holds the
/// memory controller, else version 2 when a cgroup2 file system is mounted
/// (its controllers are those the group's parent makes available, checked
/// when a group is made), else none. Pure.
ControlGroupPlaces locate_control_groups(std::string_view proc_cgroup, std::string_view mountinfo,
                                         const std::filesystem::path& root = {});

/// One control group of one step: a folder "hydra-step-<pid>-<n>" under a
/// "hydra-score" folder beside this process's own group, per controller.
class ControlGroup {
 public:
  /// A new group under `places` with `limits` (memory and processes; the
  /// processors are shared equally among the steps by default), or nullptr
  /// with the reason in `why_not` when the folders or limits cannot be
  /// written. Groups left by a process that is gone are removed first.
  static std::unique_ptr<ControlGroup> create(const ControlGroupPlaces& places, const ResourceLimits& limits,
                                              std::string& why_not);
  /// Kills what is left in the group and removes its folders.
  ~ControlGroup();
  ControlGroup(const ControlGroup&) = delete;
  ControlGroup& operator=(const ControlGroup&) = delete;

  /// Moves process `pid` (and so everything it starts later) into the group.
  bool add(pid_t pid) const;
  /// The processes in the group now.
  std::vector<pid_t> members() const;
  /// SIGKILLs the members until none is left (or `limit` has passed),
  /// reaping those that are this process's children.
  void kill_all(std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) const;
  /// The kernel killed a process of the group for reaching the memory limit.
  bool memory_limit_reached() const;
  /// "cgroup v1: memory, pids, cpu": what holds the group's processes.
  std::string description() const;

 private:
  ControlGroup() = default;
  int version_ = 0;
  std::map<std::string, std::filesystem::path> folders_;  ///< controller -> this group's folder
};

/// This machine's control group places where this process can make groups
/// (probed once: a group is made and removed); version 0 when it cannot.
const ControlGroupPlaces& usable_control_groups();

}  // namespace hydra::util
