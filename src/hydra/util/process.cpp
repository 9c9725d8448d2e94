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

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>

#include <hydra/error.hpp>

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

/// A file descriptor closed on scope exit.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int descriptor) : descriptor_(descriptor) {}
  ~FileDescriptor() { reset(); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  FileDescriptor(FileDescriptor&& other) noexcept : descriptor_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) {
      reset();
      descriptor_ = other.release();
    }
    return *this;
  }
  int get() const { return descriptor_; }
  bool valid() const { return descriptor_ >= 0; }
  int release() {
    int descriptor = descriptor_;
    descriptor_ = -1;
    return descriptor;
  }
  void reset() {
    if (descriptor_ >= 0) ::close(descriptor_);
    descriptor_ = -1;
  }

 private:
  int descriptor_ = -1;
};

std::string system_message(const std::string& what, int error_number) {
  return what + ": " + std::strerror(error_number);
}

/// A pipe whose ends close on exec: (read end, write end).
std::pair<FileDescriptor, FileDescriptor> close_on_exec_pipe() {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw Error(system_message("pipe", errno));
  return {FileDescriptor(ends[0]), FileDescriptor(ends[1])};
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

// --- the watchdog: no step outlives this process --------------------------
//
// Every step runs in a process group of its own (so a timeout can kill the
// step with everything it started). When this process dies, by SIGKILL too,
// nothing would kill those groups: their members would be re-parented and
// keep running. PR_SET_PDEATHSIG on the leader is not enough: it reaches the
// leader only (not cmake's ninja and compilers), and it fires when the
// *thread* that forked exits, not the process.
//
// So one small process, forked on first use, watches the groups: this process
// holds one end of a socket pair and sends it "watch G" before a step's child
// may exec (the child waits for a go byte, see run_process) and "forget G"
// once the group is gone. Only this process holds that end (close-on-exec,
// and the watchdog closes its copy), so when this process dies the kernel
// closes it: the watchdog reads end-of-file, SIGKILLs every group still
// watched, and exits. A normal exit closes the end too, with nothing watched.

/// One message to the watchdog (a SOCK_SEQPACKET datagram: sent whole).
struct WatchMessage {
  std::int32_t watch;  ///< 1: watch the group, 0: forget it
  std::int32_t group;
};

/// How many groups can be watched at once (steps run in parallel: the lint
/// workers, several candidates).
constexpr std::size_t watch_capacity = 4096;
/// The watchdog's table; only the forked watchdog writes it (its own copy).
pid_t watched_table[watch_capacity];

/// Closes every descriptor from `first` up, except `keep`.
void close_descriptors_from(int first, int keep) {
#ifdef SYS_close_range
  bool closed = true;
  if (keep > first && ::syscall(SYS_close_range, first, keep - 1, 0) != 0) closed = false;
  if (closed && ::syscall(SYS_close_range, keep + 1, ~0U, 0) == 0) return;
#endif
  long limit = ::sysconf(_SC_OPEN_MAX);
  if (limit < 0 || limit > 65536) limit = 65536;
  for (int descriptor = first; descriptor < limit; ++descriptor)
    if (descriptor != keep) ::close(descriptor);
}

/// The watchdog process: runs after fork in a possibly multi-threaded parent,
/// so it makes async-signal-safe system calls only (no allocation, no locks).
[[noreturn]] void watchdog_main(int socket) {
  // Its own process group: a signal to the capture's group (Ctrl-C, a CI
  // runner ending the job) ends the capture, and the watchdog cleans up after it.
  ::setpgid(0, 0);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (int signal_number : {SIGINT, SIGQUIT, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU})
    ::sigaction(signal_number, &ignore, nullptr);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(SIGTERM, &default_action, nullptr);
  sigset_t all_signals;
  sigemptyset(&all_signals);
  ::sigprocmask(SIG_SETMASK, &all_signals, nullptr);
#ifdef __linux__
  ::prctl(PR_SET_NAME, "hydra-watchdog", 0, 0, 0);
#endif
  // Hold nothing of the parent's: no pipe it waits on, no lock, no terminal.
  if (socket <= STDERR_FILENO) socket = ::fcntl(socket, F_DUPFD, STDERR_FILENO + 1);
  if (socket < 0) ::_exit(1);
  const int null_device = ::open("/dev/null", O_RDWR);
  if (null_device >= 0) {
    ::dup2(null_device, STDIN_FILENO);
    ::dup2(null_device, STDOUT_FILENO);
    ::dup2(null_device, STDERR_FILENO);
  }
  close_descriptors_from(STDERR_FILENO + 1, socket);

  std::size_t count = 0;
  while (true) {
    WatchMessage message{};
    const ssize_t received = ::recv(socket, &message, sizeof message, 0);
    if (received < 0 && errno == EINTR) continue;
    if (received <= 0) break;  // end-of-file: the parent is gone
    if (received != static_cast<ssize_t>(sizeof message) || message.group <= 1) continue;
    if (message.watch != 0) {
      if (count < watch_capacity) watched_table[count++] = message.group;
    } else {
      for (std::size_t index = 0; index < count; ++index) {
        if (watched_table[index] == message.group) {
          watched_table[index] = watched_table[--count];
          break;
        }
      }
    }
  }
  for (std::size_t index = 0; index < count; ++index) ::kill(-watched_table[index], SIGKILL);
  ::_exit(0);
}

class Watchdog {
 public:
  /// Watches `group` from now on; throws hydra::Error when no watchdog can run.
  void watch(pid_t group) {
    std::lock_guard lock(mutex_);
    if (owner_ != ::getpid()) {
      // A forked copy of the process that started the watchdog: that one
      // is its parent's, and so are the groups it watches. Start afresh.
      if (socket_ >= 0) ::close(socket_);
      socket_ = -1;
      pid_ = -1;
      watched_.clear();
      owner_ = ::getpid();
    }
    if (watched_.size() >= watch_capacity)
      throw Error("too many processes at once (" + std::to_string(watched_.size()) + ")");
    watched_.insert(group);
    if (socket_ >= 0) {
      if (send_message(true, group)) return;
      if (errno != EPIPE && errno != ECONNRESET && errno != ENOTCONN) {
        // The watchdog is alive (closing its socket would make it kill every
        // running step): this step cannot be watched, so it does not run.
        const int error_number = errno;
        watched_.erase(group);
        throw Error(system_message("cannot reach the process watchdog", error_number));
      }
    }
    // Not started yet, or it died (somebody killed it): start one and tell
    // it every group that is still running.
    restart();
  }

  /// At exit: closes the socket and waits for the watchdog to leave, so not
  /// even it outlives a process that ends normally (atexit; exit() from a
  /// thread that holds the lock skips this, the watchdog then leaves by itself).
  void stop() noexcept {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || owner_ != ::getpid() || socket_ < 0) return;
    ::close(socket_);
    socket_ = -1;
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  /// Stops watching `group` (it is gone). Never throws.
  void forget(pid_t group) noexcept {
    std::lock_guard lock(mutex_);
    watched_.erase(group);
    if (socket_ >= 0 && owner_ == ::getpid()) send_message(false, group);
  }

 private:
  bool send_message(bool watch, pid_t group) {
    const WatchMessage message{watch ? 1 : 0, static_cast<std::int32_t>(group)};
    while (true) {
      if (::send(socket_, &message, sizeof message, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof message))
        return true;
      if (errno != EINTR) return false;
    }
  }

  void restart() {
    if (socket_ >= 0) ::close(socket_);
    socket_ = -1;
    if (pid_ > 0) {
      int status = 0;
      ::waitpid(pid_, &status, WNOHANG);  // a watchdog that died: do not leave a zombie
      pid_ = -1;
    }
    int sockets[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0)
      throw Error(system_message("cannot start the process watchdog: socketpair", errno));
    const pid_t child = ::fork();
    if (child < 0) {
      const int error_number = errno;
      ::close(sockets[0]);
      ::close(sockets[1]);
      throw Error(system_message("cannot start the process watchdog: fork", error_number));
    }
    if (child == 0) watchdog_main(sockets[1]);
    ::close(sockets[1]);
    socket_ = sockets[0];
    pid_ = child;
    if (!stop_at_exit_) stop_at_exit_ = std::atexit(stop_watchdog) == 0;
    for (const pid_t group : watched_)
      if (!send_message(true, group)) throw Error(system_message("cannot reach the process watchdog", errno));
  }

  static void stop_watchdog();

  std::mutex mutex_;
  bool stop_at_exit_ = false;
  pid_t owner_ = ::getpid();  ///< the process the watchdog below belongs to
  int socket_ = -1;
  pid_t pid_ = -1;            ///< the watchdog
  std::set<pid_t> watched_;
};

Watchdog& watchdog() {
  static Watchdog* instance = new Watchdog;  // never destroyed: in use until exit
  return *instance;
}

void Watchdog::stop_watchdog() { watchdog().stop(); }

/// Forgets a watched group when the run is over (after GroupGuard has killed
/// and reaped it, when that is needed: declare this first).
class WatchedGroup {
 public:
  WatchedGroup() = default;
  ~WatchedGroup() {
    if (group_ > 0) watchdog().forget(group_);
  }
  WatchedGroup(const WatchedGroup&) = delete;
  WatchedGroup& operator=(const WatchedGroup&) = delete;
  void watch(pid_t group) {
    watchdog().watch(group);
    group_ = group;
  }

 private:
  pid_t group_ = -1;
};

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
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text{*entry};
    std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    environment.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  for (const std::string& name : request.unset_environment) environment.erase(name);
  for (const auto& [name, value] : request.environment) environment[name] = value;
  return environment;
}

