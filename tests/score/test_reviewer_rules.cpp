// The rules that make the numbers trustworthy (docs/formulas.md): only
// baseline-passing tests regress, the regression gate counts by identity,
// gates compare what they print, one ranking scores every candidate over the
// same dimensions, zero-test baselines, and the speed reference. Every
// expected number shows its arithmetic; each case failed before these rules.
#include <catch2/catch.hpp>

#include <hydra/score/score.hpp>

#include <algorithm>

#include "score/ranking_lookup.hpp"
#include "score/run_builders.hpp"

using hydra::model::Run;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;
namespace score = hydra::score;
namespace config = hydra::config;

namespace {

/// Baseline of example-project: t0..t8 pass, "broken" fails (9 of 10).
std::vector<TestCase> nine_of_ten() {
  std::vector<TestCase> tests = passing_tests(9);
  tests.push_back(make_test("broken", TestStatus::failed));
  return tests;
}

}  // namespace

TEST_CASE("only tests that passed in the baseline can regress", "[score][regression]") {
  const config::Config defaults;

  SECTION("a candidate that does not build: 9 regressions of 9, never 10 (111.11%)") {
    const Run baseline = make_run("baseline", nine_of_ten());
    Run broken = make_run("no-build");
    broken.build.passed = false;
    broken.build.exit_code = 2;
    const auto candidate = score_one(defaults, baseline, broken);
    const auto& tests = dimension_named(candidate, "tests");
    // dropped = 10 (every baseline test), dropped_passing = 9 (t0..t8)
    // regression = max(count max(0, 9 - 0) = 9, dropped_passing 9) = 9
    // pass_rate = 0 (A_total 0); reg_penalty = 9/9*60 = 60; score = clamp(0 - 60) = 0
    CHECK(tests.score == 0);
    CHECK(tests.evidence["dropped"] == 10);
    CHECK(tests.evidence["dropped_passing"] == 9);
    CHECK(tests.evidence["regression"] == 9);
    CHECK(candidate.test_changes.dropped.size() == 10);  // still listed as dropped
    // gate: 9/9*100 = 100% (was "10 regressions ... (111.11% > 0%)")
    CHECK(gate_named(candidate, "max_test_regression_percent").detail ==
          "9 regressions (regressed or dropped tests) against 9 baseline-passing tests (100% > 0%)");
  }

  SECTION("removing only the failing test is not a regression") {
    const Run baseline = make_run("baseline", nine_of_ten());
    const auto candidate = score_one(defaults, baseline, make_run("a", passing_tests(9)));
    const auto& tests = dimension_named(candidate, "tests");
    // pass_rate = 9/9 = 1; count regression = max(0, 9 - 9) = 0; dropped_passing = 0
    // regression = 0, penalty 0; new_tests = max(0, 9 - 10) = 0 -> 100 (was 93.33)
    CHECK(tests.score == 100);
    CHECK(tests.evidence["dropped"] == 1);
    CHECK(tests.evidence["regression"] == 0);
    REQUIRE(candidate.test_changes.dropped.size() == 1);
    CHECK(candidate.test_changes.dropped[0].id() == "ctest::broken");
    // gate: 0/9 = 0% <= 0% (was 1/9 = 11.11% > 0%)
    CHECK(gate_named(candidate, "max_test_regression_percent").passed);
    // min_test_count_ratio still guards the count: 9/10 = 0.9 >= 0.8
    CHECK(gate_named(candidate, "min_test_count_ratio").detail ==
          "candidate ran 9 tests, baseline 10 (ratio 0.9 >= 0.8)");
  }

  SECTION("removing a skipped test is not a regression") {
    std::vector<TestCase> baseline_tests = passing_tests(3);
    baseline_tests.push_back(make_test("later", TestStatus::skipped));
    const auto candidate = score_one(defaults, make_run("baseline", baseline_tests),
                                     make_run("a", passing_tests(3)));
    // B_pass = 3; dropped = 1 (skipped), dropped_passing = 0; regression = 0
    // pass_rate = 3/3 = 1 -> 100 (was 100 - 1/3*60 = 80); gate 0% (was 33.33%)
    CHECK(dimension_named(candidate, "tests").score == 100);
    CHECK(gate_named(candidate, "max_test_regression_percent").passed);
    CHECK(candidate.mergeable);
  }

  SECTION("identity mode: a dropped failing test costs nothing either") {
    config::Config identity;
    identity.tests.regression = config::Tests::Regression::identity;
    std::vector<TestCase> baseline_tests = passing_tests(5);
    baseline_tests.push_back(make_test("flaky", TestStatus::failed));
    const auto candidate =
        score_one(identity, make_run("baseline", baseline_tests), make_run("a", passing_tests(5)));
    // regression = 0 regressed + 0 dropped_passing = 0; pass_rate 5/5 -> 100 (was 88)
    CHECK(dimension_named(candidate, "tests").score == 100);
  }

  SECTION("the regression percent never exceeds 100%, tampering included") {
    // B_pass = 2 of 4; the candidate drops every test and the detectors count
    // 4 tampered tests: min(B_pass 2, dropped_passing 2 + tampered 4) = 2
    std::vector<TestCase> baseline_tests = passing_tests(2);
    add_tests(baseline_tests, "f", 2, TestStatus::failed);
    Run candidate_run = make_run("a", std::vector<TestCase>{});
    candidate_run.tampering.tampered_tests = 4;
    const auto candidate = score_one(defaults, make_run("baseline", baseline_tests), candidate_run);
    CHECK(dimension_named(candidate, "tests").evidence["regression"] == 2);
    CHECK(gate_named(candidate, "max_test_regression_percent").detail ==
          "2 regressions (regressed or dropped tests) against 2 baseline-passing tests (100% > 0%)");
  }
}

