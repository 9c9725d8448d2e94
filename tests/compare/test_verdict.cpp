// Tests for hydra::eval::compare_sets: pairing, deltas, hard regressions,
// verdict and promotion. Every number follows
// docs/compare.md with the defaults W_OBJ 0.6,
// W_JUDGE 0.4, COST_WEIGHT 0.1, minCompositeGain 0.01,
// regressionCompositeDrop 0.05, objectiveDropIsRegression true.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <hydra/cli/exit_codes.hpp>
#include <hydra/eval/verdict.hpp>

using namespace hydra;
using eval::Verdict;

namespace {

eval::TaskResult task(const std::string& id, std::uint64_t passed, std::uint64_t total,
                         std::optional<double> judge = std::nullopt) {
  eval::TaskResult result;
  result.id = id;
  result.source = "test";
  result.checks.passed = passed;
  result.checks.total = total;
  result.judge_score = judge;
  return result;
}

eval::TaskSet set_of(std::vector<eval::TaskResult> tasks) {
  std::sort(tasks.begin(), tasks.end(),
            [](const eval::TaskResult& left, const eval::TaskResult& right) { return left.id < right.id; });
  return {"set", std::move(tasks)};
}

eval::Comparison run(std::vector<eval::TaskResult> reference, std::vector<eval::TaskResult> candidate,
                        eval::Thresholds thresholds = {}) {
  return eval::compare_sets(set_of(std::move(reference)), set_of(std::move(candidate)), thresholds, {});
}

}  // namespace

TEST_CASE("round6 rounds to 6 decimals", "[compare][verdict]") {
  CHECK(eval::round6(0.1234564) == 0.123456);
  CHECK(eval::round6(0.1234565) == 0.123457);
  CHECK(eval::round6(0.81 - 0.8) == 0.01);  // 0.010000000000000009 -> 0.01
  CHECK_FALSE(std::signbit(eval::round6(-1e-9)));  // no "-0"
  CHECK(std::isnan(eval::round6(std::nan(""))));
}

TEST_CASE("compare_sets: improved, neutral and regressed by the summed delta", "[compare][verdict]") {
  SECTION("improved") {
    // t1: 3/4 -> 4/4, no judge: composite 0.75 -> 1.0, delta +0.25 > 0.01
    auto result = run({task("t1", 3, 4)}, {task("t1", 4, 4)});
    REQUIRE(result.tasks.size() == 1);
    CHECK(result.tasks[0].composite_delta == 0.25);
    CHECK(result.tasks[0].objective_delta == 0.25);
    CHECK(result.tasks[0].passed_delta == 1);
    CHECK(result.composite_delta_sum == 0.25);
    CHECK(result.verdict == Verdict::improved);
    CHECK(result.promote);
    CHECK(cli::exit_code_of(result.verdict) == cli::ExitCode::success);
  }
  SECTION("neutral") {
    auto result = run({task("t1", 3, 4, 0.5)}, {task("t1", 3, 4, 0.5)});
    CHECK(result.composite_delta_sum == 0.0);
    CHECK(result.verdict == Verdict::neutral);
    CHECK_FALSE(result.promote);
    CHECK(cli::exit_code_of(result.verdict) == cli::ExitCode::neutral);
  }
  SECTION("a gain exactly at minCompositeGain is neutral") {
    // reference: (0.6*1 + 0.4*0.5) / 1 = 0.8; candidate: 0.6 + 0.4*0.525 = 0.81
    // delta = round6(0.81 - 0.8) = 0.01, and 0.01 > 0.01 is false
    auto result = run({task("t1", 1, 1, 0.5)}, {task("t1", 1, 1, 0.525)});
    CHECK(result.composite_delta_sum == 0.01);
    CHECK(result.verdict == Verdict::neutral);
    CHECK_FALSE(result.promote);
  }
  SECTION("a gain just above minCompositeGain is improved") {
    // candidate: 0.6 + 0.4*0.5275 = 0.811; delta 0.011 > 0.01
    auto result = run({task("t1", 1, 1, 0.5)}, {task("t1", 1, 1, 0.5275)});
    CHECK(result.composite_delta_sum == 0.011);
    CHECK(result.verdict == Verdict::improved);
  }
  SECTION("a loss exactly at -minCompositeGain is regressed") {
    // candidate: 0.6 + 0.4*0.475 = 0.79; delta -0.01 <= -0.01
    auto result = run({task("t1", 1, 1, 0.5)}, {task("t1", 1, 1, 0.475)});
    CHECK(result.composite_delta_sum == -0.01);
    CHECK(result.hard_regressions.empty());
    CHECK(result.verdict == Verdict::regressed);
    CHECK(cli::exit_code_of(result.verdict) == cli::ExitCode::regressed);
  }
  SECTION("a loss just inside -minCompositeGain is neutral") {
    // candidate: 0.6 + 0.4*0.4775 = 0.791; delta -0.009 > -0.01
    auto result = run({task("t1", 1, 1, 0.5)}, {task("t1", 1, 1, 0.4775)});
    CHECK(result.composite_delta_sum == -0.009);
    CHECK(result.verdict == Verdict::neutral);
  }
  SECTION("empty sets are neutral and never promote") {
    auto result = run({}, {});
    CHECK(result.verdict == Verdict::neutral);
    CHECK_FALSE(result.promote);
  }
}

