// Flaky tests in scoring (score/flaky.hpp, docs/formulas.md "Flaky tests"): a
// test that failed and passed on the baseline's code counts as passed on both
// sides, never a regression nor a fix, for every candidate of the ranking; a
// test that failed and passed on a candidate's code alone is that candidate's
// failure, and no candidate's runs change another's verdict; the reports list
// every flaky test with its attempts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <initializer_list>

#include <hydra/score/contract.hpp>
#include <hydra/score/score.hpp>

#include "score/ranking_lookup.hpp"
#include "score/run_builders.hpp"

using hydra::model::Run;
using hydra::model::TestAttempt;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;
namespace score = hydra::score;
namespace config = hydra::config;

namespace {

/// Test `name` with one attempt per status (merged as parse::merge_attempts
/// does: passed when any attempt passed, its first failure's message).
TestCase with_attempts(const std::string& name, std::initializer_list<TestStatus> statuses) {
  TestCase test = make_test(name, *statuses.begin());
  for (const TestStatus status : statuses) {
    test.attempts.push_back({status, 0.1, status == TestStatus::passed ? "" : "timing went wrong"});
    if (status == TestStatus::passed) test.status = TestStatus::passed;
  }
  if (statuses.size() == 1) test.attempts.clear();  // ran once
  if (test.status == TestStatus::passed && statuses.size() > 1 && *statuses.begin() != TestStatus::passed)
    test.message = "timing went wrong";
  return test;
}

/// Nine stable passing tests t0..t8 and the test "timing" as given.
Run run_with(const std::string& agent, const TestCase& timing) {
  std::vector<TestCase> tests = passing_tests(9);
  tests.push_back(timing);
  return make_run(agent, tests);
}

const score::Dimension& tests_of(const score::Candidate& candidate) { return dimension_named(candidate, "tests"); }

}  // namespace