TEST_CASE("the regression gate counts tests by identity in every mode", "[score][regression]") {
  const config::Config defaults;  // regression = "count"
  // Baseline t0..t9 pass; candidate: t8 t9 fail, five new tests pass.
  std::vector<TestCase> tests = passing_tests(8);
  tests.push_back(make_test("t8", TestStatus::failed));
  tests.push_back(make_test("t9", TestStatus::failed));
  add_tests(tests, "new", 5);
  const auto candidate = score_one(defaults, make_run("baseline", passing_tests(10)), make_run("a", tests));
  const auto& dimension = dimension_named(candidate, "tests");
  // Dimension keeps the count formula: A_pass = 13, A_total = 15
  // regression = max(0, 10 - 13) = 0; new_tests = 15 - 10 = 5, bonus = min(10, 2.5) = 2.5
  // score = 13/15*100 - 0 + 2.5 = 89.1666... -> 89.17
  CHECK(score::shown(dimension.score) == 89.17);
  CHECK(dimension.evidence["regression"] == 0);
  CHECK(dimension.evidence["gate_regression"] == 2);
  // Gate: 2 baseline-passing tests (t8, t9) do not pass: 2/10*100 = 20% > 0%
  // (was "0 regressions ... (0% <= 0%)" and mergeable)
  const auto& gate = gate_named(candidate, "max_test_regression_percent");
  CHECK_FALSE(gate.passed);
  CHECK(gate.detail == "2 regressions (regressed or dropped tests) against 10 baseline-passing tests (20% > 0%)");
  CHECK_FALSE(candidate.mergeable);
}