TEST_CASE("compare_sets: a per-task composite drop beyond regressionCompositeDrop", "[compare][verdict]") {
  // t2 gains: 0.6 + 0.4*0.5 = 0.8 -> 0.6 + 0.4*0.75 = 0.9, delta +0.1
  SECTION("a drop of exactly 0.05 is not a hard regression") {
    // t1: 0.8 -> 0.6 + 0.4*0.375 = 0.75, delta -0.05 (not larger than 0.05)
    // sum = -0.05 + 0.1 = 0.05 > 0.01 -> improved
    auto result = run({task("t1", 1, 1, 0.5), task("t2", 1, 1, 0.5)},
                      {task("t1", 1, 1, 0.375), task("t2", 1, 1, 0.75)});
    CHECK(result.tasks[0].composite_delta == -0.05);
    CHECK(result.hard_regressions.empty());
    CHECK(result.composite_delta_sum == 0.05);
    CHECK(result.verdict == Verdict::improved);
    CHECK(result.promote);
  }
  SECTION("a drop of 0.050001 is a hard regression despite a net gain") {
    // t1: 0.8 -> 0.6 + 0.4*0.3749975 = 0.749999, delta -0.050001
    // sum = -0.050001 + 0.1 = 0.049999 > 0.01, but a hard regression wins
    auto result = run({task("t1", 1, 1, 0.5), task("t2", 1, 1, 0.5)},
                      {task("t1", 1, 1, 0.3749975), task("t2", 1, 1, 0.75)});
    CHECK(result.tasks[0].composite_delta == -0.050001);
    CHECK(result.composite_delta_sum == 0.049999);
    REQUIRE(result.hard_regressions.size() == 1);
    CHECK(result.hard_regressions[0].task == "t1");
    CHECK_THAT(result.hard_regressions[0].reason, Catch::Contains("composite dropped by 0.050001"));
    CHECK(result.verdict == Verdict::regressed);
    CHECK_FALSE(result.promote);
  }
  SECTION("a wider threshold tolerates the drop") {
    eval::Thresholds wide;
    wide.regression_composite_drop = 0.1;
    auto result = run({task("t1", 1, 1, 0.5), task("t2", 1, 1, 0.5)},
                      {task("t1", 1, 1, 0.3749975), task("t2", 1, 1, 0.75)}, wide);
    CHECK(result.hard_regressions.empty());
    CHECK(result.verdict == Verdict::improved);
  }
}

