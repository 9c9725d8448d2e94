// Golden tests of the dimension formulas (docs/formulas.md). Every expected
// number shows its arithmetic.
#include <catch2/catch.hpp>

#include <hydra/score/score.hpp>

#include "score/run_builders.hpp"

using hydra::model::Run;
using hydra::model::Severity;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;
namespace score = hydra::score;
namespace config = hydra::config;

TEST_CASE("score_build is 100 for a passed build, 0 for a failed one", "[score]") {
  const config::Config defaults;
  SECTION("valid input") {
    Run run = make_run("a");
    auto dimension = score::score_build(defaults, run);
    CHECK(dimension.active);
    CHECK(dimension.score == 100);
    CHECK(dimension.weight == 30);

    run.build.passed = false;
    run.build.exit_code = 2;
    dimension = score::score_build(defaults, run);
    CHECK(dimension.active);
    CHECK(dimension.score == 0);
    CHECK(dimension.evidence["exit_code"] == 2);
  }
  SECTION("bad input: no build recorded makes the dimension inactive") {
    Run run = make_run("a");
    run.build.known = false;
    const auto dimension = score::score_build(defaults, run);
    CHECK_FALSE(dimension.active);
    CHECK(dimension.score == 0);
    CHECK(dimension.inactive_reason == "no build result recorded");
  }
}

