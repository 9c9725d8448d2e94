// Gates (docs/formulas.md) and the ranking order.
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

TEST_CASE("gates are evaluated in a fixed order and decide mergeable", "[score]") {
  const config::Config defaults;
  const Run baseline = make_run("baseline", passing_tests(10));

  SECTION("valid input: a clean candidate passes every gate") {
    const auto candidate = score_one(defaults, baseline, make_run("a", passing_tests(10)));
    std::vector<std::string> names;
    for (const auto& gate : candidate.gates) names.push_back(gate.name);
    CHECK(names == std::vector<std::string>{"integrity", "active_dimensions", "require_build_pass",
                                            "max_test_regression_percent", "min_test_count_ratio",
                                            "security", "anti_gaming"});
    CHECK(candidate.failed_gates().empty());
    CHECK(candidate.mergeable);
    CHECK(gate_named(candidate, "security").detail == "not configured");
  }

  SECTION("bad input: integrity problems in the candidate or the baseline") {
    Run corrupt = make_run("a", passing_tests(10));
    corrupt.integrity_problems = {"junit.xml: digest mismatch"};
    auto candidate = score_one(defaults, baseline, corrupt);
    CHECK_FALSE(gate_named(candidate, "integrity").passed);
    CHECK(gate_named(candidate, "integrity").detail == "junit.xml: digest mismatch");
    CHECK_FALSE(candidate.mergeable);

    Run corrupt_baseline = baseline;
    corrupt_baseline.integrity_problems = {"manifest.json unreadable"};
    candidate = score_one(defaults, corrupt_baseline, make_run("a", passing_tests(10)));
    CHECK_FALSE(candidate.mergeable);
  }

  SECTION("bad input: no active dimension") {
    Run empty = make_run("a");
    empty.build.known = false;
    Run no_build = make_run("baseline");  // no run of the ranking has a build result
    no_build.build.known = false;
    const auto candidate = score_one(defaults, no_build, empty);
    CHECK(candidate.total == 0);
    CHECK_FALSE(gate_named(candidate, "active_dimensions").passed);
    CHECK(gate_named(candidate, "active_dimensions").detail == "0 of 5 dimensions active");
    // Unknown build fails require_build_pass closed.
    CHECK_FALSE(gate_named(candidate, "require_build_pass").passed);
    CHECK_FALSE(candidate.mergeable);
  }

  SECTION("bad input: a failed build fails require_build_pass unless disabled") {
    Run broken = make_run("a", passing_tests(10));
    broken.build.passed = false;
    broken.build.exit_code = 1;
    broken.build.reason = "exit code 1";
    auto candidate = score_one(defaults, baseline, broken);
    CHECK_FALSE(gate_named(candidate, "require_build_pass").passed);
    CHECK(gate_named(candidate, "require_build_pass").detail == "build failed: exit code 1");

    config::Config lenient;
    lenient.gates.require_build_pass = false;
    candidate = score_one(lenient, baseline, broken);
    CHECK(gate_named(candidate, "require_build_pass").passed);
    CHECK(candidate.mergeable);
  }

  SECTION("bad input: test regression beyond the allowed percent") {
    std::vector<TestCase> tests;
    add_tests(tests, "t", 8);
    add_tests(tests, "t8_", 2, TestStatus::failed);
    // The two failing tests have other names, so t8 and t9 are dropped:
    // regression = max(count max(0, 10 - 8) = 2, dropped 2) = 2 -> 2/10*100 = 20%
    const Run regressed = make_run("a", tests);
    auto candidate = score_one(defaults, baseline, regressed);
    const auto& gate = gate_named(candidate, "max_test_regression_percent");
    CHECK_FALSE(gate.passed);
    CHECK(gate.detail == "2 regressions (regressed or dropped tests) against 10 baseline-passing tests (20% > 0%)");

    config::Config tolerant;
    tolerant.gates.max_test_regression_percent = 20;  // 20% > 20% is false
    candidate = score_one(tolerant, baseline, regressed);
    CHECK(gate_named(candidate, "max_test_regression_percent").passed);
  }

  SECTION("valid input: a baseline with no passing tests regresses 0%") {
    std::vector<TestCase> failing;
    add_tests(failing, "t", 3, TestStatus::failed);
    const auto candidate = score_one(defaults, make_run("baseline", failing), make_run("a", failing));
    CHECK(gate_named(candidate, "max_test_regression_percent").passed);
  }

  SECTION("bad input: the candidate's test count falls below the ratio") {
    config::Config tolerant;
    tolerant.gates.max_test_regression_percent = 100;
    // A_total 7 < 0.8 * 10 = 8 -> fails
    auto candidate = score_one(tolerant, baseline, make_run("a", passing_tests(7)));
    const auto& gate = gate_named(candidate, "min_test_count_ratio");
    CHECK_FALSE(gate.passed);
    CHECK(gate.detail == "candidate ran 7 tests, baseline 10 (ratio 0.7 < 0.8)");
    // A_total 8 >= 0.8 * 10 = 8 -> passes
    candidate = score_one(tolerant, baseline, make_run("a", passing_tests(8)));
    CHECK(gate_named(candidate, "min_test_count_ratio").passed);
    CHECK(candidate.mergeable);
  }

  SECTION("bad input: the security check failed, or is configured and did not run") {
    Run insecure = make_run("a", passing_tests(10));
    insecure.security.ran = true;
    insecure.security.passed = false;
    insecure.security.detail = "audit.sh exited with 1";
    auto candidate = score_one(defaults, baseline, insecure);
    CHECK_FALSE(gate_named(candidate, "security").passed);
    CHECK(gate_named(candidate, "security").detail == "failed: audit.sh exited with 1");

    config::Config with_security;
    with_security.gates.security_command = "./audit.sh";
    candidate = score_one(with_security, baseline, make_run("a", passing_tests(10)));
    CHECK_FALSE(gate_named(candidate, "security").passed);
  }
}

