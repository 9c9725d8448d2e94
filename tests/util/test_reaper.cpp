// Tests for the step reaper (hydra::util::run_reaped, run as `hydra-score
// run-step`): what a command's programs leave running is killed as soon as
// they end, so a reader of their output goes on, and nothing outlives the
// command.
#include <catch2/catch.hpp>

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "test_paths.hpp"

namespace {

const std::filesystem::path kTool = HYDRA_TOOL_PATH;

hydra::util::ProcessRequest reaped(const std::string& command, bool with_reaper = true) {
  hydra::util::ProcessRequest request;
  request.argv = {"/bin/sh", "-c", command};
  if (with_reaper) request.argv.insert(request.argv.begin(), {kTool.string(), "run-step", "--"});
  request.timeout = std::chrono::seconds(120);
  return request;
}

pid_t number_in(const std::filesystem::path& file) {
  std::ifstream stream(file);
  pid_t number = 0;
  stream >> number;
  return number;
}

/// Whether `pid` still runs: a killed process can stay a zombie for a moment
/// until whoever adopted it reaps it (longer on a busy machine), so a zombie
/// does not count, and a process gets up to five seconds to go.
bool alive(pid_t pid) {
  if (pid <= 0) return false;
  for (int attempt = 0; attempt < 50; ++attempt) {
    errno = 0;
    if (::kill(pid, 0) != 0 && errno == ESRCH) return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto close = text.rfind(')');
    if (close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z') return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

}  // namespace

TEST_CASE("the reaper kills a process its parent left behind, so a reader of its output goes on",
          "[util][process][reaper]") {
  hydra::util::TempDir directory("hydra-reaper");
  const std::filesystem::path orphan = directory.path() / "orphan";
  // The shell waits for the end of the output of a subshell; the subshell
  // starts a process in a session of its own that keeps that output open,
  // writes its number and ends: the process is an orphan (like a test
  // program's forked child that called setsid(), which keeps ctest waiting
  // for its pipes). The number is written by its parent, before the process
  // is an orphan: the reaper may kill it before it runs at all.
  const std::string command = "out=$( (setsid sleep 300 & echo $! > " + orphan.string() +
                              ") ; echo done ); echo \"got $out\"";

  SECTION("under the reaper: the orphan is killed, the command ends") {
    const auto result = hydra::util::run_process(reaped(command));
    INFO(result.output);
    REQUIRE(result.started);
    CHECK_FALSE(result.timed_out);
    CHECK(result.exit_code == 0);
    CHECK(result.output.find("got done") != std::string::npos);
    const pid_t pid = number_in(orphan);
    REQUIRE(pid > 0);
    CHECK_FALSE(alive(pid));
  }
  SECTION("without it the command waits for the orphan") {
    auto request = reaped(command, false);
    request.timeout = std::chrono::seconds(3);
    const auto result = hydra::util::run_process(request);
    CHECK(result.timed_out);
    // Out of the step's process group, the orphan is left to this test; on
    // a busy machine it may not have written its number yet.
    pid_t pid = number_in(orphan);
    for (int attempt = 0; pid <= 0 && attempt < 100; ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      pid = number_in(orphan);
    }
    if (pid > 0) ::kill(pid, SIGKILL);
  }
}

TEST_CASE("the reaper kills what an orphan started in its session, and what the command left when it ends",
          "[util][process][reaper]") {
  hydra::util::TempDir directory("hydra-reaper");
  const std::filesystem::path leader = directory.path() / "leader", member = directory.path() / "member",
                              child = directory.path() / "child";
  // An orphan leading a session with a member of its own; and a background
  // child of the command that is still running when the command ends. The
  // subshell waits for both numbers before it ends and leaves the leader an
  // orphan (the reaper kills an orphan at once, maybe before it would start
  // its member).
  const auto result = hydra::util::run_process(reaped(
      "(setsid sh -c 'sleep 300 & echo $! > " + member.string() + "; echo $$ > " + leader.string() +
      "; exec sleep 300' </dev/null >/dev/null 2>&1 & while [ ! -s " + member.string() + " ] || [ ! -s " +
      leader.string() + " ]; do sleep 0.05; done); sleep 300 </dev/null >/dev/null 2>&1 & echo $! > " +
      child.string() + "; exit 4"));
  REQUIRE(result.started);
  CHECK_FALSE(result.timed_out);
  CHECK(result.exit_code == 4);  // the command's own status
  for (const auto& file : {leader, member, child}) {
    CAPTURE(file);
    const pid_t pid = number_in(file);
    REQUIRE(pid > 0);
    CHECK_FALSE(alive(pid));
  }
}

TEST_CASE("the reaper passes on the command's status, a signal's and a start failure's", "[util][process][reaper]") {
  SECTION("an exit status") { CHECK(hydra::util::run_process(reaped("exit 5")).exit_code == 5); }
  SECTION("a signal N as 128+N") { CHECK(hydra::util::run_process(reaped("kill -TERM $$")).exit_code == 128 + SIGTERM); }
  SECTION("a command that cannot start: 127, saying why") {
    hydra::util::ProcessRequest request;
    request.argv = {kTool.string(), "run-step", "--", "/nonexistent/program"};
    const auto result = hydra::util::run_process(request);
    CHECK(result.exit_code == 127);
    CHECK(result.output.find("cannot run /nonexistent/program") != std::string::npos);
  }
}

TEST_CASE("the reaper's command starts with the signal mask the reaper was given", "[util][process][reaper]") {
  // The reaper blocks SIGCHLD to wake as soon as a child ends; the command
  // must not inherit that (a test that waits for SIGCHLD would hang).
  hydra::util::ProcessRequest request = reaped("grep '^SigBlk:' /proc/self/status");
  const auto result = hydra::util::run_process(request);
  CHECK(result.exit_code == 0);
  CHECK(result.output.find("SigBlk:\t0000000000000000") != std::string::npos);
}
