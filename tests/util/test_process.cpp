// Tests for hydra::util::run_process: exit codes, output, environment,
// stdin, start failures and the timeout that kills a whole process group.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <hydra/util/process.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

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