TEST_CASE("flaky: a test that failed and passed on the baseline's code is neither a regression nor a fix",
          "[score][flaky]") {
  const config::Config defaults;
  const Run baseline = run_with("baseline", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
  SECTION("the candidate sees it fail in every attempt: no regression, mergeable") {
    const Run candidate =
        run_with("a", with_attempts("timing", {TestStatus::failed, TestStatus::failed, TestStatus::failed}));
    const auto ranking = score::rank(defaults, baseline, {candidate});
    const auto& scored = ranking.candidates.front();
    CHECK(scored.mergeable);
    // Counted as passed on both sides: 10/10 and B_pass 10, no regression.
    CHECK(tests_of(scored).score == 100.0);
    CHECK(tests_of(scored).evidence["A_pass"] == 10);
    CHECK(tests_of(scored).evidence["B_pass"] == 10);
    CHECK(tests_of(scored).evidence["gate_regression"] == 0);
    CHECK(tests_of(scored).evidence["flaky"] == 1);
    CHECK(scored.test_changes.regressed.empty());
    REQUIRE(scored.test_changes.flaky.size() == 1);
    const auto& flaky = scored.test_changes.flaky.front();
    CHECK(flaky.id == "ctest::timing");
    CHECK(flaky.seen_in == std::vector<std::string>{"baseline"});
    REQUIRE(flaky.attempts.size() == 2);
    CHECK(flaky.attempts[0].run == "baseline");
    CHECK(flaky.attempts[0].attempts.size() == 2);
    CHECK(flaky.attempts[1].run == "a");
    CHECK(flaky.attempts[1].attempts.size() == 3);
  }
  SECTION("a baseline that failed it every time: a candidate's flip is its failure, a pass is a fix") {
    const Run failing_baseline =
        run_with("baseline", with_attempts("timing", {TestStatus::failed, TestStatus::failed, TestStatus::failed}));
    const Run flaky = run_with("a", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
    const Run passing = run_with("b", make_test("timing"));
    const auto ranking = score::rank(defaults, failing_baseline, {flaky, passing});
    const auto& a = candidate_named(ranking, "a");
    CHECK(a.test_changes.flaky.empty());
    CHECK(tests_of(a).evidence["flipped_on_candidate"] == 1);
    CHECK(tests_of(a).evidence["A_pass"] == 9);
    CHECK(tests_of(a).evidence["B_pass"] == 9);
    CHECK(tests_of(candidate_named(ranking, "b")).evidence["A_pass"] == 10);
    CHECK(candidate_named(ranking, "b").total > a.total);
  }
}

TEST_CASE("flaky: flakiness is the baseline's, and a candidate's flip is its own failure and forgives nobody",
          "[score][flaky]") {
  const config::Config defaults;
  // The baseline passed it; candidate "breaks" failed it in all three
  // attempts; candidate "flips" saw it fail and pass on its own code.
  const Run baseline = run_with("baseline", make_test("timing"));
  const Run breaks =
      run_with("breaks", with_attempts("timing", {TestStatus::failed, TestStatus::failed, TestStatus::failed}));
  const Run flips = run_with("flips", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
  const Run passes = run_with("passes", make_test("timing"));

  SECTION("alone against the baseline, the candidate that breaks it is blamed") {
    const auto ranking = score::rank(defaults, baseline, {breaks});
    CHECK_FALSE(ranking.candidates.front().mergeable);
    CHECK(ranking.candidates.front().test_changes.regressed.size() == 1);
  }
  SECTION("ranked with a candidate that flips it, both are blamed; the candidate that passes it is not") {
    const auto ranking = score::rank(defaults, baseline, {breaks, flips, passes});
    for (const std::string name : {"breaks", "flips"}) {
      INFO(name);
      const auto& candidate = candidate_named(ranking, name);
      CHECK_FALSE(candidate.mergeable);
      CHECK(candidate.test_changes.flaky.empty());
      REQUIRE(candidate.test_changes.regressed.size() == 1);
      CHECK(candidate.test_changes.regressed.front().name == "timing");
    }
    CHECK(tests_of(candidate_named(ranking, "flips")).evidence["flipped_on_candidate"] == 1);
    CHECK_FALSE(tests_of(candidate_named(ranking, "breaks")).evidence.contains("flipped_on_candidate"));
    CHECK(candidate_named(ranking, "passes").mergeable);
    CHECK(candidate_named(ranking, "passes").total == 100.0);
    // Each verdict is the same as when ranked alone.
    for (const auto& candidate : ranking.candidates) {
      const Run& alone = candidate.agent == "breaks" ? breaks : candidate.agent == "flips" ? flips : passes;
      CHECK(score::rank(defaults, baseline, {alone}).candidates.front().total == candidate.total);
    }
  }
  SECTION("a flip in a candidate's held-out run is its failure too, and forgives nobody") {
    Run held_out = run_with("held", make_test("timing"));
    held_out.held_out.mode = "built";
    held_out.held_out.tests = std::vector<TestCase>{with_attempts("timing", {TestStatus::error, TestStatus::passed})};
    const auto ranking = score::rank(defaults, baseline, {breaks, held_out});
    CHECK_FALSE(candidate_named(ranking, "breaks").mergeable);
    CHECK(candidate_named(ranking, "breaks").test_changes.flaky.empty());
  }
  SECTION("a test flaky on the baseline stays forgiven, and lists where else it flipped") {
    const Run flaky_baseline = run_with("baseline", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
    const auto ranking = score::rank(defaults, flaky_baseline, {breaks, flips});
    for (const auto& candidate : ranking.candidates) {
      INFO(candidate.agent);
      CHECK(candidate.mergeable);
      CHECK(candidate.total == 100.0);
      REQUIRE(candidate.test_changes.flaky.size() == 1);
      CHECK(candidate.test_changes.flaky.front().seen_in == std::vector<std::string>{"baseline", "flips"});
    }
  }
}

TEST_CASE("flaky: other tests still regress, and a dropped flaky test costs like a dropped passing one",
          "[score][flaky]") {
  const config::Config defaults;
  const Run baseline = run_with("baseline", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
  // t0 breaks: the flaky test does not hide it.
  std::vector<TestCase> broken_tests = passing_tests(9);
  broken_tests[0].status = TestStatus::failed;
  broken_tests.push_back(with_attempts("timing", {TestStatus::failed, TestStatus::failed, TestStatus::failed}));
  const Run broken = make_run("breaks-t0", broken_tests);
  // Deletes the flaky test instead of fixing it.
  const Run deletes = make_run("deletes", passing_tests(9));
  const auto ranking = score::rank(defaults, baseline, {broken, deletes});

  const auto& breaks = candidate_named(ranking, "breaks-t0");
  CHECK_FALSE(breaks.mergeable);
  REQUIRE(breaks.test_changes.regressed.size() == 1);
  CHECK(breaks.test_changes.regressed.front().name == "t0");
  // 9/10 passed (timing counted as passed), regression max(0, 10 - 9) = 1:
  // 0.9 * 100 - 1/10 * 60 = 90 - 6 = 84.
  CHECK(tests_of(breaks).score == 84.0);

  const auto& dropped = candidate_named(ranking, "deletes");
  CHECK_FALSE(dropped.mergeable);
  CHECK(tests_of(dropped).evidence["dropped_passing"] == 1);
  // 9/9 passed, regression max(max(0, 10 - 9), 1) = 1: 100 - 1/10 * 60 = 94.
  CHECK(tests_of(dropped).score == 94.0);
  REQUIRE(dropped.test_changes.flaky.size() == 1);
  CHECK(dropped.test_changes.flaky.front().attempts.size() == 1);  // the baseline's only
}

TEST_CASE("flaky: the speed figure is the agents' durations, whatever the attempts took", "[score][flaky]") {
  const config::Config defaults;
  const Run baseline = run_with("baseline", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
  Run quick = run_with("quick", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
  Run slow = run_with("slow", make_test("timing"));
  quick.metrics.duration_seconds = 30;
  slow.metrics.duration_seconds = 60;
  // The reruns' time is no agent's: a run with long attempts scores the same.
  Run quick_long_reruns = quick;
  for (auto& attempt : quick_long_reruns.tests->back().attempts) attempt.duration_seconds = 500;
  const auto ranking = score::rank(defaults, baseline, {quick, slow});
  const auto again = score::rank(defaults, baseline, {quick_long_reruns, slow});
  CHECK(dimension_named(candidate_named(ranking, "quick"), "speed").score == 100.0);
  CHECK(dimension_named(candidate_named(ranking, "slow"), "speed").score == 50.0);  // 30 / 60 * 100
  CHECK(dimension_named(candidate_named(again, "quick"), "speed").score == 100.0);
  CHECK(candidate_named(again, "quick").total == candidate_named(ranking, "quick").total);
}

TEST_CASE("flaky: the contract lists every flaky test with each run's attempts", "[score][flaky][contract]") {
  const config::Config defaults;
  const Run baseline = run_with("baseline", with_attempts("timing", {TestStatus::failed, TestStatus::passed}));
  const Run a = run_with("a", with_attempts("timing", {TestStatus::failed, TestStatus::failed, TestStatus::failed}));
  const Run b = run_with("b", make_test("timing"));
  const auto ranking = score::rank(defaults, baseline, {a, b});
  const auto contract = score::to_contract(defaults, baseline, ranking);

  CHECK(contract["baseline"]["summary"]["tests"]["flaky"] == 1);
  REQUIRE(contract["flaky_tests"].size() == 1);
  const auto& flaky = contract["flaky_tests"][0];
  CHECK(flaky["id"] == "ctest::timing");
  CHECK(flaky["seen_flaky_in"] == nlohmann::json::array({"baseline"}));
  // The baseline's attempts once, then each candidate's, in ranking order.
  REQUIRE(flaky["attempts"].size() == 3);
  CHECK(flaky["attempts"][0] == nlohmann::json({{"run", "baseline"},
                                                {"attempts", {"failed", "passed"}},
                                                {"message", "timing went wrong"}}));
  const auto& runs = flaky["attempts"];
  const auto of = [&](const std::string& agent) {
    for (const auto& run : runs)
      if (run["run"] == agent) return run;
    FAIL("no attempts of " << agent);
    return nlohmann::json();
  };
  CHECK(of("a")["attempts"] == nlohmann::json::array({"failed", "failed", "failed"}));
  CHECK(of("b")["attempts"] == nlohmann::json::array({"passed"}));
  CHECK_FALSE(of("b").contains("message"));
  for (const auto& entry : contract["rankings"]) {
    REQUIRE(entry["tests"]["flaky"].size() == 1);
    CHECK(entry["tests"]["flaky"][0]["attempts"].size() == 2);  // the baseline's and its own
    CHECK(entry["dimensions"]["tests"]["evidence"]["flaky"] == 1);
  }
}
