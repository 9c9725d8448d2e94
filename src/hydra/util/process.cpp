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
#include <hydra/util/process_launch.hpp>
#include <hydra/util/process_output.hpp>
#include <hydra/util/watchdog.hpp>

namespace hydra::util {
namespace {

using launch::find_on_path;
using launch::is_executable_file;

using Clock = std::chrono::steady_clock;

/// How long the group gets between SIGTERM and SIGKILL.
constexpr std::chrono::milliseconds termination_grace{2000};
/// How long to wait for a killed group to disappear before giving up
/// (only reached when a member cannot be reaped by this process).
constexpr std::chrono::milliseconds reap_limit{5000};
/// Poll tick: how often the loop checks the deadline and the group's other
/// members. The leader's exit wakes it at once where the kernel gives a
/// process descriptor for it (Linux 5.3); elsewhere the tick is the wait.
constexpr int poll_tick_milliseconds = 20;

/// A descriptor that becomes readable when `child` exits, or none where the
/// kernel has no pidfd_open.
FileDescriptor watch_exit(pid_t child) {
#ifdef SYS_pidfd_open
  return FileDescriptor(static_cast<int>(::syscall(SYS_pidfd_open, child, 0)));
#else
  (void)child;
  return FileDescriptor();
#endif
}

/// Makes this process the reaper of its orphaned descendants (Linux), so the
/// grandchildren of a killed group can be reaped here instead of lingering
/// as zombies under an init that may not reap.
void become_subreaper() {
#ifdef __linux__
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); });
#endif
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

/// The parent's side of a started child's streams: its output (to the
/// sink), its stderr when separate, and the text for its stdin.
class ChildStreams {
 public:
  ChildStreams(const ProcessRequest& request, launch::ChildDescriptors& descriptors, OutputSink& sink,
               ProcessResult& result)
      : request_(request),
        output_read_(descriptors.output_read),
        stderr_read_(descriptors.stderr_read),
        stdin_parent_(descriptors.stdin_parent),
        sink_(sink),
        result_(result) {
    ::fcntl(output_read_.get(), F_SETFL, ::fcntl(output_read_.get(), F_GETFL) | O_NONBLOCK);
    stderr_open_ = stderr_read_.valid();
    if (stderr_open_) ::fcntl(stderr_read_.get(), F_SETFL, ::fcntl(stderr_read_.get(), F_GETFL) | O_NONBLOCK);
    if (request.stdin_text) pending_stdin_ = *request.stdin_text;
    if (pending_stdin_.empty()) stdin_parent_.reset();
  }

  /// Waits at most `milliseconds` for a stream to be ready or `exit_watch`
  /// (when valid) to say the leader ended, then reads what came and sends
  /// what stdin takes.
  void pump(int milliseconds, const FileDescriptor& exit_watch) {
    pollfd watched[4];
    nfds_t watched_count = 0;
    if (exit_watch.valid()) watched[watched_count++] = {exit_watch.get(), POLLIN, 0};
    if (output_open_) watched[watched_count++] = {output_read_.get(), POLLIN, 0};
    if (stderr_open_) watched[watched_count++] = {stderr_read_.get(), POLLIN, 0};
    if (stdin_parent_.valid()) watched[watched_count++] = {stdin_parent_.get(), POLLOUT, 0};
    int ready = ::poll(watched, watched_count, milliseconds);
    if (ready < 0 && errno != EINTR) throw Error(system_message("poll", errno));
    if (ready <= 0) return;
    for (nfds_t index = 0; index < watched_count; ++index) {
      const pollfd& entry = watched[index];
      if (entry.revents == 0 || entry.fd == exit_watch.get()) continue;
      if (entry.fd == output_read_.get()) {
        ssize_t count = ::read(output_read_.get(), buffer_, sizeof buffer_);
        if (count > 0) {
          sink_.append(std::string_view(buffer_, static_cast<std::size_t>(count)));
        } else if (count == 0 || (errno != EAGAIN && errno != EINTR)) {
          output_open_ = false;
          output_read_.reset();
        }
      } else if (stderr_open_ && entry.fd == stderr_read_.get()) {
        ssize_t count = ::read(stderr_read_.get(), buffer_, sizeof buffer_);
        if (count > 0) {
          keep_stderr(std::string_view(buffer_, static_cast<std::size_t>(count)));
        } else if (count == 0 || (errno != EAGAIN && errno != EINTR)) {
          stderr_open_ = false;
        }
      } else if (entry.fd == stdin_parent_.get()) {
        ssize_t sent = ::send(stdin_parent_.get(), pending_stdin_.data(), pending_stdin_.size(), MSG_NOSIGNAL);
        if (sent > 0) {
          pending_stdin_.remove_prefix(static_cast<std::size_t>(sent));
          if (pending_stdin_.empty()) stdin_parent_.reset();  // EOF for the child
        } else if (sent < 0 && errno != EAGAIN && errno != EINTR) {
          stdin_parent_.reset();  // the child stopped reading
        }
      }
    }
  }

