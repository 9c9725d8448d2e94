// Tests for hydra::eval composite pieces: objective, composite, cost adjustment
// and the checks of a recorded run. Arithmetic follows
// docs/compare.md.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <limits>

#include <hydra/eval/composite.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

using namespace hydra;

namespace {

const std::filesystem::path fixtures = std::filesystem::path(HYDRA_FIXTURES_DIR) / "compare";

int recorded_exit_code(const std::filesystem::path& file) {
  std::ifstream stream(file);
  int code = -1;
  stream >> code;
  return code;
}

}  // namespace

TEST_CASE("objective_score is passed over total, 1.0 without checks", "[eval]") {
  CHECK(eval::objective_score({3, 4}) == Approx(0.75));  // 3 / 4
  CHECK(eval::objective_score({0, 0}) == 1.0);           // no checks: neutral 1.0
  CHECK(eval::objective_score({0, 5}) == 0.0);           // 0 / 5
}

TEST_CASE("resolve_objective settles failed builds and checks that did not run", "[eval]") {
  SECTION("valid input") {
    const auto counts = eval::resolve_objective({false, 3, 4}, 10);
    CHECK(counts.passed == 3);
    CHECK(counts.total == 4);  // the run's own counts win over the reference's
  }
  SECTION("build failed: every known check fails") {
    auto known = eval::resolve_objective({true, 2, 3}, 5);
    CHECK(known.passed == 0);
    CHECK(known.total == 3);  // the run's test list
    auto from_reference = eval::resolve_objective({true, std::nullopt, std::nullopt}, 5);
    CHECK(from_reference.total == 5);  // unknown: max(1, reference total 5) = 5
    auto nothing_known = eval::resolve_objective({true, std::nullopt, std::nullopt}, std::nullopt);
    CHECK(nothing_known.total == 1);  // max(1, 0) = 1, so obj01 = 0/1 = 0, never 1.0
    CHECK(eval::objective_score(nothing_known) == 0.0);
    auto empty_list = eval::resolve_objective({true, 0, 0}, std::nullopt);
    CHECK(empty_list.total == 1);  // max(1, 0): a failed build never scores 1.0
  }
  SECTION("checks did not run") {
    auto with_reference = eval::resolve_objective({false, std::nullopt, std::nullopt}, 4);
    CHECK(with_reference.passed == 0);
    CHECK(with_reference.total == 4);  // 0 / 4 against the reference's checks
    auto listed = eval::resolve_objective({false, std::nullopt, 2}, 4);
    CHECK(listed.total == 2);  // ctest's test list wins over the reference
    auto none = eval::resolve_objective({false, std::nullopt, std::nullopt}, std::nullopt);
    CHECK(none.total == 0);  // no checks anywhere: obj01 = 1.0
  }
}

TEST_CASE("composite combines objective, judge and cost", "[eval]") {
  eval::EvalSettings settings;  // W_OBJ 0.6, W_JUDGE 0.4, COST_WEIGHT 0.1
  SECTION("valid input") {
    auto with_judge = eval::composite({3, 4}, 0.8, 0.0, settings);
    // base = (0.6*0.75 + 0.4*0.8) / (0.6 + 0.4) = (0.45 + 0.32) / 1 = 0.77
    CHECK(with_judge.base == Approx(0.77));
    CHECK(with_judge.composite == Approx(0.77));

    auto without_judge = eval::composite({3, 4}, std::nullopt, 0.0, settings);
    // W_JUDGE_eff = 0: base = 0.6*0.75 / 0.6 = 0.75
    CHECK(without_judge.base == Approx(0.75));
    CHECK_FALSE(without_judge.judge01);

    auto with_cost = eval::composite({3, 4}, std::nullopt, 0.05, settings);
    CHECK(with_cost.composite == Approx(0.80));  // 0.75 + 0.05

    eval::EvalSettings equal_weights;
    equal_weights.objective_weight = 1.0;
    equal_weights.judge_weight = 1.0;
    // (1*0.75 + 1*0.8) / 2 = 0.775
    CHECK(eval::composite({3, 4}, 0.8, 0.0, equal_weights).composite == Approx(0.775));
  }
  SECTION("clamped to [0, 1]") {
    CHECK(eval::composite({4, 4}, 1.0, 0.1, settings).composite == 1.0);   // 1.0 + 0.1 -> 1
    CHECK(eval::composite({0, 4}, 0.0, -0.1, settings).composite == 0.0);  // 0.0 - 0.1 -> 0
  }
  SECTION("bad input: NaN stays NaN") {
    CHECK(std::isnan(eval::composite({1, 1}, std::nan(""), 0.0, settings).composite));
    CHECK(std::isnan(eval::composite({1, 1}, std::nullopt, std::nan(""), settings).composite));
  }
}

