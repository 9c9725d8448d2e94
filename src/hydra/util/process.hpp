// Running a child process with a timeout: the whole process group is killed
// when the time is up, so no process outlives its step. Every group is also
// watched by a small watchdog process that kills it when this process dies
// (by SIGKILL too), so no process outlives HydraScore either.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::util {

/// What a process and everything it starts may use (docs/config.md,
/// "[sandbox]"). Unset: no limit.
struct ResourceLimits {
  /// CPU time of each process (RLIMIT_CPU: SIGXCPU, then SIGKILL).
  std::optional<std::uint64_t> cpu_seconds;
  /// Memory of all its processes together where a control group can hold
  /// them (control_group.hpp); otherwise the address space of each (RLIMIT_AS).
  std::optional<std::uint64_t> memory_bytes;
  /// Processes (and threads) at once; only where a control group can hold them.
  std::optional<std::uint64_t> processes;

  bool any() const { return cpu_seconds || memory_bytes || processes; }
};

struct ProcessRequest {
  std::vector<std::string> argv;  ///< argv[0] is looked up on PATH; use {"/bin/sh", "-c", cmd} for a shell command
  std::filesystem::path working_directory;  ///< empty: the current directory
  std::map<std::string, std::string> environment;  ///< added to (overriding) the inherited environment
  std::vector<std::string> unset_environment;      ///< removed from the inherited environment
  /// false: `environment` is the child's whole environment (nothing of this
  /// process's own is passed on).
  bool inherit_environment = true;
  /// Limits of the child and everything it starts. With a memory or process
  /// limit the child runs in a control group of its own where this machine
  /// lets this process make one; everything still in it when the child has
  /// ended is killed then, wherever it moved (another process group, session).
  ResourceLimits limits;
  /// false: never a control group; `limits` through setrlimit only.
  bool use_control_group = true;
  std::optional<std::string> stdin_text;           ///< nullopt: stdin is /dev/null
  std::optional<std::chrono::duration<double>> timeout;  ///< nullopt: no limit
  /// The timeout counts the processor time the machine could give: while
  /// the machine is busier than it has processors (its load average over
  /// its processor count, /proc/loadavg), each second of wall time counts as
  /// `processors / load` of a second, so load from outside the process does
  /// not use up its budget (load_clock.hpp).
  bool timeout_follows_load = false;
  /// When set, stdout and stderr (merged, in order) are written here in full.
  std::optional<std::filesystem::path> output_file;
  /// Keep at most this many bytes of merged output in ProcessResult::output
  /// (the file above always gets everything). Older bytes are dropped first.
  std::size_t keep_output_bytes = 1 << 20;
  /// Called with each complete output line (without '\n') as it arrives, e.g.
  /// for live progress. May be empty.
  std::function<void(std::string_view line)> on_line;
  /// When true, stderr is kept apart in ProcessResult::error_output (not in
  /// `output`, not in `output_file`, not passed to `on_line`); for commands
  /// whose stdout is data (git diff).
  bool separate_stderr = false;
};

struct ProcessResult {
  bool started = false;     ///< false: could not start (see `error`), e.g. command not found
  int exit_code = -1;       ///< exit status; 128+N when killed by signal N
  bool timed_out = false;   ///< killed because the timeout expired
  double seconds = 0.0;     ///< wall time
  /// The time counted against the timeout (less than `seconds` when
  /// `timeout_follows_load` and the machine was overloaded).
  double counted_seconds = 0.0;
  std::string output;       ///< merged stdout+stderr, at most keep_output_bytes (the tail)
  std::string error_output; ///< stderr, when separate_stderr was set (at most keep_output_bytes)
  std::string error;        ///< why it could not start
  /// How `limits` were enforced: "control group (cgroup v1: memory, pids,
  /// cpu)", "resource limits (RLIMIT_CPU, RLIMIT_AS)", ...; empty without limits.
  std::string limits_enforced;
  /// The memory limit of its control group was reached (the kernel killed a
  /// process of it for memory).
  bool memory_limit_reached = false;
};

/// Runs the process to completion (or timeout). The child runs in a new
/// process group; on timeout the group gets SIGTERM, then SIGKILL after a
/// short grace period, and every member is reaped before this returns. If
/// this process dies meanwhile, the watchdog (forked on first use, one per
/// process) SIGKILLs the group. Thread-safe: steps may run in parallel.
/// Never throws for the child's failures; throws hydra::Error only when the
/// parent cannot set things up (pipe/fork failure, output file not writable).
ProcessResult run_process(const ProcessRequest& request);

/// This process's own executable (/proc/self/exe); nullopt when it cannot be
/// told or was replaced on disk since this process started.
std::optional<std::filesystem::path> current_executable();

/// Convenience: the path of `program` on PATH, or nullopt.
std::optional<std::filesystem::path> find_program(std::string_view program);

}  // namespace hydra::util