TEST_CASE("compare_sets: objective drops are hard regressions", "[compare][verdict]") {
  SECTION("fewer passed checks while the pass rate rises") {
    // reference 4/8 = 0.5 -> candidate 3/4 = 0.75: composite +0.25, passed 4 -> 3
    auto result = run({task("t1", 4, 8)}, {task("t1", 3, 4)});
    CHECK(result.tasks[0].objective_delta == 0.25);
    CHECK(result.tasks[0].passed_delta == -1);
    REQUIRE(result.hard_regressions.size() == 1);
    CHECK(result.hard_regressions[0].reason == "passed checks dropped from 4 to 3");
    CHECK(result.verdict == Verdict::regressed);

    eval::Thresholds off;
    off.objective_drop_is_regression = false;
    auto tolerated = run({task("t1", 4, 8)}, {task("t1", 3, 4)}, off);
    CHECK(tolerated.hard_regressions.empty());
    CHECK(tolerated.verdict == Verdict::improved);
  }
  SECTION("a lower pass rate while passed checks rise") {
    // reference 19/20 = 0.95, no judge: composite 0.95
    // candidate 20/22 = 0.909091 with judge 1.0: 0.6*0.9090909 + 0.4 = 0.945455
    // composite delta -0.004545 (small), objective delta -0.040909
    auto result = run({task("t1", 19, 20)}, {task("t1", 20, 22, 1.0)});
    CHECK(result.tasks[0].composite_delta == -0.004545);
    CHECK(result.tasks[0].objective_delta == -0.040909);
    REQUIRE(result.hard_regressions.size() == 1);
    CHECK(result.hard_regressions[0].reason == "objective pass rate dropped from 0.95 to 0.909091");
    CHECK(result.verdict == Verdict::regressed);

    eval::Thresholds off;
    off.objective_drop_is_regression = false;
    CHECK(run({task("t1", 19, 20)}, {task("t1", 20, 22, 1.0)}, off).verdict == Verdict::neutral);
  }
  SECTION("a failed candidate build with no test results") {
    eval::TaskResult broken;
    broken.id = "t1";
    broken.checks.build_failed = true;  // passed/total unknown
    // total = max(1, reference total 5) = 5: obj01 = 0/5 = 0, composite 1.0 -> 0.0
    auto result = run({task("t1", 5, 5)}, {broken});
    REQUIRE(result.tasks[0].candidate);
    CHECK(result.tasks[0].candidate->composite.objective.total == 5);
    CHECK(result.tasks[0].composite_delta == -1.0);
    CHECK(result.hard_regressions.size() == 3);  // pass rate, passed checks, composite drop
    CHECK(result.verdict == Verdict::regressed);
  }
}

TEST_CASE("compare_sets: dropped and added tasks", "[compare][verdict]") {
  SECTION("a task the candidate lacks is a hard regression") {
    // t1 improves by +0.25 but t2 is missing
    auto result = run({task("t1", 3, 4), task("t2", 1, 1)}, {task("t1", 4, 4)});
    REQUIRE(result.tasks.size() == 2);
    CHECK(result.tasks[1].pairing == eval::Pairing::dropped);
    CHECK_FALSE(result.tasks[1].composite_delta);
    REQUIRE(result.hard_regressions.size() == 1);
    CHECK(result.hard_regressions[0].task == "t2");
    CHECK(result.hard_regressions[0].reason == "task missing from the candidate set");
    CHECK(result.composite_delta_sum == 0.25);
    CHECK(result.verdict == Verdict::regressed);
    CHECK_FALSE(result.promote);
  }
  SECTION("extra candidate tasks are allowed, listed and not summed") {
    // t1 unchanged; t0 exists only in the candidate (even scoring 0 it does not count)
    auto neutral = run({task("t1", 1, 1)}, {task("t0", 0, 3), task("t1", 1, 1)});
    CHECK(neutral.added_tasks == std::vector<std::string>{"t0"});
    CHECK(neutral.tasks[0].pairing == eval::Pairing::added);
    CHECK(neutral.composite_delta_sum == 0.0);
    CHECK(neutral.hard_regressions.empty());
    CHECK(neutral.verdict == Verdict::neutral);

    auto improved = run({task("t1", 3, 4)}, {task("t1", 4, 4), task("t2", 1, 1)});
    CHECK(improved.added_tasks == std::vector<std::string>{"t2"});
    CHECK(improved.verdict == Verdict::improved);
    CHECK(improved.promote);
  }
}