/// Collects merged output: the tail kept in memory, the full file, and lines.
class OutputSink {
 public:
  OutputSink(const ProcessRequest& request, std::string& tail) : request_(request), tail_(tail) {
    if (request.output_file) {
      file_ = FileDescriptor(::open(request.output_file->c_str(),
                                    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
      if (!file_.valid())
        throw Error(system_message("cannot write " + request.output_file->string(), errno));
    }
  }

  void append(std::string_view bytes) {
    write_to_file(bytes);
    keep_tail(bytes);
    if (request_.on_line) {
      partial_line_.append(bytes);
      std::size_t start = 0;
      for (std::size_t newline = partial_line_.find('\n'); newline != std::string::npos;
           newline = partial_line_.find('\n', start)) {
        request_.on_line(std::string_view(partial_line_).substr(start, newline - start));
        start = newline + 1;
      }
      partial_line_.erase(0, start);
    }
  }

  /// Delivers a last line that had no '\n' and trims the tail to its limit.
  void finish() {
    if (request_.on_line && !partial_line_.empty()) request_.on_line(partial_line_);
    partial_line_.clear();
    if (tail_.size() > request_.keep_output_bytes)
      tail_.erase(0, tail_.size() - request_.keep_output_bytes);
  }

 private:
  void write_to_file(std::string_view bytes) {
    if (!file_.valid()) return;
    while (!bytes.empty()) {
      ssize_t written = ::write(file_.get(), bytes.data(), bytes.size());
      if (written < 0) {
        if (errno == EINTR) continue;
        throw Error(system_message("cannot write " + request_.output_file->string(), errno));
      }
      bytes.remove_prefix(static_cast<std::size_t>(written));
    }
  }

  void keep_tail(std::string_view bytes) {
    std::size_t limit = request_.keep_output_bytes;
    if (limit == 0) return;
    if (bytes.size() >= limit) {
      tail_.assign(bytes.substr(bytes.size() - limit));
      return;
    }
    tail_.append(bytes);
    // Trim in batches so long outputs do not move the buffer on every read.
    if (tail_.size() > 2 * limit) tail_.erase(0, tail_.size() - limit);
  }

  const ProcessRequest& request_;
  std::string& tail_;
  FileDescriptor file_;
  std::string partial_line_;
};

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

}  // namespace

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
    if (deadline && !result.timed_out && now >= *deadline && !leader_exited) {
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
  sink.finish();
  result.seconds = elapsed_seconds();
  return result;
}

}  // namespace hydra::util
