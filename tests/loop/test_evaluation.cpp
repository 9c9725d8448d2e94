#include <catch2/catch.hpp>

#include <string>

#include <hydra/error.hpp>
#include <hydra/loop/evaluation.hpp>
#include <hydra/loop/loop.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/junit.hpp>
#include "test_paths.hpp"

namespace {

using namespace hydra::loop;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using hydra::util::Exact;

const std::string kFixtures = std::string(HYDRA_FIXTURES_DIR) + "/loop/";

/// example-project's baseline as ctest ran it (recorded by record.sh).
std::vector<TestCase> example_baseline() {
  auto tests = hydra::parse::parse_junit_file(kFixtures + "example-baseline.junit.xml");
  hydra::parse::apply_labels(tests, hydra::parse::parse_ctest_json_file(kFixtures + "example-baseline.ctest.json"));
  return tests;
}

TestCase test(std::string suite, std::string name, TestStatus status, std::vector<std::string> labels = {}) {
  TestCase result;
  result.suite = std::move(suite);
  result.name = std::move(name);
  result.status = status;
  result.labels = std::move(labels);
  return result;
}

Iteration row(int number, double score, double best, Action action) {
  return Iteration{number, "2024-01-01T00:00:00Z", score, best, action, "change " + std::to_string(number)};
}

}  // namespace

TEST_CASE("eval_cases groups tests by CTest label, else by suite", "[loop]") {
  SECTION("valid input: example-project's recorded baseline") {
    const auto cases = eval_cases(example_baseline());
    REQUIRE(cases.size() == 3);
    // edge: tokenize.empty_text, count.lines_without_trailing_newline (fails),
    // count.empty_text, frequency.limit_larger_than_vocabulary -> 3/4
    CHECK(cases[0].name == "edge");
    CHECK(cases[0].passed == 3);
    CHECK(cases[0].total == 4);
    // parsing: the three tokenize tests -> 3/3
    CHECK(cases[1].name == "parsing");
    CHECK(cases[1].passed == 3);
    CHECK(cases[1].total == 3);
    // unit: four count tests (one fails) and three frequency tests -> 6/7
    CHECK(cases[2].name == "unit");
    CHECK(cases[2].passed == 6);
    CHECK(cases[2].total == 7);
    // score = (3/4 + 3/3 + 6/7) / 3 = (63 + 84 + 72) / 84 / 3 = 73/84 = 0.869047619...
    CHECK(mean_pass_rate(cases) == Exact::ratio(73, 84));
    CHECK(mean_pass_rate(cases).fixed(6) == "0.869048");
  }

  SECTION("valid input: JUnit suites when no test has a label") {
    const auto cases = eval_cases({test("a", "1", TestStatus::passed), test("a", "2", TestStatus::failed),
                                   test("b", "1", TestStatus::passed), test("b", "2", TestStatus::skipped),
                                   test("b", "3", TestStatus::disabled)});
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].name == "a");  // 1/2
    CHECK(cases[0].passed == 1);
    CHECK(cases[0].total == 2);
    CHECK(cases[1].name == "b");  // skipped counts unpassed, disabled is no expectation: 1/2
    CHECK(cases[1].total == 2);
    // The seed's example: (4/6 + 3/4 + 5/5) / 3 = (8 + 9 + 12) / 12 / 3 = 29/36 = 0.806
    const std::vector<EvalCase> seed = {{"eval-1", 4, 6}, {"eval-2", 3, 4}, {"eval-3", 5, 5}};
    CHECK(mean_pass_rate(seed) == Exact::ratio(29, 36));
    CHECK(mean_pass_rate(seed).fixed(3) == "0.806");
  }

  SECTION("bad input: no tests, and unlabelled tests among labelled ones") {
    CHECK(eval_cases({}).empty());
    CHECK(mean_pass_rate({}) == 0);
    const auto cases = eval_cases({test("s", "1", TestStatus::passed, {"unit"}), test("s", "2", TestStatus::failed)});
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].name == "(unlabelled)");
    CHECK(cases[0].passed == 0);
    CHECK(cases[1].name == "unit");
    CHECK(cases[1].passed == 1);
  }
}

TEST_CASE("is_kept keeps only a strictly better score", "[loop]") {
  SECTION("valid input") {
    CHECK(is_kept(0.81, 0.80));
    CHECK_FALSE(is_kept(0.80, 0.80));  // a tie is a revert
    CHECK_FALSE(is_kept(0.79, 0.80));
  }
  SECTION("bad input") { CHECK_FALSE(is_kept(0.0, 0.0)); }
}

TEST_CASE("A mean pass rate equal to the best is a revert, however its cases add up", "[loop]") {
  // The best state: cases at 3/10 and 0/10, mean (0.3 + 0) / 2 = 0.15.
  // The new state: cases at 1/10 and 2/10, mean (0.1 + 0.2) / 2 = 0.15 too.
  // In doubles (0.1 + 0.2) / 2 is 0.15000000000000002 > 0.15 and was kept.
  const std::vector<EvalCase> best_cases = {{"a", 3, 10}, {"b", 0, 10}};
  const std::vector<EvalCase> new_cases = {{"a", 1, 10}, {"b", 2, 10}};
  REQUIRE((0.1 + 0.2) / 2 > (0.3 + 0.0) / 2);  // the floating-point trap the loop must not fall into
  CHECK(mean_pass_rate(new_cases) == mean_pass_rate(best_cases));
  CHECK(mean_pass_rate(new_cases) == Exact::ratio(3, 20));
  CHECK_FALSE(is_kept(mean_pass_rate(new_cases), mean_pass_rate(best_cases)));
  // One expectation more in either case is strictly better: kept.
  CHECK(is_kept(mean_pass_rate({{"a", 2, 10}, {"b", 2, 10}}), mean_pass_rate(best_cases)));
  // A best score of exactly 1 converges; 1 - 1/10^12 does not.
  CHECK(stop_reason({row(0, 1.0, 1.0, Action::baseline)}, 5, 3) == std::optional<std::string>("converged"));
  Iteration almost = row(0, 0.5, 0.5, Action::baseline);
  almost.best_score = 1 - Exact::ratio(1, 1000000000000);
  CHECK_FALSE(stop_reason({almost}, 5, 3));
  // results.tsv shows 6 decimals, rounded from the exact value.
  CHECK(results_tsv({row(0, 0.15, 0.15, Action::baseline)}).find("\t0.150000\t0.150000\t") != std::string::npos);
}