TEST_CASE("gates compare exactly what they print", "[score][gates]") {
  SECTION("7 regressions of 100 at a limit of 7% pass") {
    config::Config limit7;
    limit7.gates.max_test_regression_percent = 7;
    std::vector<TestCase> tests = passing_tests(93);
    for (int index = 93; index < 100; ++index) tests.push_back(make_test("t" + std::to_string(index), TestStatus::failed));
    const auto candidate = score_one(limit7, make_run("baseline", passing_tests(100)), make_run("a", tests));
    // exactly: 7*100/100 = 7 <= 7 -> passes, 7% <= 7%
    // (7/100*100 in doubles is 7.000000000000001, which failed as "(7% > 7%)")
    const auto& gate = gate_named(candidate, "max_test_regression_percent");
    CHECK(gate.passed);
    CHECK(gate.detail == "7 regressions (regressed or dropped tests) against 100 baseline-passing tests (7% <= 7%)");
  }

  SECTION("a ratio at the limit passes: 25 -> 14 tests at 0.56") {
    config::Config ratio;
    ratio.gates.min_test_count_ratio = 0.56;
    ratio.gates.max_test_regression_percent = 100;
    const auto candidate = score_one(ratio, make_run("baseline", passing_tests(25)), make_run("a", passing_tests(14)));
    // exactly: 14/25 = 56/100 >= 0.56 -> passes, 0.56 >= 0.56
    // (0.56 * 25 in doubles is 14.000000000000002, which failed as "(ratio 0.56 < 0.56)")
    const auto& gate = gate_named(candidate, "min_test_count_ratio");
    CHECK(gate.passed);
    CHECK(gate.detail == "candidate ran 14 tests, baseline 25 (ratio 0.56 >= 0.56)");
  }

  SECTION("a percent just above the limit is shown with the decimals that tell them apart") {
    config::Config defaults;  // limit 0%
    std::vector<TestCase> tests = passing_tests(29999);
    tests.push_back(make_test("t29999", TestStatus::failed));
    const auto candidate = score_one(defaults, make_run("baseline", passing_tests(30000)), make_run("a", tests));
    // 1*100/30000 = 0.00333...%: exactly, 1/300 > 0 -> fails;
    // 2 decimals would print "0% > 0%", so 3: 0.003% > 0%
    const auto& gate = gate_named(candidate, "max_test_regression_percent");
    CHECK_FALSE(gate.passed);
    CHECK(gate.detail ==
          "1 regression (regressed or dropped tests) against 30000 baseline-passing tests (0.003% > 0%)");
  }

  SECTION("a ratio just below the limit is shown with the decimals that tell them apart") {
    config::Config tolerant;
    tolerant.gates.max_test_regression_percent = 100;
    const auto candidate =
        score_one(tolerant, make_run("baseline", passing_tests(10001)), make_run("a", passing_tests(8000)));
    // 8000/10001 = 0.79992... < 0.8 exactly -> fails;
    // 2 decimals print 0.8, 3 decimals 0.8, 4 decimals 0.7999 < 0.8
    const auto& gate = gate_named(candidate, "min_test_count_ratio");
    CHECK_FALSE(gate.passed);
    CHECK(gate.detail == "candidate ran 8000 tests, baseline 10001 (ratio 0.7999 < 0.8)");
  }

  SECTION("2 of 9 prints 22.22% as before") {
    config::Config defaults;
    // t7, t8 dropped (both passed in the baseline): 2 regressions of 9
    const auto candidate = score_one(defaults, make_run("baseline", passing_tests(9)), make_run("a", passing_tests(7)));
    // 2*100/9 = 22.222...% -> 22.22 (half up) > 0
    CHECK(gate_named(candidate, "max_test_regression_percent").detail ==
          "2 regressions (regressed or dropped tests) against 9 baseline-passing tests (22.22% > 0%)");
  }

  SECTION("a limit is the decimal it was written as, with every decimal it has") {
    // 1 regression of 3 is 33.333...%. A limit of 33.3333334 is above it:
    // passes. (Taken to 6 decimals, 33.333333, the limit was below it and
    // the gate failed with "(33.333334% > 33.3333334%)".)
    config::Config third;
    third.gates.max_test_regression_percent = 33.3333334;
    std::vector<TestCase> tests = passing_tests(2);
    tests.push_back(make_test("t2", TestStatus::failed));
    auto candidate = score_one(third, make_run("baseline", passing_tests(3)), make_run("a", tests));
    CHECK(gate_named(candidate, "max_test_regression_percent").passed);
    CHECK(gate_named(candidate, "max_test_regression_percent").detail ==
          "1 regression (regressed or dropped tests) against 3 baseline-passing tests (33.33% <= 33.3333334%)");
    // 33.3333333 is below 100/3 = 33.33333333...: fails, and the detail shows
    // the decimals that keep "> 33.3333333" true.
    third.gates.max_test_regression_percent = 33.3333333;
    candidate = score_one(third, make_run("baseline", passing_tests(3)), make_run("a", tests));
    CHECK_FALSE(gate_named(candidate, "max_test_regression_percent").passed);
    CHECK(gate_named(candidate, "max_test_regression_percent").detail ==
          "1 regression (regressed or dropped tests) against 3 baseline-passing tests (33.333334% > 33.3333333%)");

    // 2 of 3 tests ran: 0.666... >= 0.66666666 passes (0.666667, the limit
    // to 6 decimals, failed it); 0.66666667 fails.
    config::Config ratio;
    ratio.gates.max_test_regression_percent = 100;
    ratio.gates.min_test_count_ratio = 0.66666666;
    candidate = score_one(ratio, make_run("baseline", passing_tests(3)), make_run("a", passing_tests(2)));
    CHECK(gate_named(candidate, "min_test_count_ratio").passed);
    CHECK(gate_named(candidate, "min_test_count_ratio").detail ==
          "candidate ran 2 tests, baseline 3 (ratio 0.67 >= 0.66666666)");
    ratio.gates.min_test_count_ratio = 0.66666667;
    candidate = score_one(ratio, make_run("baseline", passing_tests(3)), make_run("a", passing_tests(2)));
    CHECK_FALSE(gate_named(candidate, "min_test_count_ratio").passed);
    CHECK(gate_named(candidate, "min_test_count_ratio").detail ==
          "candidate ran 2 tests, baseline 3 (ratio 0.666666 < 0.66666667)");
  }
}

