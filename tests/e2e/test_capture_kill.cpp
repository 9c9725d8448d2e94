// End to end: `hydra-score capture` killed by SIGKILL (during lint, then at
// random moments from a fixed seed) leaves no process running a second later
// and no staging directory behind once the next capture into the same place
// has started; that capture recovers. bench/kill_capture.sh does the same
// with 20 random kill points over a whole cold capture.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <random>
#include <thread>

#include <hydra/config/config.hpp>
#include <hydra/pipeline/run_dir.hpp>

#include "capture/process_table.hpp"
#include "e2e_support.hpp"

extern char** environ;

using namespace e2e;

namespace {

/// Starts `argv` in the background, output appended to `log`; returns its pid.
pid_t spawn(const std::vector<std::string>& argv, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> arguments;
  for (const auto& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);
  pid_t pid = -1;
  const int error = ::posix_spawn(&pid, arguments[0], &actions, nullptr, arguments.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

void kill_and_reap(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

/// The hidden staging directories next to `out`.
std::vector<std::string> staging_directories(const fs::path& out) {
  std::vector<std::string> found;
  const std::string prefix = "." + out.filename().string() + ".capture-";
  for (const auto& entry : fs::directory_iterator(out.parent_path()))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) found.push_back(entry.path().filename().string());
  return found;
}

}  // namespace

TEST_CASE("a killed capture leaves no process and, after the next capture, no staging directory",
          "[e2e][capture][kill]") {
  hydra::util::TempDir temp("hydra-kill");
  const fs::path source = temp.path() / "example-project";
  make_example_repository(source);
  const fs::path out = temp.path() / "run";
  const fs::path log = temp.path() / "capture.log";
  const std::vector<std::string> capture = capture_command(
      source, out, {"--build-dir", (temp.path() / "tree").string(), "--generator", "Ninja", "--agent", "killed"});
  const std::string here = temp.path().string();
  auto mentions_here = [&](const process_table::Entry& entry) {
    return entry.command.find(here) != std::string::npos;
  };

  // 1. Killed while clang-tidy runs (a cold capture: configure, build, test, then lint).
  const pid_t first = spawn(capture, log);
  REQUIRE(first > 0);
  std::vector<process_table::Entry> linting;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (linting.empty() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    linting = process_table::live_processes_where(
        [&](const process_table::Entry& entry) { return entry.name == "clang-tidy" && mentions_here(entry); });
  }
  if (linting.empty()) kill_and_reap(first);
  INFO(hydra::util::read_file(log));
  REQUIRE_FALSE(linting.empty());
  kill_and_reap(first);
  const auto after_lint_kill = process_table::wait_until_none(mentions_here, std::chrono::milliseconds(1000));
  INFO(process_table::describe(after_lint_kill));
  CHECK(after_lint_kill.empty());
  CHECK(staging_directories(out).size() == 1);  // the killed capture's own

  // 2. Killed at random moments of a capture of the (now built) tree: git,
  // the sandbox probe, the build, ctest, lint. Fixed seed: the same points
  // every run. Each later capture removes the staging directory before it.
  std::mt19937 random(18);
  std::uniform_int_distribution<int> moment_ms(0, 3000);
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int at_ms = moment_ms(random);
    const pid_t pid = spawn(capture, log);
    REQUIRE(pid > 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(at_ms));
    kill_and_reap(pid);
    const auto left = process_table::wait_until_none(mentions_here, std::chrono::milliseconds(1000));
    const auto staged = staging_directories(out);
    INFO("killed at " << at_ms << " ms\n" << process_table::describe(left) << "staging directories: "
                      << staged.size());
    CHECK(left.empty());
    CHECK(staged.size() <= 1);
  }

  // 3. The next capture runs to the end (without lint, to keep the suite
  // fast: no clang-tidy at that path), publishes a sealed run and leaves no
  // staging directory.
  const auto last = run(capture, {}, {{"HYDRA_SCORE_CLANG_TIDY", (temp.path() / "no-clang-tidy").string()}});
  INFO(last.output);
  REQUIRE(last.exit_code == 0);
  CHECK(staging_directories(out).empty());
  const auto loaded = hydra::pipeline::load(out, hydra::config::Config{});  // verifies the seal
  CHECK(loaded.build.known);
  CHECK(loaded.build.passed);
  CHECK(loaded.integrity_problems.empty());
  CHECK(process_table::live_processes_where(mentions_here).empty());
}

TEST_CASE("a process that leaves its step's process group does not outlive the step", "[e2e][capture][kill]") {
  hydra::util::TempDir temp("hydra-escape");
  const fs::path source = temp.path() / "project";
  fs::create_directories(source);
  // A test that starts a daemon in a session of its own (setsid --fork: a new
  // process group, out of reach of the step's group kill), detached from
  // ctest's output (so ctest does not wait for it), and passes at once. The
  // daemon's shell names the temporary directory, to be found below.
  hydra::util::write_file_atomic(
      source / "CMakeLists.txt",
      "cmake_minimum_required(VERSION 3.16)\n"
      "project(escape NONE)\n"
      "enable_testing()\n"
      "add_test(NAME leaves_a_daemon COMMAND sh -c "
      "\"setsid --fork sh -c 'sleep 60; true' escapee-${CMAKE_BINARY_DIR} </dev/null >/dev/null 2>&1\")\n");
  const fs::path out = temp.path() / "run";
  const auto captured =
      run(capture_command(source, out, {"--build-dir", (temp.path() / "tree").string(), "--generator", "Ninja"}));
  INFO(captured.output);
  REQUIRE(captured.exit_code == 0);
  const std::string sandbox = read_json(out / "manifest.json").value("sandbox", std::string());
  INFO("sandbox: " << sandbox);
  const auto escapees = process_table::live_processes_where([&](const process_table::Entry& entry) {
    return entry.command.find("escapee-" + temp.path().string()) != std::string::npos;
  });
  for (const auto& escapee : escapees) ::kill(escapee.pid, SIGKILL);
  if (sandbox.find("PID namespace") == std::string::npos) {
    // Without bubblewrap's PID namespace only the process group is killed.
    WARN("no PID namespace for the steps here; the escape is not contained: " << sandbox);
    return;
  }
  INFO(process_table::describe(escapees));
  CHECK(escapees.empty());
  // The test did run (and passed): the daemon was started, then ended with the step.
  const auto loaded = hydra::pipeline::load(out, hydra::config::Config{});
  REQUIRE(loaded.tests.has_value());
  REQUIRE(loaded.tests->size() == 1);
  CHECK(loaded.tests->front().status == hydra::model::TestStatus::passed);
}