TEST_CASE("score_tests follows the seed formula", "[score]") {
  const config::Config defaults;

  SECTION("valid input: 10 passed -> 8 passed 2 failed = 68") {
    const Run baseline = make_run("baseline", passing_tests(10));
    std::vector<TestCase> tests;
    add_tests(tests, "t", 8);
    tests.push_back(make_test("t8", TestStatus::failed));
    tests.push_back(make_test("t9", TestStatus::failed));
    const Run candidate = make_run("a", tests);

    score::TestChanges changes;
    const auto dimension = score::score_tests(defaults, baseline, candidate, &changes);
    // pass_rate = 8/10 = 0.8; regression = max(0, 10 - 8) = 2;
    // reg_penalty = 2/10 * 60 = 12; new_tests = max(0, 10 - 10) = 0, bonus 0
    // score = 0.8*100 - 12 + 0 = 68
    CHECK(dimension.active);
    CHECK(dimension.score == 68);
    CHECK(dimension.evidence["B_pass"] == 10);
    CHECK(dimension.evidence["B_total"] == 10);
    CHECK(dimension.evidence["A_pass"] == 8);
    CHECK(dimension.evidence["A_total"] == 10);
    CHECK(dimension.evidence["pass_rate"] == 0.8);
    CHECK(dimension.evidence["regression"] == 2);
    CHECK(dimension.evidence["reg_penalty"] == 12.0);
    CHECK(dimension.evidence["new_tests"] == 0);
    CHECK(dimension.evidence["new_test_bonus"] == 0.0);
    CHECK(dimension.evidence["mode"] == "count");
    REQUIRE(changes.regressed.size() == 2);
    CHECK(changes.regressed[0].id() == "ctest::t8");
    CHECK(changes.regressed[0].status == TestStatus::failed);  // the candidate's record
    CHECK(changes.dropped.empty());
    CHECK(changes.added.empty());
  }

  SECTION("valid input: new tests earn the bonus") {
    const Run baseline = make_run("baseline", passing_tests(10));
    std::vector<TestCase> tests = passing_tests(10);
    add_tests(tests, "new", 3);
    tests.push_back(make_test("new3", TestStatus::failed));
    const Run candidate = make_run("a", tests);
    score::TestChanges changes;
    const auto dimension = score::score_tests(defaults, baseline, candidate, &changes);
    // A_pass = 13, A_total = 14, pass_rate = 13/14; regression = max(0, 10 - 13) = 0
    // new_tests = max(0, 14 - 10) = 4, bonus = min(10, 4*0.5) = 2
    // score = 13/14*100 - 0 + 2 = 94.857... -> 94.86
    CHECK(score::shown(dimension.score) == 94.86);
    CHECK(dimension.evidence["new_test_bonus"] == 2.0);
    CHECK(changes.added.size() == 4);
  }

  SECTION("valid input: dropped tests are penalized like regressions (count mode)") {
    // The candidate deletes two passing tests and adds two trivially passing
    // ones: the seed's count regression max(0, 10 - 10) = 0 would not notice.
    const Run baseline = make_run("baseline", passing_tests(10));
    std::vector<TestCase> tests;
    add_tests(tests, "t", 8);
    add_tests(tests, "trivial", 2);
    const Run candidate = make_run("a", tests);
    score::TestChanges changes;
    const auto dimension = score::score_tests(defaults, baseline, candidate, &changes);
    // pass_rate = 10/10 = 1; count regression = max(0, 10 - 10) = 0; dropped = 2
    // regression = max(0, 2) = 2; reg_penalty = 2/10*60 = 12
    // new_tests = max(0, 10 - 10) = 0; score = 100 - 12 + 0 = 88
    CHECK(dimension.score == 88);
    CHECK(dimension.evidence["count_regression"] == 0);
    CHECK(dimension.evidence["dropped"] == 2);
    CHECK(dimension.evidence["regression"] == 2);
    REQUIRE(changes.dropped.size() == 2);
    CHECK(changes.dropped[0].id() == "ctest::t8");
    CHECK(changes.added.size() == 2);
  }

  SECTION("valid input: identity mode counts baseline-passing tests that do not pass") {
    // Baseline: t0..t7 pass, t8 t9 fail. Candidate: t0..t5 pass, t6 fails,
    // t7 is newly skipped, t8 t9 now pass.
    std::vector<TestCase> baseline_tests;
    add_tests(baseline_tests, "t", 8);
    baseline_tests.push_back(make_test("t8", TestStatus::failed));
    baseline_tests.push_back(make_test("t9", TestStatus::failed));
    std::vector<TestCase> candidate_tests;
    add_tests(candidate_tests, "t", 6);
    candidate_tests.push_back(make_test("t6", TestStatus::failed));
    candidate_tests.push_back(make_test("t7", TestStatus::skipped));
    candidate_tests.push_back(make_test("t8"));
    candidate_tests.push_back(make_test("t9"));
    const Run baseline = make_run("baseline", baseline_tests);
    const Run candidate = make_run("a", candidate_tests);

    config::Config identity;
    identity.tests.regression = config::Tests::Regression::identity;
    score::TestChanges changes;
    const auto by_identity = score::score_tests(identity, baseline, candidate, &changes);
    // B_pass = 8, B_total = 10; A_pass = 8 (t0..t5, t8, t9), A_total = 9 (t7 skipped did not run)
    // pass_rate = 8/9; regression = 2 (t6 failed, t7 skipped); reg_penalty = 2/8*60 = 15
    // new_tests = max(0, 9 - 10) = 0; score = 88.888... - 15 = 73.888... -> 73.89
    CHECK(score::shown(by_identity.score) == 73.89);
    CHECK(by_identity.evidence["mode"] == "identity");
    CHECK(by_identity.evidence["A_total"] == 9);
    CHECK(by_identity.evidence["A_skipped"] == 1);
    CHECK(by_identity.evidence["regression"] == 2);
    REQUIRE(changes.regressed.size() == 2);
    CHECK(changes.regressed[1].status == TestStatus::skipped);

    const auto by_count = score::score_tests(defaults, baseline, candidate);
    // count mode: regression = max(0, 8 - 8) = 0, penalty 0; score = 8/9*100 = 88.888... -> 88.89
    CHECK(score::shown(by_count.score) == 88.89);
    CHECK(by_count.evidence["regression"] == 0);
  }

  SECTION("valid input: identity mode counts dropped tests only when they passed") {
    std::vector<TestCase> baseline_tests = passing_tests(5);
    baseline_tests.push_back(make_test("flaky", TestStatus::failed));
    const Run baseline = make_run("baseline", baseline_tests);
    config::Config identity;
    identity.tests.regression = config::Tests::Regression::identity;
    auto dimension = score::score_tests(identity, baseline, make_run("a", passing_tests(5)));
    // B_pass = 5; regression = 0 regressed + 0 dropped_passing (flaky failed) = 0
    // pass_rate = 5/5 = 1; new_tests = max(0, 5 - 6) = 0; score = 100
    CHECK(dimension.score == 100);
    CHECK(dimension.evidence["dropped"] == 1);
    CHECK(dimension.evidence["dropped_passing"] == 0);
    // Dropping t4 instead: regression = 0 regressed + 1 dropped_passing = 1
    // A: t0..t3 pass, flaky fails -> pass_rate 4/5; reg_penalty = 1/5*60 = 12
    // score = 80 - 12 = 68
    std::vector<TestCase> without_t4 = passing_tests(4);
    without_t4.push_back(make_test("flaky", TestStatus::failed));
    dimension = score::score_tests(identity, baseline, make_run("a", without_t4));
    CHECK(dimension.score == 68);
    CHECK(dimension.evidence["regression"] == 1);
  }

  SECTION("valid input: a newly skipped test lowers A_pass in count mode") {
    const Run baseline = make_run("baseline", passing_tests(4));
    std::vector<TestCase> tests = passing_tests(3);
    tests.push_back(make_test("t3", TestStatus::disabled));
    const auto dimension = score::score_tests(defaults, baseline, make_run("a", tests));
    // A_pass = 3, A_total = 3; pass_rate = 1; regression = max(0, 4 - 3) = 1
    // reg_penalty = 1/4*60 = 15; score = 100 - 15 = 85
    CHECK(dimension.score == 85);
  }

  SECTION("bad input: the candidate recorded no tests while the baseline has some") {
    const Run baseline = make_run("baseline", passing_tests(10));
    Run candidate = make_run("a");
    candidate.build.passed = false;
    score::TestChanges changes;
    const auto dimension = score::score_tests(defaults, baseline, candidate, &changes);
    // pass_rate = 0 (A_total 0); regression = max(0, 10 - 0) = 10, penalty 60
    // score = clamp(0 - 60 + 0, 0, 100) = 0 (fail-closed)
    CHECK(dimension.active);
    CHECK(dimension.score == 0);
    CHECK(dimension.evidence["candidate_tests_recorded"] == false);
    CHECK(changes.dropped.size() == 10);
  }

  SECTION("bad input: neither side recorded tests") {
    const auto dimension = score::score_tests(defaults, make_run("baseline"), make_run("a"));
    CHECK_FALSE(dimension.active);
    CHECK(dimension.inactive_reason == "no tests recorded for the baseline or any candidate");
  }
}