TEST_CASE("stop_reason classifies convergence", "[loop]") {
  SECTION("valid input") {
    CHECK_FALSE(stop_reason({row(0, 0.5, 0.5, Action::baseline)}, 5, 3));
    CHECK(stop_reason({row(0, 1.0, 1.0, Action::baseline)}, 5, 3) == std::optional<std::string>("converged"));
    CHECK(stop_reason({row(0, 0.5, 0.5, Action::baseline), row(1, 1.0, 1.0, Action::keep)}, 5, 3) ==
          std::optional<std::string>("converged"));
    const std::vector<Iteration> three_reverts = {row(0, 0.5, 0.5, Action::baseline), row(1, 0.4, 0.5, Action::revert),
                                                  row(2, 0.0, 0.5, Action::revert), row(3, 0.5, 0.5, Action::revert)};
    CHECK(stop_reason(three_reverts, 5, 3) == std::optional<std::string>("stuck"));
    CHECK_FALSE(stop_reason(three_reverts, 5, 4));
    const std::vector<Iteration> keep_then_revert = {row(0, 0.5, 0.5, Action::baseline), row(1, 0.6, 0.6, Action::keep),
                                                     row(2, 0.6, 0.6, Action::revert)};
    CHECK(stop_reason(keep_then_revert, 2, 3) == std::optional<std::string>("plateau"));
    const std::vector<Iteration> rising = {row(0, 0.5, 0.5, Action::baseline), row(1, 0.6, 0.6, Action::keep),
                                           row(2, 0.7, 0.7, Action::keep)};
    CHECK(stop_reason(rising, 2, 3) == std::optional<std::string>("improved"));
    CHECK(trailing_reverts(three_reverts) == 3);
  }
  SECTION("bad input: no iterations") { CHECK_FALSE(stop_reason({}, 5, 3)); }
}

TEST_CASE("results_tsv and loop_report write the iterations", "[loop]") {
  SECTION("valid input") {
    std::vector<Iteration> iterations = {row(0, 0.5, 0.5, Action::baseline), row(1, 0.75, 0.75, Action::keep),
                                         row(2, 0.25, 0.75, Action::revert)};
    iterations[2].changelog = "tab\there\nand a newline";
    CHECK(results_tsv(iterations) ==
          "iteration\ttimestamp\tscore\tbest_score\taction\tchangelog\n"
          "0\t2024-01-01T00:00:00Z\t0.500000\t0.500000\tbaseline\tchange 0\n"
          "1\t2024-01-01T00:00:00Z\t0.750000\t0.750000\tkeep\tchange 1\n"
          "2\t2024-01-01T00:00:00Z\t0.250000\t0.750000\trevert\ttab here and a newline\n");

    const auto report = loop_report("plateau", iterations, {{"unit", 3, 4}}, "pass_rate", 1);
    CHECK(report["schema"] == "hydra-score/loop/1");
    CHECK(report["classification"] == "plateau");
    CHECK(report["best_score"] == 0.75);
    CHECK(report["kept"] == 1);
    CHECK(report["reverted"] == 1);
    CHECK(report["iterations"].size() == 3);
    CHECK(report["iterations"][1]["action"] == "keep");
    CHECK(report["cases"][0] == nlohmann::json({{"name", "unit"}, {"passed", 3}, {"total", 4}, {"pass_rate", 0.75}}));
    CHECK(report["noise_note"] == "Differences under 0.05 may be noise.");
    const std::string summary = render_summary(report);
    CHECK(summary.find("Loop: plateau, best score 0.750") != std::string::npos);
    CHECK(summary.find("may be noise") != std::string::npos);
  }
  SECTION("bad input: an empty loop") {
    const auto report = loop_report("running", {}, {}, "pass_rate", 0);
    CHECK(report["best_score"] == 0.0);
    CHECK(report["iterations"].empty());
  }
}

TEST_CASE("evaluate scores a captured run", "[loop]") {
  hydra::model::Run run;
  run.build.known = true;
  run.build.passed = true;
  run.tests = example_baseline();
  SECTION("valid input") {
    const Evaluation evaluation = evaluate(run, Metric::pass_rate, nullptr);
    // (3/4 + 3/3 + 6/7) / 3 = 73/84, as above
    CHECK(evaluation.score == Exact::ratio(73, 84));
    CHECK(evaluation.failing_tests.size() == 1);
    CHECK(evaluation.failing_tests[0].find("lines_without_trailing_newline") != std::string::npos);
  }
  SECTION("bad input: a failed build scores 0") {
    run.build.passed = false;
    run.build.reason = "exit code 1";
    const Evaluation evaluation = evaluate(run, Metric::pass_rate, nullptr);
    CHECK(evaluation.score == 0);
    CHECK(evaluation.cases.empty());
    CHECK(evaluation.summary == "build failed (exit code 1)");
    CHECK_THROWS_AS(evaluate(run, Metric::composite, nullptr), hydra::Error);
  }
}
