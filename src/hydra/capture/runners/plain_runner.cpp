// HydraScore's plain runner (plain_runner.hpp).
#include <hydra/capture/runners/plain_runner.hpp>
#include <hydra/capture/runners/plain_tests.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <system_error>
#include <thread>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

extern char** environ;

namespace hydra::capture {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

/// What one test writes is read up to this many bytes per stream.
constexpr std::uintmax_t kOutputLimit = 16u << 20;

/// The shell words that run "$@" as a user's shell runs a command: as its
/// child (not exec'd in its place), then exit with its status.
constexpr const char* kShellScript = "\"$@\"; exit $?";

std::optional<std::string> find_bash() {
  for (const char* folder : {"/usr/bin", "/bin"}) {
    const std::string path = std::string(folder) + "/bash";
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  return std::nullopt;
}

/// Everything one start needs, prepared before fork.
struct Start {
  std::vector<std::string> argv_storage, environment_storage;
  std::vector<char*> argv, environment;
  std::string program, working_directory;
  fs::path out, err;
};

Start prepare(const PlainTest& test, const std::optional<std::string>& bash, const fs::path& scratch, std::size_t index) {
  Start start;
  if (bash) start.argv_storage = {"bash", "-c", kShellScript, "bash"};
  start.argv_storage.insert(start.argv_storage.end(), test.command.begin(), test.command.end());
  start.program = bash ? *bash : test.command.front();
  // The runner's environment with the test's own variables over it.
  std::map<std::string, std::string> variables;
  for (char** entry = environ; *entry; ++entry) {
    const std::string word(*entry);
    const auto equals = word.find('=');
    if (equals != std::string::npos) variables[word.substr(0, equals)] = word.substr(equals + 1);
  }
  for (const auto& word : test.environment) {
    const auto equals = word.find('=');
    if (equals != std::string::npos) variables[word.substr(0, equals)] = word.substr(equals + 1);
  }
  // Not in sorted order: a shell's own order is its hash table's.
  for (auto it = variables.rbegin(); it != variables.rend(); ++it)
    start.environment_storage.push_back(it->first + "=" + it->second);
  for (auto& word : start.argv_storage) start.argv.push_back(word.data());
  start.argv.push_back(nullptr);
  for (auto& word : start.environment_storage) start.environment.push_back(word.data());
  start.environment.push_back(nullptr);
  start.working_directory = test.working_directory;
  start.out = scratch / (std::to_string(index) + ".out");
  start.err = scratch / (std::to_string(index) + ".err");
  return start;
}

/// Forks and execs `start` in a session of its own; the pid, or -1.
pid_t launch(const Start& start, const fs::path& stdin_file) {
  const int in = ::open(stdin_file.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = ::open(start.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err = ::open(start.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  pid_t pid = -1;
  if (in >= 0 && out >= 0 && err >= 0) pid = ::fork();
  if (pid == 0) {
    ::setsid();
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    // No descriptor of the runner past the standard three.
    const long most = std::min(::sysconf(_SC_OPEN_MAX), 1L << 16);
    for (int fd = 3; fd < most; ++fd) ::close(fd);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (!start.working_directory.empty() && ::chdir(start.working_directory.c_str()) != 0) {
      const char* said = "hydra-score test-plain: cannot enter the working directory\n";
      (void)!::write(2, said, std::strlen(said));
      ::_exit(127);
    }
    ::execve(start.program.c_str(), start.argv.data(), start.environment.data());
    const char* said = "hydra-score test-plain: cannot run the test's program\n";
    (void)!::write(2, said, std::strlen(said));
    ::_exit(127);
  }
  for (int fd : {in, out, err})
    if (fd >= 0) ::close(fd);
  return pid;
}

std::string read_limited(const fs::path& file) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(file, error);
  if (error || size == 0) return {};
  std::ifstream in(file, std::ios::binary);
  std::string text(std::min(size, kOutputLimit), '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(in.gcount()));
  return text;
}

/// A process that ends at once (its number, or -1); apart, so that vfork
/// clobbers no caller's variable.
[[gnu::noinline]] pid_t start_nothing() {
  const pid_t pid = ::vfork();
  if (pid == 0) ::_exit(0);
  return pid;
}

/// Starts and reaps processes that end at once until the next process
/// number is at least `floor` (a PID namespace of its own starts at 1);
/// gives up when the numbers wrap. On two threads where there are two
/// processors: each start costs tens of microseconds, and a floor is
/// thousands of them.
void advance_process_numbers(unsigned floor) {
  const auto advance = [floor] {
    pid_t last = 0;
    for (unsigned started = 0; started < floor; ++started) {
      const pid_t pid = start_nothing();
      if (pid < 0) return;
      ::waitpid(pid, nullptr, 0);
      if (pid < last || pid + 1 >= pid_t(floor)) return;
      last = pid;
    }
  };
  std::thread beside;
  try {
    if (std::thread::hardware_concurrency() > 1) beside = std::thread(advance);
  } catch (const std::system_error&) {
    // One thread, then.
  }
  advance();
  if (beside.joinable()) beside.join();
}

struct Running {
  std::size_t index;
  Clock::time_point started, deadline;
  bool timed_out = false;
};

}  // namespace

int run_plain_tests(const std::vector<std::string>& arguments) {
  // Nothing the tests run can open this process's descriptors or memory
  // through /proc, nor trace it.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  PlainPlan plan;
  try {
    if (arguments.size() != 1) throw UsageError(std::string("usage: hydra-score ") + kPlainSubcommand + " PLAN");
    plan = read_plain_plan(nlohmann::json::parse(util::read_file(arguments[0])), arguments[0]);
  } catch (const std::exception& error) {
    std::cerr << "hydra-score " << kPlainSubcommand << ": " << error.what() << "\n";
    return 2;
  }
  const char* temporary = std::getenv("TMPDIR");
  std::string pattern = (fs::path(temporary && *temporary ? temporary : "/tmp") / "run-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    std::cerr << "hydra-score " << kPlainSubcommand << ": cannot make a folder in " << pattern << "\n";
    return 2;
  }
  const fs::path scratch = pattern;
  const fs::path stdin_file = scratch / "stdin";
  std::ofstream(stdin_file).close();
  const auto bash = find_bash();
  if (plan.pid_floor > 0 && ::getpid() < pid_t(plan.pid_floor)) advance_process_numbers(plan.pid_floor);
  // A test's end wakes the loop below (SIGCHLD stays pending while blocked);
  // each test starts with no signal blocked (launch).
  sigset_t child_signal;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &child_signal, nullptr);
  std::map<pid_t, Running> running;
  std::size_t next = 0;
  int status_code = 0;
  std::vector<Start> starts;
  for (std::size_t index = 0; index < plan.tests.size(); ++index)
    starts.push_back(prepare(plan.tests[index], bash, scratch, index));
  while (next < plan.tests.size() || !running.empty()) {
    while (next < plan.tests.size() && running.size() < plan.jobs) {
      const PlainTest& test = plan.tests[next];
      const pid_t pid = launch(starts[next], stdin_file);
      const auto now = Clock::now();
      if (pid < 0) {
        std::cout << plain_result_line(test.name, "not run", 127, 0) << std::endl;
        status_code = 1;
      } else {
        const double limit = test.timeout > 0 ? test.timeout : plan.timeout;
        running[pid] = {next, now, now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit > 0 ? limit : 1e9))};
      }
      ++next;
    }
    int status = 0;
    const pid_t ended = ::waitpid(-1, &status, WNOHANG);
    if (ended > 0 && running.count(ended)) {
      const Running run = running[ended];
      running.erase(ended);
      ::kill(-ended, SIGKILL);  // what the test left running in its session
      const PlainTest& test = plan.tests[run.index];
      const bool signalled = WIFSIGNALED(status);
      const int exit_code = signalled ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
      const std::string output = read_limited(starts[run.index].out) + read_limited(starts[run.index].err);
      const double seconds = std::chrono::duration<double>(Clock::now() - run.started).count();
      std::cout << plain_result_line(test.name, plain_verdict(test, exit_code, signalled, run.timed_out, output),
                                     exit_code, seconds)
                << std::endl;
      continue;
    }
    const auto now = Clock::now();
    for (auto& [pid, run] : running)
      if (!run.timed_out && now >= run.deadline) {
        run.timed_out = true;
        ::kill(-pid, SIGKILL);
      }
    const timespec tick{0, 5 * 1000000L};
    ::sigtimedwait(&child_signal, nullptr, &tick);
  }
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  return status_code;
}

}  // namespace hydra::capture
