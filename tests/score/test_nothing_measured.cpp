// Dimensions that measured nothing (docs/formulas.md, "Nothing measured"):
// never a silent 100, always said in the score contract.
#include <catch2/catch.hpp>

#include <hydra/score/contract.hpp>
#include <hydra/score/measured.hpp>
#include <hydra/score/score.hpp>

#include "score/ranking_lookup.hpp"
#include "score/run_builders.hpp"

using hydra::model::Run;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;
namespace score = hydra::score;
namespace config = hydra::config;

namespace {

/// A run whose clang-tidy step linted `units` translation units and found `findings`.
Run linted(const std::string& agent, std::uint64_t units, std::vector<hydra::model::LintFinding> findings = {}) {
  Run run = make_run(agent, passing_tests(4), std::move(findings));
  run.lint_units = units;
  return run;
}

std::vector<std::string> contract_lines(const config::Config& config, const Run& baseline, const score::Ranking& ranking) {
  const auto contract = score::to_contract(config, baseline, ranking);
  if (!contract.contains("nothing_measured")) return {};
  return contract["nothing_measured"].get<std::vector<std::string>>();
}

}  // namespace

TEST_CASE("no test ran: why, for a run", "[score][measured]") {
  CHECK(score::no_test_ran(make_run("a")) == "no test results recorded");
  CHECK(score::no_test_ran(make_run("a", std::vector<TestCase>{})) == "0 tests recorded");
  std::vector<TestCase> skipped;
  add_tests(skipped, "s", 3, TestStatus::skipped);
  skipped.push_back(make_test("d", TestStatus::disabled));
  CHECK(score::no_test_ran(make_run("a", skipped)) == "all 4 recorded tests skipped or disabled");
  skipped.push_back(make_test("f", TestStatus::failed));  // a failing test ran
  CHECK(score::no_test_ran(make_run("a", skipped)).empty());
}

TEST_CASE("a ranking in which no test ran leaves the tests dimension out, loudly", "[score][measured]") {
  const config::Config defaults;
  std::vector<TestCase> skipped;
  add_tests(skipped, "s", 3, TestStatus::skipped);
  const Run baseline = make_run("baseline", skipped);
  const auto ranking = score::rank(defaults, baseline, {make_run("a", skipped), make_run("b", std::vector<TestCase>{})});
  for (const auto& candidate : ranking.candidates) {
    const auto& tests = dimension_named(candidate, "tests");
    CHECK_FALSE(tests.active);  // was active and 0 for both
    CHECK(tests.nothing_measured);
    CHECK(tests.inactive_reason ==
          "nothing measured: no test ran in the baseline (all 3 recorded tests skipped or disabled) or any candidate");
    CHECK(candidate.total == 100);  // build alone: the tests are not scored at all
  }
  const auto contract = score::to_contract(defaults, baseline, ranking);
  CHECK(contract["rankings"][0]["dimensions"]["tests"]["nothing_measured"] == true);
  CHECK(contract["rankings"][0]["breakdown"]["tests"].is_null());
  CHECK(contract_lines(defaults, baseline, ranking) ==
        std::vector<std::string>{"tests: nothing measured: no test ran in the baseline (all 3 recorded tests "
                                 "skipped or disabled) or any candidate (inactive: left out of every total)"});

  SECTION("nothing recorded anywhere is the same") {
    const auto bare = score::rank(defaults, make_run("baseline"), {make_run("a")});
    CHECK(dimension_named(bare.candidates[0], "tests").nothing_measured);
    CHECK(dimension_named(bare.candidates[0], "tests").inactive_reason ==
          "nothing measured: no test ran in the baseline (no test results recorded) or any candidate");
  }
}