TEST_CASE("score_lint follows the seed formula", "[score]") {
  const config::Config defaults;

  SECTION("valid input: 2 errors 5 warnings -> 1 error 8 warnings = 94") {
    const Run baseline = make_run("baseline", std::nullopt, make_findings("b", 2, 5));
    const Run candidate = make_run("a", std::nullopt, make_findings("a", 1, 8));
    const auto dimension = score::score_lint(defaults, baseline, candidate);
    // new_errors = max(0, 1 - 2) = 0; new_warnings = max(0, 8 - 5) = 3
    // resolved = max(0, (2 + 5) - (1 + 8)) = 0; score = 100 - 0*12 - 3*2 + 0 = 94
    CHECK(dimension.active);
    CHECK(dimension.score == 94);
    CHECK(dimension.evidence["new_errors"] == 0);
    CHECK(dimension.evidence["new_warnings"] == 3);
    CHECK(dimension.evidence["resolved"] == 0);
  }

  SECTION("valid input: 0/0 -> 3 errors = 64") {
    const Run baseline = make_run("baseline", std::nullopt, make_findings("b", 0, 0));
    const Run candidate = make_run("a", std::nullopt, make_findings("a", 3, 0));
    // new_errors = 3; score = 100 - 3*12 = 64
    CHECK(score::score_lint(defaults, baseline, candidate).score == 64);
  }

  SECTION("valid input: 0/0 -> 5 warnings = 90") {
    const Run baseline = make_run("baseline", std::nullopt, make_findings("b", 0, 0));
    const Run candidate = make_run("a", std::nullopt, make_findings("a", 0, 5));
    // new_warnings = 5; score = 100 - 5*2 = 90
    CHECK(score::score_lint(defaults, baseline, candidate).score == 90);
  }

  SECTION("valid input: resolved findings earn a point each, capped at 100") {
    const Run baseline = make_run("baseline", std::nullopt, make_findings("b", 1, 4));
    const Run candidate = make_run("a", std::nullopt, make_findings("b", 1, 0));
    // resolved = max(0, 5 - 1) = 4; score = clamp(100 + 4, 0, 100) = 100
    CHECK(score::score_lint(defaults, baseline, candidate).score == 100);
  }

  SECTION("valid input: fingerprint mode uses multiset difference") {
    // Baseline: x (warning), y (warning), z (error).
    // Candidate: x, y, y (the same finding twice), w (error); z was fixed.
    std::vector<hydra::model::LintFinding> baseline_findings{
        make_finding("x", Severity::warning), make_finding("y", Severity::warning),
        make_finding("z", Severity::error)};
    std::vector<hydra::model::LintFinding> candidate_findings{
        make_finding("x", Severity::warning), make_finding("y", Severity::warning),
        make_finding("y", Severity::warning), make_finding("w", Severity::error)};
    const Run baseline = make_run("baseline", std::nullopt, baseline_findings);
    const Run candidate = make_run("a", std::nullopt, candidate_findings);

    config::Config fingerprint;
    fingerprint.lint.match = config::Lint::Match::fingerprint;
    score::LintChanges changes;
    const auto by_fingerprint = score::score_lint(fingerprint, baseline, candidate, &changes);
    // introduced = {y (second), w}: new_errors 1, new_warnings 1; resolved = {z}: 1
    // score = 100 - 1*12 - 1*2 + 1*1 = 87
    CHECK(by_fingerprint.score == 87);
    CHECK(by_fingerprint.evidence["mode"] == "fingerprint");
    REQUIRE(changes.introduced.size() == 2);
    CHECK(changes.introduced[0].message() == "finding y");
    CHECK(changes.introduced[1].message() == "finding w");
    REQUIRE(changes.resolved.size() == 1);
    CHECK(changes.resolved[0].message() == "finding z");

    score::LintChanges count_changes;
    const auto by_count = score::score_lint(defaults, baseline, candidate, &count_changes);
    // count: B 1 error 2 warnings, A 1 error 3 warnings
    // new_errors = max(0, 1 - 1) = 0; new_warnings = max(0, 3 - 2) = 1; resolved = max(0, 3 - 4) = 0
    // score = 100 - 0 - 2 + 0 = 98
    CHECK(by_count.score == 98);
    CHECK(count_changes.introduced.size() == 2);  // changes are reported in both modes
  }

  SECTION("valid input: excluded paths and compiler warnings are filtered") {
    std::vector<hydra::model::LintFinding> findings{
        make_finding("vendored", Severity::error, "/home/dev/project/third_party/lib.cpp"),
        make_finding("unused", Severity::warning, "src/a.cpp", "compiler")};
    const Run baseline = make_run("baseline", std::nullopt, make_findings("b", 0, 0));
    const Run candidate = make_run("a", std::nullopt, findings);

    const auto counted = score::score_lint(defaults, baseline, candidate);
    // both count: new_errors 1, new_warnings 1; score = 100 - 12 - 2 = 86
    CHECK(counted.score == 86);

    config::Config filtered;
    filtered.lint.exclude = {"third_party/"};
    filtered.lint.compiler_warnings = false;
    const auto dimension = score::score_lint(filtered, baseline, candidate);
    // nothing counted: score = 100
    CHECK(dimension.score == 100);
    CHECK(dimension.evidence["A_excluded"] == 1);
  }

  SECTION("bad input: lint did not run makes the dimension inactive") {
    const Run with_lint = make_run("baseline", std::nullopt, make_findings("b", 0, 0));
    const Run without_lint = make_run("a");
    const auto candidate_missing = score::score_lint(defaults, with_lint, without_lint);
    CHECK_FALSE(candidate_missing.active);
    CHECK(candidate_missing.inactive_reason == "clang-tidy not found");
    const auto baseline_missing = score::score_lint(defaults, without_lint, with_lint);
    CHECK_FALSE(baseline_missing.active);
    CHECK(baseline_missing.inactive_reason == "baseline: clang-tidy not found");
  }
}

