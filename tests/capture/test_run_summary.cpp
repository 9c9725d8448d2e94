// The line `hydra-score capture` prints for a run (capture/run_summary.hpp).
#include <catch2/catch.hpp>

#include <hydra/capture/run_summary.hpp>

#include "score/run_builders.hpp"

using hydra::capture::run_summary;
using hydra::model::Severity;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;

TEST_CASE("the capture summary gives build, tests and lint", "[capture]") {
  const hydra::config::Config defaults;
  std::vector<TestCase> tests = passing_tests(9);
  tests.push_back(make_test("t9", TestStatus::failed));
  auto run = make_run("baseline", tests, make_findings("w", 0, 2));
  run.lint_units = 24;
  CHECK(run_summary(run, defaults) == "build passed; tests 9/10 passed (1 failed); lint 0 errors, 2 warnings (24 units)");

  tests.push_back(make_test("s", TestStatus::skipped));
  run.tests = tests;
  run.lint = make_findings("x", 1, 1);
  run.lint_units.reset();  // not recorded (e.g. a profile's linter): no count shown
  CHECK(run_summary(run, defaults) == "build passed; tests 9/10 passed (1 failed, 1 skipped); lint 1 error, 1 warning");

  SECTION("no test ran: said loudly, not as a passed build") {
    std::vector<TestCase> skipped;
    add_tests(skipped, "s", 3, TestStatus::skipped);
    run.tests = skipped;
    CHECK(run_summary(run, defaults) ==
          "build passed; NO TEST RAN (all 3 recorded tests skipped or disabled); lint 1 error, 1 warning");
    run.tests = std::vector<TestCase>{};  // an empty suite, a collection error
    CHECK(run_summary(run, defaults).find("; NO TEST RAN (0 tests recorded);") != std::string::npos);
    run.tests.reset();
    CHECK(run_summary(run, defaults).find("; NO TEST RAN (no test results recorded);") != std::string::npos);
  }
  SECTION("lint that linted nothing, or did not run") {
    run.lint = std::vector<hydra::model::LintFinding>{};
    run.lint_units = 0;
    CHECK(run_summary(run, defaults) ==
          "build passed; tests 9/10 passed (1 failed, 1 skipped); lint NOTHING LINTED (0 translation units)");
    run.lint.reset();
    run.lint_inactive_reason = "clang-tidy not found";
    CHECK(run_summary(run, defaults) ==
          "build passed; tests 9/10 passed (1 failed, 1 skipped); lint did not run (clang-tidy not found)");
  }
  SECTION("a failed build, and no build step") {
    run.build.passed = false;
    run.build.exit_code = 2;
    run.build.reason = "exit code 2";
    run.tests.reset();
    CHECK(run_summary(run, defaults) == "build FAILED (exit code 2); tests not run (the build failed); lint 1 error, 1 warning");
    run.build = {};
    run.build.no_step = "the python profile has no build step";
    run.tests = passing_tests(2);
    CHECK(run_summary(run, defaults) == "no build step; tests 2/2 passed; lint 1 error, 1 warning");
  }
}
