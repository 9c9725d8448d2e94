// guard::judge_held_out: which results a candidate's tests are scored by.
// The inputs are model values (what pipeline::load reads from a run
// directory); the end-to-end test (tests/e2e/test_held_out.cpp) runs the real
// held-out builds.
#include <catch2/catch.hpp>

#include <algorithm>

#include <hydra/guard/held_out.hpp>

using hydra::guard::judge_held_out;
using hydra::model::Run;
using hydra::model::TestCase;
using hydra::model::TestStatus;

namespace {

TestCase test(const std::string& name, TestStatus status, const std::string& message = "") {
  TestCase result;
  result.suite = "ctest";
  result.name = name;
  result.status = status;
  result.message = message;
  return result;
}

TestStatus status_of(const std::vector<TestCase>& tests, const std::string& name) {
  for (const auto& entry : tests)
    if (entry.name == name) return entry.status;
  FAIL("no test " << name);
  return TestStatus::skipped;
}

bool has(const std::vector<TestCase>& tests, const std::string& name) {
  for (const auto& entry : tests)
    if (entry.name == name) return true;
  return false;
}

Run baseline_run() {
  Run baseline;
  baseline.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::failed)};
  baseline.test_files = {{"a", {"tests/a.cpp"}}, {"bug", {"tests/bug.cpp"}}};
  return baseline;
}

}  // namespace

TEST_CASE("held-out results decide the baseline's tests and can only lower the candidate's own", "[guard][held-out]") {
  const Run baseline = baseline_run();
  Run candidate;
  // The candidate edited tests/bug.cpp so that its copy passes, and broke `a`.
  candidate.tests = std::vector<TestCase>{test("a", TestStatus::failed), test("bug", TestStatus::passed)};
  candidate.held_out.mode = "built";
  candidate.held_out.build_passed = true;
  candidate.held_out.test_files_changed = {"tests/bug.cpp"};
  candidate.held_out.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::failed)};
  const auto judged = judge_held_out(baseline, *baseline.tests, candidate);
  CHECK(status_of(judged.tests, "bug") == TestStatus::failed);  // the baseline's copy still fails: not fixed
  CHECK(status_of(judged.tests, "a") == TestStatus::failed);    // fails in the candidate's tree: stays failed
  REQUIRE(judged.evidence["judged_by_held_out"].size() == 1);
  CHECK(judged.evidence["judged_by_held_out"][0]["test"] == "bug");
}

TEST_CASE("only test files changed: the baseline's results stand", "[guard][held-out]") {
  const Run baseline = baseline_run();
  Run candidate;
  candidate.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::passed)};
  candidate.held_out.mode = "baseline";
  const auto judged = judge_held_out(baseline, *baseline.tests, candidate);
  CHECK(status_of(judged.tests, "bug") == TestStatus::failed);
  CHECK(status_of(judged.tests, "a") == TestStatus::passed);
}

TEST_CASE("a baseline test whose program does not build in the held-out tree is unverified", "[guard][held-out]") {
  const Run baseline = baseline_run();
  Run candidate;
  candidate.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::passed)};
  candidate.held_out.mode = "built";
  candidate.held_out.build_passed = false;
  candidate.held_out.test_files_changed = {"tests/bug.cpp"};
  candidate.held_out.tests = std::vector<TestCase>{
      test("a", TestStatus::passed), test("bug", TestStatus::failed, "Unable to find executable")};
  const auto judged = judge_held_out(baseline, *baseline.tests, candidate);
  CHECK(status_of(judged.tests, "bug") == TestStatus::failed);  // cannot be fixed
  REQUIRE(judged.evidence["unverified"].size() == 1);
  CHECK(judged.evidence["unverified"][0]["test"] == "bug");
}

TEST_CASE("a baseline-passing test that does not build against the change fails: no regression hides as unverified",
          "[guard][held-out]") {
  const Run baseline = baseline_run();
  Run candidate;
  // The change renamed the API both tests use (its own copies updated) and broke `a`.
  candidate.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::passed)};
  candidate.held_out.mode = "built";
  candidate.held_out.build_passed = false;
  candidate.held_out.test_files_changed = {"tests/a.cpp", "tests/bug.cpp"};
  candidate.held_out.tests = std::vector<TestCase>{test("a", TestStatus::failed, "Unable to find executable"),
                                                   test("bug", TestStatus::failed, "Unable to find executable")};
  const auto judged = judge_held_out(baseline, *baseline.tests, candidate);
  CHECK(status_of(judged.tests, "a") == TestStatus::failed);
  CHECK(status_of(judged.tests, "bug") == TestStatus::failed);
  REQUIRE(judged.evidence["unverified"].size() == 2);
  CHECK(judged.evidence["unverified"][0]["why"].get<std::string>().find("does not build") != std::string::npos);
  for (const auto& entry : judged.tests)
    if (entry.name == "a") CHECK(entry.message.find("unverified") != std::string::npos);
}

