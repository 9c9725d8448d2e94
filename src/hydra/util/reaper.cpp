// The step reaper (reaper.hpp).
#include <hydra/util/reaper.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include <hydra/util/process_table.hpp>

namespace hydra::util {
namespace {

volatile sig_atomic_t termination_signal = 0;

void note_termination(int signal_number) { termination_signal = signal_number; }

/// Waits up to `milliseconds` for a child to change state (SIGCHLD, which
/// the caller blocks) or a signal the process handles (which cuts it short).
void wait_for_child(const sigset_t& child_signal, long milliseconds) {
  const timespec pause{0, milliseconds * 1000000L};
  ::sigtimedwait(&child_signal, nullptr, &pause);
}

/// Kills `pid` and, when it leads a process group other than this one's,
/// that group (what it started in its own session goes with it).
void kill_with_group(pid_t pid) {
  const pid_t group = ::getpgid(pid);
  if (group == pid && group != ::getpgrp()) ::kill(-group, SIGKILL);
  ::kill(pid, SIGKILL);
}

/// Reaps every child that has ended; records `main`'s status when it is one.
void reap_ended(pid_t main, std::optional<int>& main_status) {
  while (true) {
    int status = 0;
    const pid_t reaped = ::waitpid(-1, &status, WNOHANG);
    if (reaped <= 0) return;
    if (reaped == main) main_status = status;
  }
}

/// As PID 1 of a PID namespace (the sandbox's), this process is what code
/// under test finds at /proc/1: it names itself "init" there, in `comm` and
/// in `cmdline` (its own argument area, whose bounds /proc/self/stat gives,
/// overwritten in place), so that neither names HydraScore or its command.
void look_like_init() {
#ifdef __linux__
  if (::getpid() != 1) return;
  ::prctl(PR_SET_NAME, "init", 0, 0, 0);
  std::FILE* stat = std::fopen("/proc/self/stat", "r");
  if (!stat) return;
  char buffer[4096];
  const std::size_t size = std::fread(buffer, 1, sizeof buffer - 1, stat);
  std::fclose(stat);
  buffer[size] = '\0';
  // Fields after the command name (which may hold spaces): field 3 onwards;
  // arg_start and arg_end are fields 48 and 49.
  const char* at = std::strrchr(buffer, ')');
  if (!at) return;
  unsigned long fields[49] = {};
  int field = 2;
  for (const char* cursor = at + 1; *cursor && field < 49;) {
    while (*cursor == ' ') ++cursor;
    if (!*cursor) break;
    char* end = nullptr;
    const unsigned long value = std::strtoul(cursor, &end, 10);
    fields[field++] = value;
    if (end == cursor) {
      while (*cursor && *cursor != ' ') ++cursor;
    } else {
      cursor = end;
    }
  }
  if (field < 49 || fields[47] == 0 || fields[48] <= fields[47]) return;
  char* arguments = reinterpret_cast<char*>(fields[47]);
  const std::size_t length = fields[48] - fields[47];
  std::memset(arguments, 0, length);
  std::memcpy(arguments, "init", std::min<std::size_t>(length - 1, 4));
#endif
}

}  // namespace

int run_reaped(const std::vector<std::string>& argv) {
  if (argv.empty()) return 127;
#ifdef __linux__
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
  look_like_init();
  struct sigaction note {};
  note.sa_handler = note_termination;
  sigemptyset(&note.sa_mask);
  for (int signal_number : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(signal_number, &note, nullptr);

  std::vector<char*> arguments;
  for (const auto& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);
  // SIGCHLD stays pending while blocked, so the wait below ends as soon as
  // a child ends (the command itself or an orphan) instead of at the tick.
  sigset_t child_signal;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  sigset_t before;
  ::sigprocmask(SIG_BLOCK, &child_signal, &before);
  const pid_t main = ::fork();
  if (main < 0) {
    const std::string message = std::string("hydra-score run-step: fork: ") + std::strerror(errno) + "\n";
    ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
    (void)ignored;
    return 127;
  }
  if (main == 0) {
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    for (int signal_number : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(signal_number, &default_action, nullptr);
    ::sigprocmask(SIG_SETMASK, &before, nullptr);  // the command gets the mask this process was given
    ::execvp(arguments[0], arguments.data());
    const std::string message =
        std::string("hydra-score run-step: cannot run ") + argv[0] + ": " + std::strerror(errno) + "\n";
    ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
    (void)ignored;
    ::_exit(127);
  }

  std::optional<int> main_status;
  bool passed_on = false;
  while (true) {
    reap_ended(main, main_status);
    if (main_status) break;
    if (termination_signal != 0 && !passed_on) {
      ::kill(main, termination_signal);
      passed_on = true;
    }
    // Every child but `main` is an orphan: its parent (a test program, a
    // shell) ended and left it running.
    for (const pid_t child : child_processes(::getpid()))
      if (child != main) kill_with_group(child);
    wait_for_child(child_signal, 20);
  }
  // The command ended: nothing it started outlives it (a process that cannot
  // die, stuck in the kernel, is left after a few seconds).
  for (int round = 0; round < 2500; ++round) {
    std::optional<int> unused;
    reap_ended(main, unused);
    const auto left = child_processes(::getpid());
    if (left.empty()) break;
    for (const pid_t child : left) kill_with_group(child);
    wait_for_child(child_signal, 2);
  }
  if (WIFEXITED(*main_status)) return WEXITSTATUS(*main_status);
  if (WIFSIGNALED(*main_status)) return 128 + WTERMSIG(*main_status);
  return 127;
}

}  // namespace hydra::util