TEST_CASE("score_diff_scope rewards focused changes", "[score]") {
  config::Config config;  // soft limits: 20 files, 800 lines
  config.diff_scope.protected_paths = {"infra/", "scripts/release/"};

  SECTION("valid input: within the soft limits") {
    Run candidate = make_run("a");
    candidate.diff = hydra::model::DiffSummary{};
    candidate.diff->files.push_back(make_diff_file("src/a.cpp", 30, 10));
    const auto dimension = score::score_diff_scope(config, candidate);
    // churn 40 <= 800 -> 100; files 1 <= 20 -> 100; score = 0.5*100 + 0.5*100 = 100
    CHECK(dimension.score == 100);
    CHECK(dimension.evidence["churn"] == 40);
  }

  SECTION("valid input: beyond the soft limits") {
    Run candidate = make_run("a");
    candidate.diff = hydra::model::DiffSummary{};
    for (int index = 0; index < 30; ++index) {
      auto file = make_diff_file("src/f" + std::to_string(index) + ".cpp", 30, 10);
      file.whitespace_only_added = 2;
      file.whitespace_only_removed = 2;
      candidate.diff->files.push_back(file);
    }
    const auto dimension = score::score_diff_scope(config, candidate);
    // churn = 30 * 40 = 1200: 100 - 50*(1200 - 800)/800 = 75
    // files = 30: 100 - 50*(30 - 20)/20 = 75; score = 0.5*75 + 0.5*75 = 75
    CHECK(dimension.score == 75);
    CHECK(dimension.evidence["churn_score"] == 75.0);
    CHECK(dimension.evidence["files_score"] == 75.0);
    CHECK(dimension.evidence["whitespace_only_churn"] == 120);  // 30 * (2 + 2), still counted in churn

    candidate.diff->files.resize(1);
    candidate.diff->files[0].added = 2400;
    candidate.diff->files[0].removed = 0;
    // churn 2400: max(0, 100 - 50*(2400 - 800)/800) = max(0, 0) = 0; files 100
    // score = 0.5*0 + 0.5*100 = 50
    CHECK(score::score_diff_scope(config, candidate).score == 50);
  }

  SECTION("valid input: a protected-path edit caps diff scope at 30") {
    Run candidate = make_run("a");
    candidate.diff = hydra::model::DiffSummary{};
    candidate.diff->files.push_back(make_diff_file("src/a.cpp", 3, 1));
    candidate.diff->files.push_back(make_diff_file("infra/deploy.tf", 1, 1));
    const auto dimension = score::score_diff_scope(config, candidate);
    // uncapped = 0.5*100 + 0.5*100 = 100; infra/deploy.tf is protected -> min(100, 30) = 30
    CHECK(dimension.score == 30);
    CHECK(dimension.evidence["uncapped_score"] == 100.0);
    CHECK(dimension.evidence["capped_at_30"] == true);
    CHECK(dimension.evidence["protected_paths_touched"] == nlohmann::json::array({"infra/deploy.tf"}));
  }

  SECTION("bad input: no diff recorded") {
    const auto dimension = score::score_diff_scope(config, make_run("a"));
    CHECK_FALSE(dimension.active);
    CHECK(dimension.inactive_reason == "no diff recorded");
  }
}