TEST_CASE("rank orders by total, then mergeable, then agent name", "[score]") {
  const config::Config defaults;
  const Run baseline = make_run("baseline", passing_tests(10));

  SECTION("valid input: totals decide first") {
    std::vector<TestCase> worse = passing_tests(9);
    worse.push_back(make_test("t9", TestStatus::failed));
    const auto ranking =
        score::rank(defaults, baseline, {make_run("b", worse), make_run("c", passing_tests(10))});
    REQUIRE(ranking.candidates.size() == 2);
    // c: build 100, tests 100 -> 100. b: tests 90 - 1/10*60 = 84;
    // (100*30 + 84*30) / 60 = 92
    CHECK(ranking.candidates[0].agent == "c");
    CHECK(ranking.candidates[0].total == 100);
    CHECK(ranking.candidates[1].agent == "b");
    CHECK(ranking.candidates[1].total == 92);
    CHECK(ranking.candidates[1].input_index == 0);
  }

  SECTION("valid input: ties put mergeable first, then agent name") {
    Run insecure = make_run("alpha", passing_tests(10));
    insecure.security.ran = true;
    insecure.security.passed = false;
    const Run zulu = make_run("zulu", passing_tests(10));
    const Run mike = make_run("mike", passing_tests(10));
    const auto ranking = score::rank(defaults, baseline, {zulu, insecure, mike});
    // all three total (100*30 + 100*30) / 60 = 100
    std::vector<std::string> order;
    for (const auto& candidate : ranking.candidates) order.push_back(candidate.agent);
    CHECK(order == std::vector<std::string>{"mike", "zulu", "alpha"});
    CHECK_FALSE(ranking.candidates[2].mergeable);
  }

  SECTION("valid input: totals tie when they are exactly equal, however they were reached") {
    // The baseline has no tests and no lint: build 30, tests 30 and speed 10
    // are active (no diffs). "ref" is mergeable and the fastest: 30 s.
    Run ref = make_run("ref", passing_tests(1));
    ref.metrics.duration_seconds = 30;
    // a-fast: 1/1 tests -> 100 + 0.5 bonus, clamped 100; speed 30/120 = 25;
    //   not mergeable (integrity). Total (3000 + 3000 + 250) / 70 = 6250/70.
    Run fast = make_run("a-fast", passing_tests(1));
    fast.metrics.duration_seconds = 120;
    fast.integrity_problems = {"junit/0.xml: digest mismatch"};
    // b-broad: 15/18 tests -> 83.33... + min(10, 18*0.5) = 277/3; speed 30/62.5 = 48.
    //   Total (3000 + 30*277/3 + 480) / 70 = (3000 + 2770 + 480) / 70 = 6250/70.
    std::vector<TestCase> broad_tests = passing_tests(15);
    add_tests(broad_tests, "f", 3, TestStatus::failed);
    Run broad = make_run("b-broad", broad_tests);
    broad.metrics.duration_seconds = 62.5;
    const auto ranking = score::rank(defaults, make_run("baseline"), {fast, broad, ref});
    REQUIRE(ranking.candidates.size() == 3);
    CHECK(ranking.candidates[0].agent == "ref");
    CHECK(ranking.candidates[1].total == ranking.candidates[2].total);
    CHECK(ranking.candidates[1].total == hydra::util::Exact::ratio(6250, 70));
    // A tie: mergeable first. (Summed from scores rounded to 2 decimals,
    // b-broad's tests 92.33 gave 6249.9/70 = 89.28 < 89.29, and the
    // unmergeable a-fast ranked above it.)
    CHECK(ranking.candidates[1].agent == "b-broad");
    CHECK(ranking.candidates[2].agent == "a-fast");
    CHECK(score::shown(ranking.candidates[1].total) == 89.29);
    CHECK(score::shown(ranking.candidates[2].total) == 89.29);

    // Both mergeable: the tie goes to the agent name.
    fast.integrity_problems.clear();
    const auto by_name = score::rank(defaults, make_run("baseline"), {broad, fast, ref});
    CHECK(by_name.candidates[1].agent == "a-fast");
    CHECK(by_name.candidates[2].agent == "b-broad");
  }

  SECTION("bad input: no candidates") {
    CHECK(score::rank(defaults, baseline, {}).candidates.empty());
  }
}