TEST_CASE("compare_sets: the cost adjustment against the reference", "[compare][verdict]") {
  SECTION("a cheaper candidate gains; the reference itself gets 0") {
    auto reference = task("t1", 3, 4);
    reference.cost.tokens = 1000;
    auto candidate = task("t1", 3, 4);
    candidate.cost.tokens = 500;
    // ratio 0.5, savings 0.5, adjustment 0.05: composite 0.75 -> 0.80
    auto result = run({reference}, {candidate});
    CHECK(result.tasks[0].reference->composite.cost_adjustment == 0.0);
    CHECK(result.tasks[0].candidate->composite.cost_adjustment == 0.05);
    CHECK(result.tasks[0].candidate->composite.composite == 0.8);
    CHECK(result.tasks[0].cost_adjustment_delta == 0.05);
    CHECK(result.composite_delta_sum == 0.05);
    CHECK(result.verdict == Verdict::improved);
  }
  SECTION("zero references") {
    auto reference = task("t1", 1, 1);
    reference.cost.tokens = 0;
    reference.cost.steps = 0;
    auto same = task("t1", 1, 1);
    same.cost.tokens = 0;
    same.cost.steps = 0;
    // ratios 1 and 1: savings 0, composite stays 1.0
    CHECK(run({reference}, {same}).verdict == Verdict::neutral);

    auto spender = task("t1", 1, 1);
    spender.cost.tokens = 100;  // ratio 2
    spender.cost.steps = 3;     // ratio 2
    // average 2, savings -1, adjustment -0.1: composite 1.0 -> 0.9, drop 0.1 > 0.05
    auto result = run({reference}, {spender});
    CHECK(result.tasks[0].candidate->composite.composite == 0.9);
    CHECK(result.tasks[0].composite_delta == -0.1);
    CHECK(result.verdict == Verdict::regressed);
  }
}

TEST_CASE("compare_sets: non-finite values and integrity problems are hard regressions", "[compare][verdict]") {
  SECTION("NaN cost") {
    auto reference = task("t1", 3, 4);
    reference.cost.tokens = 1000;
    auto candidate = task("t1", 4, 4);
    candidate.cost.tokens = std::numeric_limits<double>::quiet_NaN();
    auto result = run({reference}, {candidate});
    CHECK(std::isnan(*result.tasks[0].composite_delta));
    REQUIRE_FALSE(result.hard_regressions.empty());
    CHECK_THAT(result.hard_regressions[0].reason, Catch::Contains("non-finite value in the candidate"));
    CHECK(result.verdict == Verdict::regressed);
    CHECK_FALSE(result.promote);
  }
  SECTION("infinite judge score in the reference") {
    auto reference = task("t1", 1, 1, std::numeric_limits<double>::infinity());
    auto result = run({reference}, {task("t1", 1, 1)});
    REQUIRE_FALSE(result.hard_regressions.empty());
    CHECK_THAT(result.hard_regressions[0].reason, Catch::Contains("non-finite value in the reference"));
    CHECK(result.verdict == Verdict::regressed);
  }
  SECTION("integrity problems in a run") {
    auto candidate = task("t1", 4, 4);
    candidate.integrity_problems = {"junit/0.xml: malformed XML"};
    auto result = run({task("t1", 3, 4)}, {candidate});
    REQUIRE(result.hard_regressions.size() == 1);
    CHECK(result.hard_regressions[0].reason ==
          "candidate run has an integrity problem: junit/0.xml: malformed XML");
    CHECK(result.verdict == Verdict::regressed);
  }
}