  /// Reads what is still buffered once the group is gone; a writer outside
  /// the group cannot hold the call open.
  void drain() {
    while (stderr_open_) {
      ssize_t count = ::read(stderr_read_.get(), buffer_, sizeof buffer_);
      if (count > 0) keep_stderr(std::string_view(buffer_, static_cast<std::size_t>(count)));
      else if (count < 0 && errno == EINTR) continue;
      else stderr_open_ = false;
    }
    while (output_open_) {
      ssize_t count = ::read(output_read_.get(), buffer_, sizeof buffer_);
      if (count > 0) {
        sink_.append(std::string_view(buffer_, static_cast<std::size_t>(count)));
      } else if (count < 0 && errno == EINTR) {
        continue;
      } else {
        output_open_ = false;
      }
    }
  }

 private:
  void keep_stderr(std::string_view bytes) {
    result_.error_output.append(bytes);
    if (result_.error_output.size() > 2 * request_.keep_output_bytes)
      result_.error_output.erase(0, result_.error_output.size() - request_.keep_output_bytes);
  }

  const ProcessRequest& request_;
  FileDescriptor& output_read_;
  FileDescriptor& stderr_read_;
  FileDescriptor& stdin_parent_;
  OutputSink& sink_;
  ProcessResult& result_;
  std::string_view pending_stdin_;
  bool output_open_ = true;
  bool stderr_open_ = false;
  char buffer_[65536];
};

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
  std::map<std::string, std::string> environment = launch::child_environment(request);
  auto path_entry = environment.find("PATH");
  std::string search_path = path_entry != environment.end() ? path_entry->second : "/usr/bin:/bin";
  std::optional<std::filesystem::path> program = find_on_path(request.argv.front(), search_path);
  if (!program) {
    result.error = "command not found: " + request.argv.front();
    result.seconds = elapsed_seconds();
    result.counted_seconds = result.seconds;
    return result;
  }
  const launch::ChildPlan plan = launch::plan_child(request, *program, environment);
  OutputSink sink(request, result.output);
  launch::ChildDescriptors descriptors = launch::open_descriptors(request);

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
    launch::exec_child(plan, descriptors.stdin_child.get(), descriptors.output_write.get(),
                       descriptors.stderr_write.valid() ? descriptors.stderr_write.get()
                                                        : descriptors.output_write.get(),
                       descriptors.error_write.get(), descriptors.go_read.get(), parent);

  ::setpgid(child, child);  // also done by the child; whichever runs first wins
  const pid_t group = child;
  WatchedGroup watched;  // destroyed after `guard`: forgets the group once it is gone
  GroupGuard guard(group);
  descriptors.output_write.reset();
  descriptors.stderr_write.reset();
  descriptors.error_write.reset();
  descriptors.stdin_child.reset();
  descriptors.go_read.reset();
  // The child waits for this byte: its group is watched before it can exec,
  // so even a kill of this process right after fork leaves nothing running.
  watched.watch(group);
  result.limits_enforced = apply_limits(child, limits, control_group);
  const char go = 1;
  while (::send(descriptors.go_write.get(), &go, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
  descriptors.go_write.reset();

  // Did exec succeed? The error pipe closes on exec, or carries errno.
  int exec_error = 0;
  ssize_t error_bytes;
  do {
    error_bytes = ::read(descriptors.error_read.get(), &exec_error, sizeof exec_error);
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
  ChildStreams streams(request, descriptors, sink, result);
  FileDescriptor leader_exit = watch_exit(child);

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
      leader_exit.reset();  // readable from now on: the tick paces the rest
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
      streams.drain();
      break;
    }
    if (give_up_at && now >= *give_up_at && leader_exited) break;
    streams.pump(poll_tick_milliseconds, leader_exit);
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