TEST_CASE("a weight of zero disables a dimension", "[score]") {
  SECTION("valid input") {
    config::Config no_build;
    no_build.weights.build = 0;
    const auto dimension = score::score_build(no_build, make_run("a"));
    CHECK_FALSE(dimension.active);
    CHECK(dimension.inactive_reason == "disabled (weight 0 in scoring.weights.build)");
  }
  SECTION("bad input: a judge weight without judge results stays inactive") {
    config::Config with_judge;
    with_judge.weights.judge = 10;
    const Run baseline = make_run("baseline", passing_tests(1));
    const auto candidate = score_one(with_judge, baseline, make_run("a", passing_tests(1)));
    REQUIRE(candidate.dimensions.size() == 6);
    CHECK(candidate.dimensions[5].name == "judge");
    CHECK_FALSE(candidate.dimensions[5].active);
    // build 100 and tests 100 active: (3000 + 3000) / 60 = 100
    CHECK(candidate.total == 100);
  }
}

TEST_CASE("anti-gaming findings cost points and fail the anti_gaming gate", "[score]") {
  const config::Config defaults;
  const auto baseline = make_run("baseline", passing_tests(10), std::vector<hydra::model::LintFinding>{});
  auto candidate_run = make_run("a", passing_tests(10), std::vector<hydra::model::LintFinding>{});
  candidate_run.tampering.analyzed = true;
  candidate_run.tampering.suppressions_added = 2;
  candidate_run.tampering.assertions_removed = 3;
  candidate_run.tampering.tampered_tests = 1;
  candidate_run.tampering.gate_reasons = {"test t1: disabled (DISABLED false -> true)"};
  const auto candidate = score_one(defaults, baseline, candidate_run);
  const auto dimension = [&](const std::string& name) {
    for (const auto& d : candidate.dimensions)
      if (d.name == name) return d;
    FAIL("no dimension " << name);
    return hydra::score::Dimension{};
  };
  // tests: pass_rate 10/10 = 100; the tampered test counts as a regression:
  // max(count regression 0, dropped 0 + tampered 1) = 1 -> 1/10*60 = 6;
  // 3 assertions removed * 2 = 6 -> 100 - 6 - 6 = 88.
  CHECK(dimension("tests").score == 88);
  // lint: 100 - 2 suppressions * 2 = 96.
  CHECK(dimension("lint").score == 96);
  CHECK_FALSE(candidate.mergeable);
  const auto failed = candidate.failed_gates();
  CHECK(std::any_of(failed.begin(), failed.end(), [](const auto& gate) { return gate.name == "anti_gaming"; }));
}