TEST_CASE("a baseline in which no test ran is said even when a candidate ran tests", "[score][measured]") {
  const config::Config defaults;
  const Run baseline = make_run("baseline", std::vector<TestCase>{});  // an empty suite
  Run adds = make_run("adds", passing_tests(2));
  Run none = make_run("none", std::vector<TestCase>{});  // built, ran nothing
  Run broken = make_run("broken");
  broken.build.passed = false;  // a failed build explains itself
  const auto ranking = score::rank(defaults, baseline, {adds, none, broken});
  CHECK(dimension_named(candidate_named(ranking, "adds"), "tests").active);
  CHECK_FALSE(dimension_named(candidate_named(ranking, "adds"), "tests").nothing_measured);
  const auto& none_tests = dimension_named(candidate_named(ranking, "none"), "tests");
  CHECK(none_tests.active);
  CHECK(none_tests.score == 0);
  CHECK(none_tests.nothing_measured);
  CHECK(none_tests.inactive_reason == "nothing measured: no test of the candidate ran (0 tests recorded)");
  CHECK_FALSE(dimension_named(candidate_named(ranking, "broken"), "tests").nothing_measured);
  CHECK(contract_lines(defaults, baseline, ranking) ==
        std::vector<std::string>{"baseline: no test ran (0 tests recorded)",
                                 "none: tests scored 0: nothing measured: no test of the candidate ran (0 tests recorded)"});
}

TEST_CASE("lint that linted no translation unit never scores 100", "[score][measured]") {
  const config::Config defaults;

  SECTION("the baseline linted nothing: inactive for every candidate") {
    const Run baseline = linted("baseline", 0);
    const auto ranking = score::rank(defaults, baseline, {linted("a", 0), linted("b", 12)});
    for (const auto& candidate : ranking.candidates) {
      const auto& lint = dimension_named(candidate, "lint");
      CHECK_FALSE(lint.active);
      CHECK(lint.nothing_measured);
      CHECK(lint.inactive_reason == "nothing measured: baseline: the lint step linted no translation unit");
    }
    CHECK(contract_lines(defaults, baseline, ranking) ==
          std::vector<std::string>{
              "lint: nothing measured: baseline: the lint step linted no translation unit (inactive: left out of "
              "every total)"});
    CHECK(score::to_contract(defaults, baseline, ranking)["baseline"]["summary"]["lint"]["units"] == 0);
  }

  SECTION("a candidate that linted nothing scores 0, not 100") {
    // The baseline linted 12 units and found 2 warnings; the candidate linted
    // none and found none: "2 resolved" would have scored 100.
    const Run baseline = linted("baseline", 12, make_findings("b", 0, 2));
    const auto ranking = score::rank(defaults, baseline, {linted("empty", 0), linted("real", 12, make_findings("b", 0, 2))});
    const auto& empty = dimension_named(candidate_named(ranking, "empty"), "lint");
    CHECK(empty.active);
    CHECK(empty.score == 0);
    CHECK(empty.nothing_measured);
    CHECK(empty.evidence["unmeasured"] == "nothing measured: the lint step linted no translation unit");
    CHECK(dimension_named(candidate_named(ranking, "real"), "lint").score == 100);
    CHECK(contract_lines(defaults, baseline, ranking) ==
          std::vector<std::string>{"empty: lint scored 0: nothing measured: the lint step linted no translation unit"});
  }

  SECTION("an unknown number of units claims nothing") {
    const Run baseline = make_run("baseline", passing_tests(4), make_findings("b", 0, 0));
    const auto candidate = score_one(defaults, baseline, make_run("a", passing_tests(4), make_findings("b", 0, 0)));
    CHECK_FALSE(dimension_named(candidate, "lint").nothing_measured);
    CHECK(dimension_named(candidate, "lint").score == 100);
  }
}

TEST_CASE("no test ran: one skipped test reads as one", "[score][measured]") {
  CHECK(score::no_test_ran(make_run("a", std::vector<TestCase>{make_test("s", TestStatus::skipped)})) ==
        "its only recorded test skipped or disabled");
}