TEST_CASE("one ranking scores every candidate over the same dimensions", "[score][ranking]") {
  const config::Config defaults;  // weights build 30, tests 30, lint 15, diff 15, speed 10

  SECTION("a candidate without an agent duration scores speed 0") {
    Run baseline = make_run("baseline", passing_tests(10));
    Run unknown = make_run("unknown", passing_tests(10));
    Run slow = make_run("slow", passing_tests(10));
    slow.metrics.duration_seconds = 30;
    Run fast = make_run("fast", passing_tests(10));
    fast.metrics.duration_seconds = 20;
    const auto ranking = score::rank(defaults, baseline, {unknown, slow, fast});
    // Active: build, tests, speed (lint: the baseline has none; no diffs).
    // fast:    (30*100 + 30*100 + 10*100) / 70 = 100
    // slow:    speed 20/30*100 = 66.67 -> (3000 + 3000 + 666.7) / 70 = 95.2386 -> 95.24
    // unknown: speed 0 (unmeasured) -> (3000 + 3000 + 0) / 70 = 85.714 -> 85.71
    //          (was 100: speed renormalized out, ranked above slow)
    CHECK(candidate_named(ranking, "fast").total == 100);
    CHECK(score::shown(candidate_named(ranking, "slow").total) == 95.24);
    const auto& speed = dimension_named(candidate_named(ranking, "unknown"), "speed");
    CHECK(speed.active);
    CHECK(speed.score == 0);
    CHECK(speed.inactive_reason == "no agent duration known");
    CHECK(score::shown(candidate_named(ranking, "unknown").total) == 85.71);
    CHECK(ranking.candidates[1].agent == "slow");
    CHECK(ranking.candidates[2].agent == "unknown");
  }

  SECTION("no candidate has a duration: speed is inactive for all") {
    const auto ranking = score::rank(defaults, make_run("baseline", passing_tests(1)),
                                     {make_run("a", passing_tests(1)), make_run("b", passing_tests(1))});
    for (const auto& candidate : ranking.candidates) {
      CHECK_FALSE(dimension_named(candidate, "speed").active);
      CHECK(dimension_named(candidate, "speed").inactive_reason == "no candidate has a known agent duration");
    }
  }

  SECTION("a candidate without a lint log scores lint 0 when the baseline measured lint") {
    const Run baseline = make_run("baseline", passing_tests(4), std::vector<hydra::model::LintFinding>{});
    const Run linted = make_run("linted", passing_tests(4), std::vector<hydra::model::LintFinding>{});
    Run unlinted = make_run("unlinted", passing_tests(4));
    unlinted.lint_inactive_reason = "no compile_commands.json in the build tree";
    const auto ranking = score::rank(defaults, baseline, {linted, unlinted});
    // linted: build, tests, lint all 100 -> 100
    // unlinted: lint 0 -> (30*100 + 30*100 + 15*0) / 75 = 80 (was 100)
    const auto& lint = dimension_named(candidate_named(ranking, "unlinted"), "lint");
    CHECK(lint.active);
    CHECK(lint.score == 0);
    CHECK(lint.inactive_reason ==
          "lint could not run on the candidate: no compile_commands.json in the build tree");
    CHECK(candidate_named(ranking, "unlinted").total == 80);
    CHECK(candidate_named(ranking, "linted").total == 100);
  }

  SECTION("lint unavailable for a reason outside the candidates is inactive for all") {
    const Run baseline = make_run("baseline", passing_tests(4), std::vector<hydra::model::LintFinding>{});
    const Run linted = make_run("linted", passing_tests(4), std::vector<hydra::model::LintFinding>{});
    Run no_tool = make_run("no-tool", passing_tests(4));
    no_tool.lint_inactive_reason = "clang-tidy was not found";
    no_tool.lint_unavailable_outside_tree = true;
    const auto ranking = score::rank(defaults, baseline, {linted, no_tool});
    for (const auto& candidate : ranking.candidates) {
      CHECK_FALSE(dimension_named(candidate, "lint").active);
      CHECK(dimension_named(candidate, "lint").inactive_reason == "no-tool: clang-tidy was not found");
      CHECK(candidate.total == 100);  // (3000 + 3000) / 60
    }
  }

  SECTION("a missing build result or diff scores 0 when another candidate has one") {
    Run with_diff = make_run("with-diff", passing_tests(2));
    with_diff.diff = hydra::model::DiffSummary{};
    with_diff.diff->files.push_back(make_diff_file("src/a.cpp", 3, 1));
    Run bare = make_run("bare", passing_tests(2));
    bare.build.known = false;
    const auto ranking = score::rank(defaults, make_run("baseline", passing_tests(2)), {with_diff, bare});
    // bare: build 0 (no build result), tests 100, diff scope 0 (no diff):
    // (30*0 + 30*100 + 15*0) / 75 = 40
    const auto& bare_scored = candidate_named(ranking, "bare");
    CHECK(dimension_named(bare_scored, "build").active);
    CHECK(dimension_named(bare_scored, "build").score == 0);
    CHECK(dimension_named(bare_scored, "diff_scope").inactive_reason == "no diff recorded");
    CHECK(bare_scored.total == 40);
    CHECK(candidate_named(ranking, "with-diff").total == 100);
  }

  SECTION("a judge without a grade for one candidate is inactive for all") {
    config::Config judged;
    judged.weights.judge = 10;
    Run graded = make_run("graded", passing_tests(2));
    graded.judge_score0to1 = 0.5;
    Run ungraded = make_run("ungraded", passing_tests(2));
    ungraded.judge_detail = "judge gave no grade: timed out after 120 s";
    const auto ranking = score::rank(judged, make_run("baseline", passing_tests(2)), {graded, ungraded});
    for (const auto& candidate : ranking.candidates) {
      CHECK_FALSE(dimension_named(candidate, "judge").active);
      CHECK(dimension_named(candidate, "judge").inactive_reason ==
            "ungraded: judge gave no grade: timed out after 120 s");
      CHECK(candidate.total == 100);  // (3000 + 3000) / 60; graded was (3000 + 3000 + 500) / 70 = 92.86
    }
  }
}

