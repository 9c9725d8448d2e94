// Tests run plain, outside ctest (capture/runners/plain_tests.hpp,
// plain_runner.hpp): which tests the runner takes, ctest's verdict rules,
// and the runner itself run as the capture runs it.
#include <catch2/catch.hpp>

#include <filesystem>

#include <hydra/capture/runners/plain_tests.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using hydra::capture::PlainTest;
using hydra::capture::plain_verdict;
using nlohmann::json;

namespace {

PlainTest test_named(const std::string& name) {
  PlainTest test;
  test.name = name;
  test.command = {"/bin/true"};
  return test;
}

}  // namespace

TEST_CASE("the plain runner takes the tests whose properties it models, ctest the others", "[capture]") {
  const json listing = json::parse(R"({"tests": [
    {"name": "plain", "command": ["/b/t", "x"],
     "properties": [{"name": "WORKING_DIRECTORY", "value": "/b"}, {"name": "LABELS", "value": ["u"]},
                    {"name": "ENVIRONMENT", "value": ["A=1", "B=2"]}, {"name": "WILL_FAIL", "value": true},
                    {"name": "PASS_REGULAR_EXPRESSION", "value": ["ok"]}, {"name": "TIMEOUT", "value": 7.5},
                    {"name": "SKIP_RETURN_CODE", "value": 77}]},
    {"name": "fixture", "command": ["/b/f"], "properties": [{"name": "FIXTURES_REQUIRED", "value": ["db"]}]},
    {"name": "serial", "command": ["/b/s"], "properties": [{"name": "RUN_SERIAL", "value": true}]},
    {"name": "locked", "command": ["/b/l"], "properties": [{"name": "RESOURCE_LOCK", "value": ["port"]}]},
    {"name": "bad pattern", "command": ["/b/p"],
     "properties": [{"name": "FAIL_REGULAR_EXPRESSION", "value": ["(unclosed"]}]},
    {"name": "unbuilt"},
    {"name": "not asked", "command": ["/b/n"]}]})");
  const auto selection =
      hydra::capture::select_plain_tests(listing, {"plain", "fixture", "serial", "locked", "bad pattern", "unbuilt", "missing"});
  REQUIRE(selection.direct.size() == 1);
  const PlainTest& plain = selection.direct.front();
  CHECK(plain.command == std::vector<std::string>{"/b/t", "x"});
  CHECK(plain.working_directory == "/b");
  CHECK(plain.environment == std::vector<std::string>{"A=1", "B=2"});
  CHECK(plain.will_fail);
  CHECK(plain.pass_regex == std::vector<std::string>{"ok"});
  CHECK(plain.timeout == 7.5);
  CHECK(plain.skip_return_code == 77);
  // A fixture, a test kept apart from others, a pattern RE2 does not take,
  // no program, not listed: ctest.
  CHECK(selection.ctest ==
        std::vector<std::string>{"fixture", "serial", "locked", "bad pattern", "unbuilt", "missing"});
}

TEST_CASE("the plain runner judges a test as ctest does", "[capture]") {
  PlainTest test = test_named("t");
  CHECK(plain_verdict(test, 0, false, false, "") == "passed");
  CHECK(plain_verdict(test, 1, false, false, "") == "failed");
  CHECK(plain_verdict(test, 134, true, false, "") == "failed");
  CHECK(plain_verdict(test, 0, false, true, "") == "timed out");
  // WILL_FAIL inverts the exit status, never a crash or a timeout.
  test.will_fail = true;
  CHECK(plain_verdict(test, 1, false, false, "") == "passed");
  CHECK(plain_verdict(test, 0, false, false, "") == "failed");
  CHECK(plain_verdict(test, 139, true, false, "") == "failed");
  CHECK(plain_verdict(test, 1, false, true, "") == "timed out");
  // A required pattern decides instead of the exit status.
  test = test_named("t");
  test.pass_regex = {"all [0-9]+ ok", "fine"};
  CHECK(plain_verdict(test, 3, false, false, "x\nall 12 ok\n") == "passed");
  CHECK(plain_verdict(test, 0, false, false, "all twelve ok") == "failed");
  // A failure pattern fails whatever the exit status or the required pattern.
  test.fail_regex = {"ERROR"};
  CHECK(plain_verdict(test, 0, false, false, "fine\nERROR: x") == "failed");
  // A skip is neither.
  test = test_named("t");
  test.skip_return_code = 77;
  test.skip_regex = {"SKIPPED"};
  CHECK(plain_verdict(test, 77, false, false, "") == "skipped");
  CHECK(plain_verdict(test, 0, false, false, "SKIPPED here") == "skipped");
  CHECK(plain_verdict(test, 0, false, false, "") == "passed");
}