TEST_CASE("a baseline step that could not finish is unmeasurable for every candidate, never their gate failure",
          "[score]") {
  const config::Config config;
  std::vector<TestCase> tests;
  add_tests(tests, "t", 4);
  Run baseline = make_run("baseline", tests, std::vector<hydra::model::LintFinding>{});
  const Run candidate = make_run("a", tests, std::vector<hydra::model::LintFinding>{});
  SECTION("valid input: the baseline's lint ran out of its budget") {
    const std::string reason = "lint timed out after 300 s";
    baseline.lint.reset();
    baseline.lint_inactive_reason = reason;
    baseline.integrity_problems = {reason};
    baseline.incomplete_steps = {{"lint", reason}};
    const auto scored = score_one(config, baseline, candidate);
    CHECK(gate_named(scored, "integrity").passed);
    CHECK(scored.mergeable);
    CHECK_FALSE(dimension_named(scored, "lint").active);
    CHECK(dimension_named(scored, "lint").inactive_reason == "baseline: " + reason);
    // Build and tests as without the problem: 100 each.
    CHECK(dimension_named(scored, "tests").active);
  }
  SECTION("valid input: the baseline's test step and build ran out of their budgets") {
    baseline.integrity_problems = {"test step timed out after 600 s; process group killed"};
    baseline.incomplete_steps = {{"test", baseline.integrity_problems.front()}};
    auto scored = score_one(config, baseline, candidate);
    CHECK(scored.mergeable);
    CHECK_FALSE(dimension_named(scored, "tests").active);
    CHECK(dimension_named(scored, "tests").inactive_reason.find("unmeasurable for every candidate") != std::string::npos);
    CHECK(dimension_named(scored, "build").active);
    baseline.integrity_problems = {"build timed out after 300 s"};
    baseline.incomplete_steps = {{"build", baseline.integrity_problems.front()}};
    scored = score_one(config, baseline, candidate);
    CHECK(scored.mergeable);
    CHECK_FALSE(dimension_named(scored, "build").active);
    CHECK_FALSE(dimension_named(scored, "tests").active);
  }
  SECTION("bad input: any other problem of the baseline still fails the integrity gate") {
    baseline.integrity_problems = {"junit/0.xml: digest mismatch"};
    baseline.incomplete_steps = {{"lint", "lint timed out after 300 s"}};
    const auto scored = score_one(config, baseline, candidate);
    CHECK_FALSE(gate_named(scored, "integrity").passed);
    CHECK_FALSE(scored.mergeable);
  }
  SECTION("bad input: a candidate's own step that ran out of time stays its problem") {
    Run late = candidate;
    late.integrity_problems = {"lint timed out after 300 s"};
    late.incomplete_steps = {{"lint", "lint timed out after 300 s"}};
    CHECK_FALSE(score_one(config, baseline, late).mergeable);
  }
}
