// How each test runner reruns its failing tests (capture/runners/rerun_commands.hpp):
// ctest's console read from the recorded runs of
// tests/fixtures/attempts/record.sh, and the commands each profile runs.
#include <catch2/catch.hpp>

#include <hydra/capture/runners/rerun_commands.hpp>
#include <hydra/util/files.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using namespace hydra::capture;
using Strings = std::vector<std::string>;

namespace {

std::string attempt_fixture(const std::string& name) {
  return hydra::util::read_file(fs::path(HYDRA_FIXTURES_DIR) / "attempts" / name);
}

ProfileContext context_of(const std::string& profile, std::map<std::string, std::string> scripts = {},
                          fs::path jest_junit = {}) {
  ProfileContext context;
  context.profile = profile;
  context.npm_scripts = std::move(scripts);
  context.jest_junit = std::move(jest_junit);
  return context;
}

const fs::path kFirst = "/runs/a/junit/0.xml";
const fs::path kRerun = "/runs/a/attempts/2/junit.xml";
const fs::path kCache = "/b/.hydra-attempts";

}  // namespace

TEST_CASE("reruns: ctest's console gives each test's number and verdict, recorded", "[capture][attempts]") {
  const auto first = ctest_console_results(attempt_fixture("ctest-attempt-1.log"));
  REQUIRE(first.size() == 3);
  CHECK(first.at("attempts.fails_first_time").number == 1);
  CHECK_FALSE(first.at("attempts.fails_first_time").passed);
  CHECK(first.at("attempts.passes").number == 2);
  CHECK(first.at("attempts.passes").passed);
  CHECK(first.at("attempts.fails").number == 3);
  CHECK_FALSE(first.at("attempts.fails").passed);
  // The rerun of tests 1 and 3 (-I 0,0,0,1,3) numbers them as before.
  const auto second = ctest_console_results(attempt_fixture("ctest-attempt-2.log"));
  REQUIRE(second.size() == 2);
  CHECK(second.at("attempts.fails_first_time").passed);
  CHECK(second.at("attempts.fails").number == 3);
  // ctest's own --repeat prints its reruns without a counter: only the first
  // verdict of each test is read.
  const auto until_pass = ctest_console_results(attempt_fixture("ctest-until-pass.log"));
  REQUIRE(until_pass.size() == 3);
  CHECK_FALSE(until_pass.at("attempts.fails_first_time").passed);
}

TEST_CASE("reruns: ctest selects tests by number, exactly", "[capture][attempts]") {
  CHECK(ctest_selection({1, 3}) == Strings{"-I", "0,0,0,1,3"});
  CHECK(ctest_selection({}).empty());
}

TEST_CASE("reruns: each runner's own way to run its failing tests again", "[capture][attempts]") {
  SECTION("pytest: its cache outside the tree, then --last-failed") {
    const auto python = context_of("python");
    const StepCommand first = prepare_first_attempt(python, test_command(python, "pytest -q", kFirst), kCache);
    CHECK(first.shell == "pytest -q --junitxml='/runs/a/junit/0.xml' -o 'cache_dir=/b/.hydra-attempts/pytest'");
    CHECK(rerun_kind(python, first) == RerunKind::last_failed);
    const auto rerun = rerun_command(python, "pytest -q", kRerun, kCache, {"test_x"});
    REQUIRE(rerun);
    CHECK(rerun->shell ==
          "pytest -q --junitxml='/runs/a/attempts/2/junit.xml' -o 'cache_dir=/b/.hydra-attempts/pytest' "
          "--last-failed --last-failed-no-failures none");
    CHECK(rerun_kind(python, test_command(python, "python3 -m pytest tests", kFirst)) == RerunKind::last_failed);
    // A {junit} command of another runner: no way to rerun, nothing added.
    const StepCommand other = test_command(python, "python3 -m xmlrunner discover -o {junit}", kFirst);
    CHECK(rerun_kind(python, other) == RerunKind::none);
    CHECK(prepare_first_attempt(python, other, kCache).shell == other.shell);
    CHECK_FALSE(rerun_command(python, "python3 -m xmlrunner discover -o {junit}", kRerun, kCache, {"x"}));
  }
  SECTION("jest: its cache in the build tree, then --onlyFailures") {
    const auto jest = context_of("js-node", {{"test", "jest"}}, "/g/jest-junit");
    const StepCommand first = prepare_first_attempt(jest, test_command(jest, "npm test", kFirst), kCache);
    CHECK(first.shell ==
          "npm test -- --ci --reporters=default --reporters='/g/jest-junit' --cacheDirectory='/b/.hydra-attempts/jest'");
    const auto rerun = rerun_command(jest, "npm test", kRerun, kCache, {});
    REQUIRE(rerun);
    CHECK(rerun->shell == first.shell + " --onlyFailures");
    CHECK(rerun->environment.at("JEST_JUNIT_OUTPUT_DIR") == "/runs/a/attempts/2");
    CHECK(rerun->environment.at("JEST_JUNIT_OUTPUT_NAME") == "junit.xml");
  }
  SECTION("node --test: the failing tests' names as an anchored, escaped pattern") {
    const auto node = context_of("js-node", {{"test", "node --test"}});
    CHECK(rerun_kind(node, test_command(node, "npm test", kFirst)) == RerunKind::name_pattern);
    const auto rerun = rerun_command(node, "npm test", kRerun, kCache, {"adds (two)", "b"});
    REQUIRE(rerun);
    CHECK(rerun->shell ==
          "npm test -- --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit "
          "--test-reporter-destination='/runs/a/attempts/2/junit.xml' --test-name-pattern='^(?:adds \\(two\\)|b)$'");
    CHECK_FALSE(rerun_command(node, "npm test", kRerun, kCache, {}));
  }
  SECTION("cargo test: the failing tests by name with --exact, after cargo's --") {
    const auto rust = context_of("rust");
    const auto rerun = rerun_command(rust, "cargo test", "/runs/a/attempts/2/test.log", kCache,
                                     {"tests::adds", "src/lib.rs - add (line 3)"});
    REQUIRE(rerun);
    CHECK(rerun->shell ==
          "cargo test --no-fail-fast --message-format=json -- --exact 'tests::adds' 'src/lib.rs - add (line 3)'");
    const auto separated = rerun_command(rust, "cargo test -- --test-threads=1", "/t.log", kCache, {"tests::adds"});
    REQUIRE(separated);
    CHECK(separated->shell ==
          "cargo test --no-fail-fast --message-format=json -- --test-threads=1 --exact 'tests::adds'");
    CHECK(prepare_first_attempt(rust, test_command(rust, "cargo test", "/t.log"), kCache).shell ==
          "cargo test --no-fail-fast --message-format=json");
  }
}

TEST_CASE("reruns: names become literal regular expressions", "[capture][attempts]") {
  CHECK(regex_escape("a.b(c)[d]{e}|f*g+h?i^j$k\\l") == "a\\.b\\(c\\)\\[d\\]\\{e\\}\\|f\\*g\\+h\\?i\\^j\\$k\\\\l");
  CHECK(regex_escape("plain name - with / dash") == "plain name - with / dash");
}