TEST_CASE("a plain runner's plan reads back as written, and a bad one names its file", "[capture]") {
  PlainTest test = test_named("t");
  test.environment = {"A=1"};
  test.skip_return_code = 4;
  test.fail_regex = {"bad"};
  const auto read = hydra::capture::read_plain_plan(hydra::capture::plain_plan({test}, 3, 42.0), "plan.json");
  REQUIRE(read.tests.size() == 1);
  CHECK(read.jobs == 3);
  CHECK(read.timeout == 42.0);
  CHECK(read.tests[0].environment == test.environment);
  CHECK(read.tests[0].skip_return_code == 4);
  CHECK(read.tests[0].fail_regex == test.fail_regex);
  CHECK_THROWS_WITH(hydra::capture::read_plain_plan(json::parse(R"({"jobs": 1})"), "plan.json"),
                    Catch::Contains("plan.json"));
  // Result lines read back; other lines are skipped.
  const std::string log = hydra::capture::plain_result_line("a b", "passed", 0, 0.5) + "\nnoise\n{}\n" +
                          hydra::capture::plain_result_line("c", "timed out", 137, 2) + "\n";
  CHECK(hydra::capture::plain_results(log) == std::map<std::string, std::string>{{"a b", "passed"}, {"c", "timed out"}});
}

TEST_CASE("the plain runner starts each test as a shell does, judged by its properties", "[capture]") {
  const hydra::util::TempDir temp("plain");
  const fs::path work = temp.path() / "work";
  fs::create_directories(work);
  // The test checks how it was started: a shell parent (SHLVL set), stdout
  // and stderr two different regular files, stdin a regular file, no
  // descriptor of the runner's past the standard three (the shell's own
  // start at 10), its working directory and variable.
  const std::string check =
      "[ -n \"$SHLVL\" ] && [ -f /proc/$$/fd/0 ] && [ -f /proc/$$/fd/1 ] && [ -f /proc/$$/fd/2 ] && "
      "[ \"$(readlink /proc/$$/fd/1)\" != \"$(readlink /proc/$$/fd/2)\" ] && "
      "for fd in 3 4 5 6 7 8 9; do [ ! -e /proc/$$/fd/$fd ] || exit 9; done && "
      "[ \"$(pwd)\" = \"" + work.string() + "\" ] && [ \"$MARK\" = here ] && "
      "[ \"$(cat /proc/$PPID/comm)\" = bash ]";
  PlainTest started = test_named("started like a shell");
  started.command = {"/bin/sh", "-c", check};
  started.working_directory = work.string();
  started.environment = {"MARK=here"};
  PlainTest failing = test_named("fails");
  failing.command = {"/bin/sh", "-c", "exit 3"};
  PlainTest pattern = test_named("pattern");
  pattern.command = {"/bin/sh", "-c", "echo all good >&2; exit 1"};
  pattern.pass_regex = {"all good"};
  PlainTest hanging = test_named("hangs");
  hanging.command = {"/bin/sleep", "30"};
  hanging.timeout = 0.5;
  const fs::path plan = temp.path() / "plan.json";
  hydra::util::write_file_atomic(plan,
                                 hydra::capture::plain_plan({started, failing, pattern, hanging}, 2, 20).dump());
  hydra::util::ProcessRequest request;
  request.argv = {HYDRA_TOOL_PATH, "test-plain", plan.string()};
  request.environment["TMPDIR"] = temp.path().string();
  request.timeout = std::chrono::seconds(60);
  const auto ran = hydra::util::run_process(request);
  INFO(ran.output);
  CHECK(ran.exit_code == 0);
  const auto results = hydra::capture::plain_results(ran.output);
  CHECK(results == std::map<std::string, std::string>{{"started like a shell", "passed"},
                                                      {"fails", "failed"},
                                                      {"pattern", "passed"},
                                                      {"hangs", "timed out"}});
  // A plan that is not one: exit 2, the file named.
  hydra::util::write_file_atomic(plan, "{\"tests\": 1}");
  const auto bad = hydra::util::run_process(request);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Catch::Contains(plan.string()));
}
