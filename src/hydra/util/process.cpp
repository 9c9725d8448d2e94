#include <hydra/util/process.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>

#include <hydra/error.hpp>
#include <hydra/util/control_group.hpp>
#include <hydra/util/file_descriptor.hpp>
#include <hydra/util/load_clock.hpp>
#include <hydra/util/process_output.hpp>
#include <hydra/util/watchdog.hpp>

extern char** environ;

namespace hydra::util {
namespace {

using Clock = std::chrono::steady_clock;

/// How long the group gets between SIGTERM and SIGKILL.
constexpr std::chrono::milliseconds termination_grace{2000};
/// How long to wait for a killed group to disappear before giving up
/// (only reached when a member cannot be reaped by this process).
constexpr std::chrono::milliseconds reap_limit{5000};
/// Poll tick: how often the loop checks whether the child has exited.
constexpr int poll_tick_milliseconds = 20;

/// Makes this process the reaper of its orphaned descendants (Linux), so the
/// grandchildren of a killed group can be reaped here instead of lingering
/// as zombies under an init that may not reap.
void become_subreaper() {
#ifdef __linux__
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); });
#endif
}

bool is_executable_file(const std::filesystem::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

/// `program` looked up on `search_path` (colon-separated); a name with a '/'
/// is taken as a path.
std::optional<std::filesystem::path> find_on_path(std::string_view program,
                                                  std::string_view search_path) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string_view::npos) {
    std::filesystem::path path{std::string(program)};
    if (is_executable_file(path)) return path;
    return std::nullopt;
  }
  std::size_t start = 0;
  while (start <= search_path.size()) {
    std::size_t end = search_path.find(':', start);
    if (end == std::string_view::npos) end = search_path.size();
    std::string_view directory = search_path.substr(start, end - start);
    std::filesystem::path candidate =
        std::filesystem::path(directory.empty() ? std::string(".") : std::string(directory)) /
        std::string(program);
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

/// The child's environment: the inherited one with `request`'s changes.
std::map<std::string, std::string> child_environment(const ProcessRequest& request) {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; request.inherit_environment && entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text{*entry};
    std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    environment.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  for (const std::string& name : request.unset_environment) environment.erase(name);
  for (const auto& [name, value] : request.environment) environment[name] = value;
  return environment;
}

/// Sends `signal_number` to the whole group; false when the group is gone.
bool signal_group(pid_t group, int signal_number) {
  return ::kill(-group, signal_number) == 0;
}

/// Reaps every member of `group` that is this process's child (the leader
/// and, on Linux, orphaned grandchildren), without blocking.
/// Returns the leader's wait status when this call reaped the leader (it is
/// a member of its own group): the caller must not lose it, or it would wait
/// for a leader that is already gone.
std::optional<int> reap_group_members(pid_t group) {
  std::optional<int> leader_status;
  while (true) {
    int status = 0;
    pid_t reaped = ::waitpid(-group, &status, WNOHANG);
    if (reaped <= 0) return leader_status;
    if (reaped == group) leader_status = status;
  }
}

int exit_code_from_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

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

/// Runs in the forked child: never returns. Reports a failure to start by
/// writing errno to `error_pipe` (close-on-exec, so success closes it).
/// Execs only after the parent has sent a byte on `go_socket` (it has put
/// the child's group under the watchdog by then). The leader dies with the
/// parent (PR_SET_PDEATHSIG; also while it waits here, as another child
/// forked meanwhile may hold the other end of this socket open), and a parent
/// that died before that was set is caught by getppid().
[[noreturn]] void exec_child(const ChildPlan& plan, int stdin_descriptor, int output_descriptor,
                             int stderr_descriptor, int error_pipe, int go_socket, pid_t parent) {
  ::setpgid(0, 0);
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
#endif
  if (::getppid() != parent) ::_exit(127);
  char go = 0;
  ssize_t go_bytes;
  do {
    go_bytes = ::read(go_socket, &go, 1);
  } while (go_bytes < 0 && errno == EINTR);
  if (go_bytes != 1) ::_exit(127);
  sigset_t all_signals;
  sigemptyset(&all_signals);
  ::sigprocmask(SIG_SETMASK, &all_signals, nullptr);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(SIGPIPE, &default_action, nullptr);
  ::sigaction(SIGTERM, &default_action, nullptr);
  ::sigaction(SIGINT, &default_action, nullptr);

  int error_number = 0;
  if (::dup2(stdin_descriptor, STDIN_FILENO) < 0 || ::dup2(output_descriptor, STDOUT_FILENO) < 0 ||
      ::dup2(stderr_descriptor, STDERR_FILENO) < 0) {
    error_number = errno;
  } else if (!plan.working_directory.empty() && ::chdir(plan.working_directory.c_str()) != 0) {
    error_number = errno;
  } else {
    ::execve(plan.program_path.c_str(), plan.argv.data(), plan.environment.data());
    error_number = errno;
  }
  ssize_t ignored = ::write(error_pipe, &error_number, sizeof error_number);
  (void)ignored;
  ::_exit(127);
}

/// Kills and reaps the group if the loop leaves by an exception (e.g. a
/// throwing on_line callback), so no process outlives the call.
class GroupGuard {
 public:
  explicit GroupGuard(pid_t group) : group_(group) {}
  ~GroupGuard() {
    if (!armed_) return;
    signal_group(group_, SIGKILL);
    int status = 0;
    ::waitpid(group_, &status, 0);
    reap_group_members(group_);
  }
  GroupGuard(const GroupGuard&) = delete;
  GroupGuard& operator=(const GroupGuard&) = delete;
  void disarm() { armed_ = false; }

 private:
  pid_t group_;
  bool armed_ = true;
};

/// Puts `child` (not yet exec'd) under `limits`: into `control_group` when
/// there is one, setrlimit for what no group holds. Returns how (for
/// ProcessResult::limits_enforced).
std::string apply_limits(pid_t child, const ResourceLimits& limits, std::unique_ptr<ControlGroup>& control_group) {
  if (!limits.any()) return {};
  if (control_group && !control_group->add(child)) control_group.reset();
  std::vector<std::string> how;
  if (control_group) how.push_back("control group (" + control_group->description() + ")");
  std::string rlimits;
  const auto set_limit = [&](decltype(RLIMIT_CPU) resource, const char* name, std::uint64_t value) {
    const rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
    if (::prlimit(child, resource, &limit, nullptr) == 0)
      rlimits += (rlimits.empty() ? "" : ", ") + std::string(name);
  };
  if (limits.cpu_seconds) set_limit(RLIMIT_CPU, "RLIMIT_CPU", *limits.cpu_seconds);
  if (limits.memory_bytes && !control_group) set_limit(RLIMIT_AS, "RLIMIT_AS", *limits.memory_bytes);
  if (!rlimits.empty()) how.push_back("resource limits (" + rlimits + ")");
  if (limits.processes && !control_group) how.push_back("no process limit (no control group)");
  std::string text;
  for (const auto& part : how) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace

std::optional<std::filesystem::path> current_executable() {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error || path.empty() || !is_executable_file(path)) return std::nullopt;  // " (deleted)": replaced meanwhile
  return path;
}

std::optional<std::filesystem::path> find_program(std::string_view program) {
  const char* search_path = std::getenv("PATH");
  return find_on_path(program, search_path != nullptr ? search_path : "/usr/bin:/bin");
}

ProcessResult run_process(const ProcessRequest& request) {
  ProcessResult result;
  const Clock::time_point started_at = Clock::now();
  auto elapsed_seconds = [&] {
    return std::chrono::duration<double>(Clock::now() - started_at).count();
  };

  if (request.argv.empty() || request.argv.front().empty()) {
    result.error = "no command given";
    return result;
  }

  // Prepare everything the child needs before forking.
  ChildPlan plan;
  std::map<std::string, std::string> environment = child_environment(request);
  auto path_entry = environment.find("PATH");
  std::string search_path = path_entry != environment.end() ? path_entry->second : "/usr/bin:/bin";
  std::optional<std::filesystem::path> program = find_on_path(request.argv.front(), search_path);
  if (!program) {
    result.error = "command not found: " + request.argv.front();
    result.seconds = elapsed_seconds();
    result.counted_seconds = result.seconds;
    return result;
  }
  plan.program_path = program->string();
  plan.argv_storage = request.argv;
  for (std::string& argument : plan.argv_storage) plan.argv.push_back(argument.data());
  plan.argv.push_back(nullptr);
  for (const auto& [name, value] : environment) plan.environment_storage.push_back(name + "=" + value);
  for (std::string& entry : plan.environment_storage) plan.environment.push_back(entry.data());
  plan.environment.push_back(nullptr);
  plan.working_directory = request.working_directory.string();

  OutputSink sink(request, result.output);

  auto [output_read, output_write] = close_on_exec_pipe();

  // stderr: merged into the output, or a pipe of its own (separate_stderr).
  FileDescriptor stderr_read;
  FileDescriptor stderr_write;
  if (request.separate_stderr) std::tie(stderr_read, stderr_write) = close_on_exec_pipe();

  auto [error_read, error_write] = close_on_exec_pipe();

  // stdin: a socket pair when there is text to send (send() with
  // MSG_NOSIGNAL cannot raise SIGPIPE in this process), else /dev/null.
  FileDescriptor stdin_parent;
  FileDescriptor stdin_child;
  if (request.stdin_text) {
    int sockets[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
      throw Error(system_message("socketpair", errno));
    stdin_parent = FileDescriptor(sockets[0]);
    stdin_child = FileDescriptor(sockets[1]);
    ::shutdown(stdin_child.get(), SHUT_WR);
    ::fcntl(stdin_parent.get(), F_SETFL, ::fcntl(stdin_parent.get(), F_GETFL) | O_NONBLOCK);
  } else {
    stdin_child = FileDescriptor(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!stdin_child.valid()) throw Error(system_message("/dev/null", errno));
  }

  // The go signal: a socket, so sending to a child that is gone cannot raise SIGPIPE.
  int go_sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go_sockets) != 0)
    throw Error(system_message("socketpair", errno));
  FileDescriptor go_read(go_sockets[0]);
  FileDescriptor go_write(go_sockets[1]);

  // Limits: a control group for memory and processes where one can be made,
  // setrlimit for the rest (applied before the child may exec, below).
  std::unique_ptr<ControlGroup> control_group;
  std::string no_control_group;
  const ResourceLimits& limits = request.limits;
  if ((limits.memory_bytes || limits.processes) && request.use_control_group)
    control_group = ControlGroup::create(usable_control_groups(), limits, no_control_group);

  become_subreaper();
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) throw Error(system_message("fork", errno));
  if (child == 0)
    exec_child(plan, stdin_child.get(), output_write.get(),
               stderr_write.valid() ? stderr_write.get() : output_write.get(), error_write.get(),
               go_read.get(), parent);

  ::setpgid(child, child);  // also done by the child; whichever runs first wins
  const pid_t group = child;
  WatchedGroup watched;  // destroyed after `guard`: forgets the group once it is gone
  GroupGuard guard(group);
  output_write.reset();
  stderr_write.reset();
  error_write.reset();
  stdin_child.reset();
  go_read.reset();
  // The child waits for this byte: its group is watched before it can exec,
  // so even a kill of this process right after fork leaves nothing running.
  watched.watch(group);
  result.limits_enforced = apply_limits(child, limits, control_group);
  const char go = 1;
  while (::send(go_write.get(), &go, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
  go_write.reset();

  // Did exec succeed? The error pipe closes on exec, or carries errno.
  int exec_error = 0;
  ssize_t error_bytes;
  do {
    error_bytes = ::read(error_read.get(), &exec_error, sizeof exec_error);
  } while (error_bytes < 0 && errno == EINTR);
  if (error_bytes == static_cast<ssize_t>(sizeof exec_error)) {
    int status = 0;
    ::waitpid(child, &status, 0);
    guard.disarm();
    result.error = system_message("cannot run " + request.argv.front(), exec_error);
    result.seconds = elapsed_seconds();
    result.counted_seconds = result.seconds;
    return result;
  }
  result.started = true;
  ::fcntl(output_read.get(), F_SETFL, ::fcntl(output_read.get(), F_GETFL) | O_NONBLOCK);
  bool stderr_open = stderr_read.valid();
  if (stderr_open) ::fcntl(stderr_read.get(), F_SETFL, ::fcntl(stderr_read.get(), F_GETFL) | O_NONBLOCK);
  auto keep_stderr = [&](std::string_view bytes) {
    result.error_output.append(bytes);
    if (result.error_output.size() > 2 * request.keep_output_bytes)
      result.error_output.erase(0, result.error_output.size() - request.keep_output_bytes);
  };

  std::string_view pending_stdin;
  if (request.stdin_text) pending_stdin = *request.stdin_text;
  if (pending_stdin.empty()) stdin_parent.reset();

  std::optional<Clock::time_point> deadline;
  if (request.timeout) {
    deadline = started_at + std::chrono::duration_cast<Clock::duration>(*request.timeout);
  }
  // A load-following timeout counts the processor time the machine could give.
  LoadClock load_clock;
  double counted = 0.0;
  std::optional<Clock::time_point> kill_at;     // SIGKILL due (SIGTERM already sent)
  std::optional<Clock::time_point> give_up_at;  // SIGKILL sent; stop waiting for stragglers
  bool leader_exited = false;
  bool output_open = true;
  char buffer[65536];

  auto terminate_group = [&](Clock::time_point now) {
    if (kill_at || give_up_at) return;
    if (signal_group(group, SIGTERM)) kill_at = now + termination_grace;
  };

  while (true) {
    const Clock::time_point now = Clock::now();
    if (request.timeout_follows_load) counted = load_clock.counted();
    const bool past_deadline = deadline && (request.timeout_follows_load
                                                ? counted >= request.timeout->count()
                                                : now >= *deadline);
    if (past_deadline && !result.timed_out && !leader_exited) {
      result.timed_out = true;
      terminate_group(now);
    }
    if (kill_at && now >= *kill_at) {
      signal_group(group, SIGKILL);
      kill_at.reset();
      give_up_at = now + reap_limit;
    }

    auto leader_gone = [&](int status) {
      leader_exited = true;
      result.exit_code = exit_code_from_status(status);
      // No process outlives its step: what the leader left behind goes too.
      terminate_group(now);
    };
    if (!leader_exited) {
      int status = 0;
      pid_t reaped = ::waitpid(child, &status, WNOHANG);
      if (reaped == child) leader_gone(status);
    }
    // Reaping the group can reap the leader too, if it exited just now.
    if (const auto leader_status = reap_group_members(group); leader_status && !leader_exited)
      leader_gone(*leader_status);
    const bool group_alive = ::kill(-group, 0) == 0;

    if (leader_exited && !group_alive) {
      while (stderr_open) {
        ssize_t count = ::read(stderr_read.get(), buffer, sizeof buffer);
        if (count > 0) keep_stderr(std::string_view(buffer, static_cast<std::size_t>(count)));
        else if (count < 0 && errno == EINTR) continue;
        else stderr_open = false;
      }
      // Drain what is still buffered; a writer outside the group cannot
      // hold the call open.
      while (output_open) {
        ssize_t count = ::read(output_read.get(), buffer, sizeof buffer);
        if (count > 0) {
          sink.append(std::string_view(buffer, static_cast<std::size_t>(count)));
        } else if (count < 0 && errno == EINTR) {
          continue;
        } else {
          output_open = false;
        }
      }
      break;
    }
    if (give_up_at && now >= *give_up_at && leader_exited) break;

    pollfd watched[3];
    nfds_t watched_count = 0;
    if (output_open) watched[watched_count++] = {output_read.get(), POLLIN, 0};
    if (stderr_open) watched[watched_count++] = {stderr_read.get(), POLLIN, 0};
    const bool writing_stdin = stdin_parent.valid();
    if (writing_stdin) watched[watched_count++] = {stdin_parent.get(), POLLOUT, 0};
    int ready = ::poll(watched, watched_count, poll_tick_milliseconds);
    if (ready < 0 && errno != EINTR) throw Error(system_message("poll", errno));
    if (ready <= 0) continue;

    for (nfds_t index = 0; index < watched_count; ++index) {
      const pollfd& entry = watched[index];
      if (entry.revents == 0) continue;
      if (entry.fd == output_read.get()) {
        ssize_t count = ::read(output_read.get(), buffer, sizeof buffer);
        if (count > 0) {
          sink.append(std::string_view(buffer, static_cast<std::size_t>(count)));
        } else if (count == 0 || (errno != EAGAIN && errno != EINTR)) {
          output_open = false;
          output_read.reset();
        }
      } else if (stderr_open && entry.fd == stderr_read.get()) {
        ssize_t count = ::read(stderr_read.get(), buffer, sizeof buffer);
        if (count > 0) {
          keep_stderr(std::string_view(buffer, static_cast<std::size_t>(count)));
        } else if (count == 0 || (errno != EAGAIN && errno != EINTR)) {
          stderr_open = false;
        }
      } else if (entry.fd == stdin_parent.get()) {
        ssize_t sent = ::send(stdin_parent.get(), pending_stdin.data(), pending_stdin.size(),
                              MSG_NOSIGNAL);
        if (sent > 0) {
          pending_stdin.remove_prefix(static_cast<std::size_t>(sent));
          if (pending_stdin.empty()) stdin_parent.reset();  // EOF for the child
        } else if (sent < 0 && errno != EAGAIN && errno != EINTR) {
          stdin_parent.reset();  // the child stopped reading
        }
      }
    }
  }

  guard.disarm();
  if (control_group) {
    // What left the step's process group (another session) goes too.
    control_group->kill_all();
    result.memory_limit_reached = control_group->memory_limit_reached();
  }
  sink.finish();
  result.seconds = elapsed_seconds();
  result.counted_seconds = request.timeout_follows_load ? std::min(counted, result.seconds) : result.seconds;
  return result;
}

}  // namespace hydra::util