TEST_CASE("score_speed is relative to the fastest successful candidate", "[score]") {
  const config::Config defaults;
  Run fastest = make_run("fast", passing_tests(1));
  fastest.metrics.duration_seconds = 30;
  Run slower = make_run("slow", passing_tests(1));
  slower.metrics.duration_seconds = 60;
  Run failed = make_run("failed", passing_tests(1));
  failed.build.passed = false;
  failed.metrics.duration_seconds = 20;

  SECTION("valid input") {
    // fastest = 30: 30/30*100 = 100; 30/60*100 = 50
    CHECK(score::score_speed(defaults, fastest, 30.0, true).score == 100);
    CHECK(score::score_speed(defaults, slower, 30.0, true).score == 50);
    // a failed, faster candidate: clamp(30/20*100, 0, 100) = 100 (include_failed default)
    const auto failed_speed = score::score_speed(defaults, failed, 30.0, false);
    CHECK(failed_speed.active);
    CHECK(failed_speed.score == 100);
    CHECK(failed_speed.evidence["successful"] == false);

    // rank() finds the fastest successful candidate itself: 30, not the failed 20.
    const auto ranking =
        score::rank(defaults, make_run("baseline", passing_tests(1)), {slower, failed, fastest});
    for (const auto& candidate : ranking.candidates) {
      CAPTURE(candidate.agent);
      const double expected = candidate.agent == "slow" ? 50 : 100;  // 30/60*100 and 100
      CHECK(candidate.dimensions[4].score == expected);
    }
  }

  SECTION("bad input: unknown duration or failed candidate excluded by policy") {
    Run unknown = make_run("unknown", passing_tests(1));
    CHECK_FALSE(score::score_speed(defaults, unknown, 30.0, true).active);
    CHECK_FALSE(score::score_speed(defaults, fastest, std::nullopt, true).active);
    config::Config strict;
    strict.speed.include_failed = false;
    const auto dimension = score::score_speed(strict, failed, 30.0, false);
    CHECK_FALSE(dimension.active);
    CHECK(score::score_speed(strict, slower, 30.0, true).score == 50);
  }
}