TEST_CASE("compare_sets: every threshold is decided on exact values", "[compare][verdict]") {
  SECTION("a net gain of exactly min_composite_gain, summed from unrounded deltas, is neutral") {
    // t1: 1/3 -> 41/120, delta 1/120; t2: 1/3 -> 201/600, delta 1/600.
    // Sum 5/600 + 1/600 = 1/100 = 0.01: not more than 0.01 -> neutral.
    // (With each composite rounded to 6 decimals first, 0.341667 - 0.333333
    // = 0.008334 and 0.335 - 0.333333 = 0.001667 summed to 0.010001: "improved".)
    auto result = run({task("t1", 1, 3), task("t2", 1, 3)}, {task("t1", 41, 120), task("t2", 201, 600)});
    CHECK(result.tasks[0].composite_delta == 0.008333);  // shown: 1/120 rounded to 6 decimals
    CHECK(result.tasks[1].composite_delta == 0.001667);
    CHECK(result.composite_delta_sum == 0.01);
    CHECK(result.hard_regressions.empty());
    CHECK(result.verdict == Verdict::neutral);
    CHECK_FALSE(result.promote);

    // The same loss is exactly -min_composite_gain: regressed.
    eval::Thresholds no_objective_rule;
    no_objective_rule.objective_drop_is_regression = false;
    auto loss = run({task("t1", 41, 120), task("t2", 201, 600)}, {task("t1", 1, 3), task("t2", 1, 3)},
                    no_objective_rule);
    CHECK(loss.composite_delta_sum == -0.01);
    CHECK(loss.hard_regressions.empty());
    CHECK(loss.verdict == Verdict::regressed);

    // One check more makes the gain exceed it: improved.
    auto gain = run({task("t1", 1, 3), task("t2", 1, 3)}, {task("t1", 42, 120), task("t2", 201, 600)});
    CHECK(gain.verdict == Verdict::improved);
  }

  SECTION("a per-task drop of exactly regression_composite_drop is not a hard regression") {
    // 23/60 -> 1/3: a drop of 3/60 = 1/20 = 0.05 exactly.
    eval::Thresholds no_objective_rule;
    no_objective_rule.objective_drop_is_regression = false;
    auto result = run({task("t1", 23, 60)}, {task("t1", 1, 3)}, no_objective_rule);
    CHECK(result.tasks[0].composite_delta == -0.05);
    CHECK(result.hard_regressions.empty());
    CHECK(result.verdict == Verdict::regressed);  // the sum -0.05 <= -0.01
  }

  SECTION("a threshold counts with every decimal it was written as") {
    // t1: judge 0.5 -> 0.3750005: composite 0.8 -> 0.7500002, a drop of
    // 0.0499998, more than 0.0499996. (Taken to 6 decimals both were 0.05,
    // and the drop was "not larger".)
    eval::Thresholds narrow;
    narrow.regression_composite_drop = 0.0499996;
    auto result = run({task("t1", 1, 1, 0.5)}, {task("t1", 1, 1, 0.3750005)}, narrow);
    REQUIRE(result.hard_regressions.size() == 1);
    // Shown with the decimals that tell the two apart.
    CHECK(result.hard_regressions[0].reason ==
          "composite dropped by 0.0499998 (more than regression_composite_drop 0.0499996)");
    narrow.regression_composite_drop = 0.0499998;
    CHECK(run({task("t1", 1, 1, 0.5)}, {task("t1", 1, 1, 0.3750005)}, narrow).hard_regressions.empty());
  }

  SECTION("an objective drop too small for 6 decimals is still a drop") {
    // 2/3 -> 5999999/9000000: both show 0.666667, passed checks rise 2 -> 5999999,
    // but the pass rate fell by 1/9000000.
    auto result = run({task("t1", 2, 3)}, {task("t1", 5999999, 9000000)});
    CHECK(result.tasks[0].objective_delta == 0.0);  // shown: rounded to 6 decimals
    REQUIRE(result.hard_regressions.size() == 1);
    CHECK(result.hard_regressions[0].reason == "objective pass rate dropped from 0.6666667 to 0.6666666");
    CHECK(result.verdict == Verdict::regressed);
  }
}
