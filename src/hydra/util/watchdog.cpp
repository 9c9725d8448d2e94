// The watchdog (watchdog.hpp).
#include <hydra/util/watchdog.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

#include <hydra/error.hpp>
#include <hydra/util/file_descriptor.hpp>

namespace hydra::util {
namespace {

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

}  // namespace

WatchedGroup::~WatchedGroup() {
  if (group_ > 0) watchdog().forget(group_);
}

void WatchedGroup::watch(pid_t group) {
  watchdog().watch(group);
  group_ = group;
}

}  // namespace hydra::util