TEST_CASE("a new test counts only when it fails on the baseline's code", "[guard][held-out]") {
  const Run baseline = baseline_run();
  Run candidate;
  candidate.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::passed),
                                          test("shows_fix", TestStatus::passed), test("trivial", TestStatus::passed),
                                          test("needs_new_api", TestStatus::passed)};
  candidate.held_out.mode = "candidate";
  candidate.held_out.new_tests_mode = "built";
  candidate.held_out.tests_on_baseline = std::vector<TestCase>{
      test("shows_fix", TestStatus::failed), test("trivial", TestStatus::passed),
      test("needs_new_api", TestStatus::failed, "Unable to find executable")};
  const auto judged = judge_held_out(baseline, *baseline.tests, candidate);
  CHECK(has(judged.tests, "shows_fix"));
  CHECK(has(judged.tests, "needs_new_api"));
  CHECK_FALSE(has(judged.tests, "trivial"));
  CHECK(judged.evidence["new_tests_demonstrating"].size() == 2);
  REQUIRE(judged.evidence["new_tests_not_exercising"].size() == 1);
  CHECK(judged.evidence["new_tests_not_exercising"][0]["test"] == "trivial");

  // A change that touches no code: none of its new tests can exercise it.
  candidate.held_out.new_tests_mode = "no code change";
  const auto untouched = judge_held_out(baseline, *baseline.tests, candidate);
  CHECK(untouched.tests.size() == 2);
}

TEST_CASE("private tests join the judged tests with their held-out results", "[guard][held-out]") {
  Run baseline = baseline_run();
  baseline.held_out.mode = "built";
  baseline.held_out.private_test_patch = true;
  baseline.held_out.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::failed),
                                                  test("hidden", TestStatus::failed)};
  const auto baseline_tests = hydra::guard::judged_baseline_tests(baseline);
  REQUIRE(baseline_tests);
  CHECK(baseline_tests->size() == 3);
  Run candidate;
  candidate.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::passed)};
  candidate.held_out.mode = "built";
  candidate.held_out.build_passed = true;
  candidate.held_out.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::passed),
                                                   test("hidden", TestStatus::failed)};
  const auto judged = judge_held_out(baseline, *baseline_tests, candidate);
  CHECK(status_of(judged.tests, "hidden") == TestStatus::failed);  // special-casing the visible test leaves the bug
  CHECK(judged.evidence["private_tests"].size() == 1);
}

TEST_CASE("held-out results of a duplicated identity: by what they say, never by where they stood", "[guard][held-out]") {
  const Run baseline = baseline_run();
  Run candidate;
  candidate.tests = std::vector<TestCase>{test("a", TestStatus::passed), test("bug", TestStatus::passed),
                                          test("new", TestStatus::passed)};
  candidate.held_out.mode = "built";
  candidate.held_out.build_passed = true;
  candidate.held_out.test_files_changed = {"tests/bug.cpp"};
  candidate.held_out.new_tests_mode = "built";
  // Two held-out results named "bug" (a runner that names no file), and two
  // results of the new test on the baseline's code: in either order, the
  // held-out failure stands and the new test's pass there shows nothing.
  for (const bool reversed : {false, true}) {
    std::vector<TestCase> held = {test("a", TestStatus::passed), test("bug", TestStatus::passed),
                                  test("bug", TestStatus::failed)};
    std::vector<TestCase> on_baseline = {test("new", TestStatus::failed), test("new", TestStatus::passed)};
    if (reversed) {
      std::reverse(held.begin(), held.end());
      std::reverse(on_baseline.begin(), on_baseline.end());
    }
    candidate.held_out.tests = held;
    candidate.held_out.tests_on_baseline = on_baseline;
    CAPTURE(reversed);
    const auto judged = judge_held_out(baseline, *baseline.tests, candidate);
    CHECK(status_of(judged.tests, "bug") == TestStatus::failed);
    CHECK_FALSE(has(judged.tests, "new"));
  }
}