TEST_CASE("composite renormalizes over the active dimensions", "[score]") {
  SECTION("valid input: a missing dimension is renormalized out") {
    std::vector<score::Dimension> dimensions(5);
    const char* names[] = {"build", "tests", "lint", "diff_scope", "speed"};
    const double weights[] = {30, 30, 15, 15, 10};
    const double scores[] = {100, 68, 0, 100, 0};
    for (int index = 0; index < 5; ++index) {
      dimensions[index].name = names[index];
      dimensions[index].weight = weights[index];
      dimensions[index].score = scores[index];
      dimensions[index].active = true;
    }
    dimensions[2].active = false;  // lint missing
    dimensions[4].active = false;  // speed missing
    // (100*30 + 68*30 + 100*15) / (30 + 30 + 15) = 6540 / 75 = 87.2
    CHECK(score::composite(dimensions) == 87.2);  // exactly 6540/75

    dimensions[2].active = true;
    dimensions[4].active = true;
    // all active: (3000 + 2040 + 0 + 1500 + 0) / 100 = 65.4
    CHECK(score::composite(dimensions) == 65.4);
  }

  SECTION("bad input: no active dimension gives 0") {
    std::vector<score::Dimension> dimensions(2);
    dimensions[0].weight = 30;
    dimensions[1].weight = 10;
    CHECK(score::composite(dimensions) == 0);
    CHECK(score::composite({}) == 0);
  }
}

TEST_CASE("the optional judge dimension grades from the recorded judge answer", "[score]") {
  config::Config weighted;
  weighted.weights.judge = 10;
  auto candidate = make_run("a", passing_tests(10));
  SECTION("valid input: a grade of 0.85 scores 85") {
    candidate.judge_score0to1 = 0.85;
    candidate.judge_detail = "focused fix";
    const auto judge = hydra::score::score_judge(weighted, candidate);
    CHECK(judge.active);
    CHECK(judge.score == 85);  // 0.85 * 100
    CHECK(judge.evidence["rationale"] == "focused fix");
  }
  SECTION("bad input: no grade drops the dimension, never the run") {
    candidate.judge_detail = "judge gave no grade: timed out after 120 s";
    const auto judge = hydra::score::score_judge(weighted, candidate);
    CHECK_FALSE(judge.active);
    CHECK(judge.inactive_reason == "judge gave no grade: timed out after 120 s");
  }
  SECTION("weight 0 (the default): no judge column at all") {
    const auto scored = hydra::score::rank(config::Config{}, make_run("baseline", passing_tests(10)), {candidate});
    for (const auto& dimension : scored.candidates.front().dimensions) CHECK(dimension.name != "judge");
  }
}
