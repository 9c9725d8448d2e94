// Tests for hydra::util::run_process: exit codes, output, environment,
// stdin, start failures and the timeout that kills a whole process group.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <hydra/util/process.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

#include "capture/process_table.hpp"

using hydra::util::ProcessRequest;
using hydra::util::ProcessResult;
using hydra::util::run_process;

namespace {

ProcessRequest shell(const std::string& command) {
  ProcessRequest request;
  request.argv = {"/bin/sh", "-c", command};
  return request;
}

std::string read_all(const std::filesystem::path& file) {
  std::ifstream stream(file, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

/// Waits (up to 20 s) for `file` to hold a number, then returns it.
pid_t wait_for_number(const std::filesystem::path& file) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < give_up) {
    std::ifstream stream(file);
    pid_t number = 0;
    if (stream >> number && number > 0) return number;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

/// A copy of this test process (fork) that runs `body` and exits; the test
/// kills it as HydraScore might be killed.
pid_t start_runner(const std::function<void()>& body) {
  const pid_t runner = ::fork();
  if (runner == 0) {
    try {
      body();
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  return runner;
}

/// The watchdog `parent` started, if it runs.
std::vector<process_table::Entry> watchdogs_of(pid_t parent) {
  return process_table::live_processes_where(
      [&](const process_table::Entry& entry) { return entry.parent == parent && entry.name == "hydra-watchdog"; });
}

/// SIGKILLs `runner`, then expects nothing of the step's process `group` and
/// no `watchdog` to be left a second later.
void kill_and_expect_gone(pid_t runner, pid_t group, pid_t watchdog) {
  REQUIRE(::kill(runner, SIGKILL) == 0);
  int status = 0;
  REQUIRE(::waitpid(runner, &status, 0) == runner);
  CHECK(WIFSIGNALED(status));
  const auto left = process_table::wait_until_none(
      [&](const process_table::Entry& entry) { return entry.group == group || entry.pid == watchdog; },
      std::chrono::milliseconds(1000));
  INFO(process_table::describe(left));
  CHECK(left.empty());
}

}  // namespace

TEST_CASE("run_process reports exit codes", "[capture][process]") {
  SECTION("valid input") {
    ProcessResult ok = run_process(shell("exit 0"));
    CHECK(ok.started);
    CHECK(ok.exit_code == 0);
    CHECK_FALSE(ok.timed_out);

    ProcessResult three = run_process(shell("exit 3"));
    CHECK(three.started);
    CHECK(three.exit_code == 3);
  }
  SECTION("bad input") {
    // A child killed by signal N reports 128+N (SIGKILL = 9 -> 137).
    ProcessResult killed = run_process(shell("kill -KILL $$"));
    CHECK(killed.started);
    CHECK(killed.exit_code == 137);
    CHECK_FALSE(killed.timed_out);
  }
}

TEST_CASE("run_process captures merged output into the tail and the file", "[capture][process]") {
  hydra::util::TempDir directory("hydra-process-test");
  SECTION("valid input") {
    ProcessRequest request = shell("echo out; echo err 1>&2; printf last");
    request.output_file = directory.path() / "output.log";
    ProcessResult result = run_process(request);
    REQUIRE(result.started);
    CHECK(result.output == "out\nerr\nlast");
    CHECK(read_all(*request.output_file) == "out\nerr\nlast");
  }
  SECTION("the tail keeps the last bytes while the file keeps everything") {
    // 1000 lines of "0123456789\n" = 11000 bytes; the tail keeps the last 25.
    ProcessRequest request =
        shell("i=0; while [ $i -lt 1000 ]; do echo 0123456789; i=$((i+1)); done; echo end");
    request.keep_output_bytes = 25;
    request.output_file = directory.path() / "long.log";
    ProcessResult result = run_process(request);
    REQUIRE(result.started);
    CHECK(result.output.size() == 25);
    // The last 25 bytes: "123456789\n" (10) + "0123456789\n" (11) + "end\n" (4).
    CHECK(result.output == "123456789\n0123456789\nend\n");
    CHECK(read_all(*request.output_file).size() == 11000 + 4);  // 1000 * 11 + "end\n"
  }
  SECTION("bad input") {
    ProcessRequest request = shell("echo hi");
    request.output_file = directory.path() / "missing-directory" / "output.log";
    CHECK_THROWS_AS(run_process(request), hydra::Error);
  }
}

TEST_CASE("run_process calls on_line for each line", "[capture][process]") {
  std::vector<std::string> lines;
  ProcessRequest request = shell("printf 'one\\ntwo\\n\\nthree'");
  request.on_line = [&](std::string_view line) { lines.emplace_back(line); };
  ProcessResult result = run_process(request);
  REQUIRE(result.started);
  // The unterminated last line is delivered when the output ends.
  CHECK(lines == std::vector<std::string>{"one", "two", "", "three"});
}

TEST_CASE("run_process sets and unsets environment variables", "[capture][process]") {
  ::setenv("HYDRA_PROCESS_TEST_REMOVED", "present", 1);
  ProcessRequest request = shell(
      "echo \"set=$HYDRA_PROCESS_TEST_SET removed=${HYDRA_PROCESS_TEST_REMOVED-unset}\"");
  request.environment["HYDRA_PROCESS_TEST_SET"] = "yes";
  request.unset_environment = {"HYDRA_PROCESS_TEST_REMOVED"};
  ProcessResult result = run_process(request);
  ::unsetenv("HYDRA_PROCESS_TEST_REMOVED");
  REQUIRE(result.started);
  CHECK(result.output == "set=yes removed=unset\n");
}

TEST_CASE("run_process passes the command no descriptor past the standard three", "[capture][process]") {
  // A descriptor this process holds open without close-on-exec, as one a
  // CI runner leaves to what it starts, at a number code could look for.
  hydra::util::TempDir directory("hydra-process-fd");
  const int opened = ::open((directory.path() / "held").c_str(), O_WRONLY | O_CREAT, 0644);
  REQUIRE(opened >= 0);
  const int held = ::dup2(opened, 707);
  REQUIRE(held == 707);
  ::close(opened);
  const ProcessResult result = run_process(shell("ls /proc/self/fd"));
  ::close(held);
  REQUIRE(result.started);
  // The shell's own 0, 1, 2 and the descriptor ls opens to list the folder.
  CHECK(result.output.find("707") == std::string::npos);
  CHECK(result.output.rfind("0\n1\n2\n", 0) == 0);
}

TEST_CASE("run_process can give the child exactly the environment asked for", "[capture][process]") {
  ::setenv("HYDRA_PROCESS_TEST_SECRET", "s3cret", 1);
  ProcessRequest request;
  request.argv = {"/usr/bin/env"};
  request.environment = {{"ONLY", "this"}};
  request.inherit_environment = false;
  ProcessResult result = run_process(request);
  ::unsetenv("HYDRA_PROCESS_TEST_SECRET");
  REQUIRE(result.started);
  CHECK(result.output == "ONLY=this\n");
}

TEST_CASE("run_process runs in the working directory", "[capture][process]") {
  hydra::util::TempDir directory("hydra-process-test");
  ProcessRequest request = shell("pwd -P");
  request.working_directory = directory.path();
  ProcessResult result = run_process(request);
  REQUIRE(result.started);
  CHECK(result.output ==
        std::filesystem::canonical(directory.path()).string() + "\n");
}

TEST_CASE("run_process feeds stdin", "[capture][process]") {
  SECTION("valid input") {
    ProcessRequest request;
    request.argv = {"cat"};
    request.stdin_text = "line one\nline two\n";
    ProcessResult result = run_process(request);
    REQUIRE(result.started);
    CHECK(result.exit_code == 0);
    CHECK(result.output == "line one\nline two\n");
  }
  SECTION("large input the child reads completely") {
    // 200000 bytes: more than a socket buffer holds, so writing must interleave with reading.
    ProcessRequest request;
    request.argv = {"wc", "-c"};
    request.stdin_text = std::string(200000, 'x');
    ProcessResult result = run_process(request);
    REQUIRE(result.started);
    CHECK(result.output.find("200000") != std::string::npos);
  }
  SECTION("no stdin text means /dev/null") {
    ProcessRequest request;
    request.argv = {"cat"};
    ProcessResult result = run_process(request);
    REQUIRE(result.started);
    CHECK(result.exit_code == 0);
    CHECK(result.output.empty());
  }
  SECTION("bad input: a child that ignores its stdin does not break the call") {
    ProcessRequest request = shell("exit 0");
    request.stdin_text = std::string(500000, 'y');
    ProcessResult result = run_process(request);
    CHECK(result.started);
    CHECK(result.exit_code == 0);
  }
}

TEST_CASE("run_process reports a command that cannot start", "[capture][process]") {
  SECTION("command not found") {
    ProcessRequest request;
    request.argv = {"hydra-no-such-command-for-tests"};
    ProcessResult result = run_process(request);
    CHECK_FALSE(result.started);
    CHECK(result.error.find("hydra-no-such-command-for-tests") != std::string::npos);
  }
  SECTION("working directory missing") {
    ProcessRequest request = shell("true");
    request.working_directory = "/nonexistent/hydra/directory";
    ProcessResult result = run_process(request);
    CHECK_FALSE(result.started);
    CHECK_FALSE(result.error.empty());
  }
  SECTION("empty argv") {
    ProcessResult result = run_process(ProcessRequest{});
    CHECK_FALSE(result.started);
  }
}

TEST_CASE("run_process kills the whole process group on timeout", "[capture][process]") {
  hydra::util::TempDir directory("hydra-process-test");
  // The shell starts a background grandchild and a foreground child and
  // records its process id (= the group id, it is the group leader).
  const std::filesystem::path pid_file = directory.path() / "pid";
  ProcessRequest request =
      shell("echo $$ > '" + pid_file.string() + "'; sleep 100 & sleep 100");
  request.timeout = std::chrono::duration<double>(0.5);
  ProcessResult result = run_process(request);

  REQUIRE(result.started);
  CHECK(result.timed_out);
  CHECK(result.exit_code != 0);
  // Generous sanity bound only: the timeout plus the 2 s grace and slack.
  CHECK(result.seconds >= 0.5);
  CHECK(result.seconds < 30.0);

  std::ifstream pid_stream(pid_file);
  pid_t group = 0;
  pid_stream >> group;
  REQUIRE(group > 0);
  errno = 0;
  CHECK(::kill(-group, 0) == -1);
  CHECK(errno == ESRCH);
}

TEST_CASE("run_process ends background processes left behind by the child", "[capture][process]") {
  hydra::util::TempDir directory("hydra-process-test");
  const std::filesystem::path pid_file = directory.path() / "pid";
  // The leader exits at once; its background sleeper must not outlive the step.
  ProcessRequest request = shell("echo $$ > '" + pid_file.string() + "'; sleep 100 & exit 7");
  request.timeout = std::chrono::duration<double>(60.0);
  ProcessResult result = run_process(request);
  REQUIRE(result.started);
  CHECK(result.exit_code == 7);
  CHECK_FALSE(result.timed_out);

  std::ifstream pid_stream(pid_file);
  pid_t group = 0;
  pid_stream >> group;
  REQUIRE(group > 0);
  errno = 0;
  CHECK(::kill(-group, 0) == -1);
  CHECK(errno == ESRCH);
}

TEST_CASE("find_program looks programs up on PATH", "[capture][process]") {
  SECTION("valid input") {
    auto shell_path = hydra::util::find_program("sh");
    REQUIRE(shell_path);
    CHECK(shell_path->filename() == "sh");
  }
  SECTION("bad input") {
    CHECK_FALSE(hydra::util::find_program("hydra-no-such-command-for-tests"));
    CHECK_FALSE(hydra::util::find_program(""));
  }
}

TEST_CASE("separate_stderr keeps stderr out of the output", "[capture]") {
  hydra::util::ProcessRequest request;
  request.argv = {"/bin/sh", "-c", "echo data; echo warning >&2; echo more"};
  request.separate_stderr = true;
  const auto result = hydra::util::run_process(request);
  REQUIRE(result.started);
  CHECK(result.exit_code == 0);
  CHECK(result.output == "data\nmore\n");
  CHECK(result.error_output == "warning\n");

  request.separate_stderr = false;
  const auto merged = hydra::util::run_process(request);
  CHECK(merged.output.find("warning") != std::string::npos);
  CHECK(merged.error_output.empty());
}

TEST_CASE("a step's whole process group dies with the process that ran it, even by SIGKILL",
          "[capture][process]") {
  hydra::util::TempDir directory("hydra-process-test");
  const std::filesystem::path pid_file = directory.path() / "pid";
  // The step: a shell (the group leader) with a background and a foreground
  // child; it writes its process id (= the group id) once they run.
  const pid_t runner = start_runner([&] {
    run_process(shell("sleep 100 & echo $$ > '" + pid_file.string() + ".new'; mv '" + pid_file.string() +
                      ".new' '" + pid_file.string() + "'; sleep 100"));
  });
  REQUIRE(runner > 0);
  const pid_t group = wait_for_number(pid_file);
  REQUIRE(group > 0);
  auto in_group = [&](const process_table::Entry& entry) { return entry.group == group; };
  // The shell and its two sleeps run, and so does the runner's watchdog.
  CHECK(process_table::live_processes_where(in_group).size() >= 2);
  const auto watchdogs = watchdogs_of(runner);
  CHECK(watchdogs.size() == 1);
  const pid_t watchdog = watchdogs.empty() ? -1 : watchdogs.front().pid;

  // Within a second nothing of the step is left, and the watchdog is gone too.
  kill_and_expect_gone(runner, group, watchdog);
}

TEST_CASE("the watchdog leaves with its process, and a killed watchdog is replaced", "[capture][process]") {
  hydra::util::TempDir directory("hydra-process-test");
  const std::filesystem::path first_done = directory.path() / "first";
  const std::filesystem::path go_on = directory.path() / "go-on";
  const std::filesystem::path pid_file = directory.path() / "pid";
  const pid_t runner = start_runner([&] {
    // One step, then wait (at most 20 s) for the test to kill the watchdog,
    // then a long step: a new watchdog must watch it.
    const auto first = run_process(shell("echo $$ > '" + first_done.string() + "'"));
    if (first.exit_code != 0) ::_exit(4);
    for (int tick = 0; tick < 2000 && !std::filesystem::exists(go_on); ++tick)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    run_process(shell("echo $$ > '" + pid_file.string() + ".new'; mv '" + pid_file.string() + ".new' '" +
                      pid_file.string() + "'; sleep 100"));
  });
  REQUIRE(runner > 0);
  REQUIRE(wait_for_number(first_done) > 0);
  // The step is over; the watchdog stays for the next one.
  const auto first_watchdogs = watchdogs_of(runner);
  REQUIRE(first_watchdogs.size() == 1);
  const pid_t first_watchdog = first_watchdogs.front().pid;
  REQUIRE(::kill(first_watchdog, SIGKILL) == 0);
  hydra::util::write_file_atomic(go_on, "");

  const pid_t group = wait_for_number(pid_file);
  REQUIRE(group > 0);
  const auto second_watchdogs = watchdogs_of(runner);
  REQUIRE(second_watchdogs.size() == 1);
  CHECK(second_watchdogs.front().pid != first_watchdog);

  kill_and_expect_gone(runner, group, second_watchdogs.front().pid);
}

TEST_CASE("a process that ends normally takes its watchdog with it", "[capture][process]") {
  hydra::util::TempDir directory("hydra-process-test");
  const std::filesystem::path step_done = directory.path() / "done";
  const std::filesystem::path may_exit = directory.path() / "may-exit";
  const pid_t runner = start_runner([&] {
    run_process(shell("echo $$ > '" + step_done.string() + "'"));
    for (int tick = 0; tick < 2000 && !std::filesystem::exists(may_exit); ++tick)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  REQUIRE(runner > 0);
  REQUIRE(wait_for_number(step_done) > 0);
  const auto watchdogs = watchdogs_of(runner);
  REQUIRE(watchdogs.size() == 1);
  const pid_t watchdog = watchdogs.front().pid;
  hydra::util::write_file_atomic(may_exit, "");
  int status = 0;
  REQUIRE(::waitpid(runner, &status, 0) == runner);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  const auto lingering = process_table::wait_until_none(
      [&](const process_table::Entry& entry) { return entry.pid == watchdog; }, std::chrono::milliseconds(1000));
  CHECK(lingering.empty());
}