TEST_CASE("cost_adjustment averages candidate/reference ratios", "[eval]") {
  model::AgentMetrics reference;
  model::AgentMetrics candidate;
  SECTION("valid input") {
    reference.tokens = 1000;
    candidate.tokens = 500;  // ratio 0.5
    reference.cost_usd = 0.1;
    candidate.cost_usd = 0.2;  // ratio 2.0
    candidate.tool_calls = 3;  // reference lacks it: not a common signal
    auto adjustment = eval::cost_adjustment(candidate, reference, 0.1);
    CHECK(adjustment.signals == std::vector<std::string>{"cost_usd", "tokens"});
    CHECK(adjustment.average_ratio == Approx(1.25));  // (2.0 + 0.5) / 2
    CHECK(adjustment.savings == Approx(-0.25));       // 1 - 1.25
    CHECK(adjustment.adjustment == Approx(-0.025));   // -0.25 * 0.1
  }
  SECTION("cheaper candidate gains") {
    reference.steps = 10;
    candidate.steps = 5;
    auto adjustment = eval::cost_adjustment(candidate, reference, 0.1);
    CHECK(adjustment.adjustment == Approx(0.05));  // (1 - 0.5) * 0.1
  }
  SECTION("a zero reference gives ratio 2 when the candidate used some, else 1") {
    reference.tokens = 0;
    candidate.tokens = 10;  // ratio 2
    reference.steps = 0;
    candidate.steps = 0;  // ratio 1
    auto adjustment = eval::cost_adjustment(candidate, reference, 0.1);
    CHECK(adjustment.average_ratio == Approx(1.5));  // (2 + 1) / 2
    CHECK(adjustment.adjustment == Approx(-0.05));   // (1 - 1.5) * 0.1
  }
  SECTION("savings are clamped to [-1, 1]") {
    reference.wall_clock_ms = 1000;
    candidate.wall_clock_ms = 10000;  // ratio 10: savings clamp(1 - 10) = -1
    CHECK(eval::cost_adjustment(candidate, reference, 0.1).adjustment == Approx(-0.1));
  }
  SECTION("no common signal gives 0") {
    reference.tokens = 100;
    candidate.steps = 5;
    auto adjustment = eval::cost_adjustment(candidate, reference, 0.1);
    CHECK(adjustment.signals.empty());
    CHECK(adjustment.adjustment == 0.0);
  }
  SECTION("bad input: a non-finite value propagates") {
    reference.tokens = 100;
    candidate.tokens = std::numeric_limits<double>::quiet_NaN();
    CHECK(std::isnan(eval::cost_adjustment(candidate, reference, 0.1).adjustment));
  }
}

TEST_CASE("check_outcome counts a recorded run's tests as checks", "[eval]") {
  util::TempDir directory("hydra-eval-test");
  SECTION("valid input") {
    pipeline::RecordRequest request;
    request.build_exit_code = 0;
    request.junit_files = {fixtures / "candidate" / "junit.xml"};
    request.ctest_json = fixtures / "candidate" / "ctest.json";
    pipeline::record(request, directory.path() / "run");
    const model::Run run = pipeline::load(directory.path() / "run", pipeline::load_config(directory.path() / "run"));

    eval::EvalSettings all;
    auto outcome = eval::check_outcome(run, all);
    CHECK_FALSE(outcome.build_failed);
    CHECK(outcome.passed == 2u);  // math.add, io.roundtrip pass; math.divide fails
    CHECK(outcome.total == 3u);

    eval::EvalSettings unit_only;
    unit_only.check_labels = {"unit"};
    auto unit = eval::check_outcome(run, unit_only);
    CHECK(unit.passed == 1u);  // math.add (math.divide failed)
    CHECK(unit.total == 2u);   // math.add, math.divide carry label "unit"

    eval::EvalSettings io_only;
    io_only.check_regex = "^io\\.";
    auto io = eval::check_outcome(run, io_only);
    CHECK(io.passed == 1u);
    CHECK(io.total == 1u);
  }
  SECTION("bad input: a failed build") {
    pipeline::RecordRequest request;
    request.build_exit_code = recorded_exit_code(fixtures / "broken" / "build-exit-code");
    request.build_log = fixtures / "broken" / "build.log";
    request.ctest_json = fixtures / "broken" / "ctest.json";
    pipeline::record(request, directory.path() / "broken");
    const model::Run run =
        pipeline::load(directory.path() / "broken", pipeline::load_config(directory.path() / "broken"));
    auto outcome = eval::check_outcome(run, {});
    CHECK(outcome.build_failed);
    CHECK_FALSE(outcome.passed);   // no test results
    CHECK(outcome.total == 1u);    // ctest's list: broken.runs
    auto counts = eval::resolve_objective(outcome, 5);
    CHECK(counts.passed == 0);
    CHECK(counts.total == 1);  // the run's own list (1) wins over the reference's 5
  }
}
