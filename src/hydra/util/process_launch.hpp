// Starting a child process (run_process, process.cpp): the program found on
// PATH, everything the child needs prepared before fork, the descriptors it
// gets, and what the forked child does before it execs. Private to util/.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/util/file_descriptor.hpp>
#include <hydra/util/process.hpp>

namespace hydra::util::launch {

/// Whether `path` is a regular file this process may execute.
bool is_executable_file(const std::filesystem::path& path);

/// `program` looked up on `search_path` (colon-separated); a name with a '/'
/// is taken as a path.
std::optional<std::filesystem::path> find_on_path(std::string_view program, std::string_view search_path);

/// The child's environment: the inherited one with `request`'s changes.
std::map<std::string, std::string> child_environment(const ProcessRequest& request);

/// Everything the child needs, prepared before fork: after fork only
/// async-signal-safe calls are made.
struct ChildPlan {
  std::string program_path;
  std::vector<std::string> argv_storage;
  std::vector<std::string> environment_storage;
  std::vector<char*> argv;
  std::vector<char*> environment;
  std::string working_directory;
};

/// The plan to run `program` with `request`'s arguments and working
/// directory in `environment`.
ChildPlan plan_child(const ProcessRequest& request, const std::filesystem::path& program,
                     const std::map<std::string, std::string>& environment);

/// The descriptors of one child: its output (stderr merged unless
/// `separate_stderr`), the pipe that reports a failed exec, its stdin and the
/// socket that lets it exec. The `_child` ends go to the child; the parent
/// closes them once it has forked.
struct ChildDescriptors {
  FileDescriptor output_read, output_write;
  FileDescriptor stderr_read, stderr_write;  ///< invalid unless separate_stderr
  FileDescriptor error_read, error_write;
  FileDescriptor stdin_parent, stdin_child;  ///< stdin_parent invalid without stdin_text
  FileDescriptor go_read, go_write;
};

/// Opens the descriptors for `request`: stdin is a socket pair when there is
/// text to send (send() with MSG_NOSIGNAL cannot raise SIGPIPE in this
/// process; the parent's end is non-blocking), else /dev/null. Throws
/// hydra::Error when the system refuses one.
ChildDescriptors open_descriptors(const ProcessRequest& request);

/// Runs in the forked child: never returns. Reports a failure to start by
/// writing errno to `error_pipe` (close-on-exec, so success closes it).
/// Execs only after the parent has sent a byte on `go_socket` (it has put
/// the child's group under the watchdog by then). The leader dies with the
/// parent (PR_SET_PDEATHSIG; also while it waits here, as another child
/// forked meanwhile may hold the other end of this socket open), and a parent
/// that died before that was set is caught by getppid().
[[noreturn]] void exec_child(const ChildPlan& plan, int stdin_descriptor, int output_descriptor,
                             int stderr_descriptor, int error_pipe, int go_socket, pid_t parent);

}  // namespace hydra::util::launch
