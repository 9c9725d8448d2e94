// The step reaper: a step's command runs as the child of a small process
// that adopts everything the command leaves behind (PR_SET_CHILD_SUBREAPER)
// and kills it at once. A process whose parent ended (a test program's
// forked child that called setsid() and spins, a daemon) is re-parented to
// the reaper and killed there, so a test runner waiting for the output pipes
// such a process holds open (ctest) goes on, and a step ends when the
// programs it started have ended, not at its timeout. When the command ends,
// everything left is killed. hydra-score runs it as its hidden `run-step`
// subcommand, inside the sandbox (capture/sandbox/sandbox.hpp) or without one.
#pragma once

#include <string>
#include <vector>

namespace hydra::util {

/// Runs `argv` (argv[0] looked up on PATH) as a child of this process, which
/// becomes the subreaper of all it starts: every other process that becomes
/// this process's child (an orphan) is killed with its process group as soon
/// as it is seen (checked when a child ends, and every 20 ms), and when `argv` ends every process
/// left is killed and reaped. SIGTERM, SIGINT and SIGHUP are passed on to
/// `argv`. Returns `argv`'s exit status (128+N when a signal N ended it;
/// 127 when it cannot be started, with the reason on stderr). Call it from
/// a single-threaded process that has no other children. As PID 1 (of the
/// sandbox's PID namespace) it names itself "init" in /proc/1/comm and
/// /proc/1/cmdline first, so code under test finds neither HydraScore nor
/// the sandbox's program there.
int run_reaped(const std::vector<std::string>& argv);

}  // namespace hydra::util