TEST_CASE("a zero-test baseline does not punish adding tests", "[score][ranking]") {
  const config::Config defaults;
  const Run baseline = make_run("baseline");  // no tests, no lint, no diff
  const Run none = make_run("none");
  std::vector<TestCase> two = passing_tests(1);
  two.push_back(make_test("new", TestStatus::failed));
  const Run adds = make_run("adds-tests", two);
  const auto ranking = score::rank(defaults, baseline, {none, adds});
  // adds-tests: pass_rate 1/2; B_pass 0 -> penalty 0; new_tests 2 -> bonus 1
  //   tests = 50 + 1 = 51; total (30*100 + 30*51) / 60 = 75.5
  // none: the formula as written, pass_rate 0 -> tests 0; total (3000 + 0) / 60 = 50
  //   (was tests inactive and total 100, ranked first)
  CHECK(score::shown(candidate_named(ranking, "adds-tests").total) == 75.5);
  const auto& none_tests = dimension_named(candidate_named(ranking, "none"), "tests");
  CHECK(none_tests.active);
  CHECK(none_tests.score == 0);
  CHECK(candidate_named(ranking, "none").total == 50);
  CHECK(ranking.candidates.front().agent == "adds-tests");
}

TEST_CASE("speed is relative to the fastest successful candidate", "[score][ranking]") {
  const config::Config defaults;
  const Run baseline = make_run("baseline", passing_tests(10));

  SECTION("successful means mergeable") {
    std::vector<TestCase> failing;
    add_tests(failing, "t", 10, TestStatus::failed);
    Run zero = make_run("zero-of-ten", failing);  // builds, 0 of 10 pass: not mergeable
    zero.metrics.duration_seconds = 20;
    Run good = make_run("good", passing_tests(10));
    good.metrics.duration_seconds = 30;
    Run slower = make_run("slower", passing_tests(10));
    slower.metrics.duration_seconds = 40;
    const auto ranking = score::rank(defaults, baseline, {zero, good, slower});
    // reference = 30 (good, the fastest mergeable candidate), not 20
    // good: 30/30*100 = 100 (was 20/30*100 = 66.67); slower: 30/40*100 = 75 (was 50)
    // zero-of-ten: clamp(30/20*100, 0, 100) = 100 (include_failed)
    CHECK(dimension_named(candidate_named(ranking, "good"), "speed").score == 100);
    CHECK(dimension_named(candidate_named(ranking, "slower"), "speed").score == 75);
    CHECK(dimension_named(candidate_named(ranking, "zero-of-ten"), "speed").evidence["successful"] == false);
  }

  SECTION("when no candidate is mergeable: the fastest whose build passed") {
    std::vector<TestCase> one_fails = passing_tests(9);
    one_fails.push_back(make_test("t9", TestStatus::failed));
    Run no_build = make_run("no-build");
    no_build.build.passed = false;
    no_build.metrics.duration_seconds = 10;
    Run first = make_run("first", one_fails);
    first.metrics.duration_seconds = 40;
    Run second = make_run("second", one_fails);
    second.metrics.duration_seconds = 80;
    const auto ranking = score::rank(defaults, baseline, {no_build, first, second});
    // reference = 40 (first: build passed); second: 40/80*100 = 50
    CHECK(dimension_named(candidate_named(ranking, "first"), "speed").score == 100);
    CHECK(dimension_named(candidate_named(ranking, "second"), "speed").score == 50);
    CHECK(dimension_named(candidate_named(ranking, "second"), "speed").evidence["fastest_successful_seconds"] == 40.0);
  }

  SECTION("include_failed = false scores a failed candidate's speed 0") {
    config::Config strict;
    strict.speed.include_failed = false;
    Run no_build = make_run("no-build");
    no_build.build.passed = false;
    no_build.metrics.duration_seconds = 10;
    Run good = make_run("good", passing_tests(10));
    good.metrics.duration_seconds = 30;
    const auto ranking = score::rank(strict, baseline, {no_build, good});
    const auto& speed = dimension_named(candidate_named(ranking, "no-build"), "speed");
    CHECK(speed.active);
    CHECK(speed.score == 0);
    CHECK(speed.inactive_reason == "candidate not successful and scoring.speed.include_failed is false");
  }
}
