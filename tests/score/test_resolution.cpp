// Resolution (docs/formulas.md, "Resolution"): the private tests the
// baseline fails are the task's acceptance tests.
#include <catch2/catch.hpp>

#include <hydra/score/contract.hpp>
#include <hydra/score/score.hpp>

#include "score/ranking_lookup.hpp"
#include "score/run_builders.hpp"

using hydra::model::Run;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;
namespace score = hydra::score;

namespace {

/// The baseline as judged with a private test patch: 8 passing tests, the
/// visible failing test and the private one failing; a third failing test
/// the patch does not touch.
Run baseline_with_private_tests() {
  std::vector<TestCase> tests;
  add_tests(tests, "pass", 8);
  tests.push_back(make_test("count.visible", TestStatus::failed));
  tests.push_back(make_test("count.private", TestStatus::failed));
  tests.push_back(make_test("other.broken", TestStatus::failed));
  Run baseline = make_run("baseline", tests);
  baseline.held_out.private_tests = {"count.private", "count.visible", "pass0"};
  return baseline;
}

/// A candidate passing everything but `failing`.
Run candidate(const std::string& agent, const std::vector<std::string>& failing) {
  std::vector<TestCase> tests;
  add_tests(tests, "pass", 8);
  for (const char* name : {"count.visible", "count.private", "other.broken"}) {
    const bool fails = std::find(failing.begin(), failing.end(), name) != failing.end();
    tests.push_back(make_test(name, fails ? TestStatus::failed : TestStatus::passed));
  }
  return make_run(agent, tests);
}

}  // namespace

TEST_CASE("acceptance tests are the private tests the baseline fails", "[score][resolution]") {
  const Run baseline = baseline_with_private_tests();
  SECTION("valid input: a candidate passing them resolves the task") {
    const auto resolution = score::resolve(baseline, candidate("fix", {"other.broken"}));
    CHECK(resolution.applies);
    // pass0 passes on the baseline; other.broken is not private.
    CHECK(resolution.acceptance_tests == std::vector<std::string>{"count.private", "count.visible"});
    CHECK(resolution.still_failing.empty());
    CHECK(resolution.resolved());
  }
  SECTION("valid input: one left failing, or not run, is unresolved") {
    CHECK(score::resolve(baseline, candidate("special-case", {"count.private"})).still_failing ==
          std::vector<std::string>{"count.private"});
    Run without = candidate("dropped", {});
    without.tests->erase(without.tests->end() - 2);  // count.private not run
    CHECK_FALSE(score::resolve(baseline, without).resolved());
  }
  SECTION("valid input: one passing only because its definition or build changed is unresolved") {
    Run tampered = candidate("pass-regex", {});
    tampered.tampering.tampered_test_names = {"count.private"};
    CHECK(score::resolve(baseline, tampered).still_failing == std::vector<std::string>{"count.private"});
    tampered.tampering.tampered_test_names = {"pass3"};  // not an acceptance test
    CHECK(score::resolve(baseline, tampered).resolved());
  }
  SECTION("valid input: no private tests, or none failing: nothing applies") {
    Run plain = baseline;
    plain.held_out.private_tests.clear();
    CHECK_FALSE(score::resolve(plain, candidate("a", {})).applies);
    Run passing = baseline;
    passing.held_out.private_tests = {"pass1"};
    CHECK_FALSE(score::resolve(passing, candidate("a", {})).applies);
  }
}

TEST_CASE("the resolved gate and the ranking put resolved candidates first", "[score][resolution]") {
  const Run baseline = baseline_with_private_tests();
  hydra::config::Config config;
  // The special-caser has a better composite (its lint is cleaner), yet ranks second.
  Run special = candidate("special-case", {"count.private"});
  Run fix = candidate("fix", {});
  fix.lint = make_findings("fix", 0, 20);
  special.lint = std::vector<hydra::model::LintFinding>{};
  Run base_lint = baseline;
  base_lint.lint = std::vector<hydra::model::LintFinding>{};
  const auto ranking = score::rank(config, base_lint, {special, fix});
  SECTION("valid input: unresolved fails the gate, named with the tests") {
    const auto& unresolved = candidate_named(ranking, "special-case");
    CHECK_FALSE(gate_named(unresolved, "resolved").passed);
    CHECK(gate_named(unresolved, "resolved").detail ==
          "1 of 2 acceptance tests (private tests the baseline fails) pass; unresolved: count.private");
    CHECK_FALSE(unresolved.mergeable);
    CHECK(gate_named(candidate_named(ranking, "fix"), "resolved").passed);
  }
  SECTION("valid input: resolved first, whatever the composite") {
    CHECK(candidate_named(ranking, "special-case").total > candidate_named(ranking, "fix").total);
    CHECK(ranking.candidates[0].agent == "fix");
  }
  SECTION("valid input: the contract's resolution") {
    const auto contract = score::to_contract(config, base_lint, ranking);
    CHECK(contract["rankings"][0]["resolution"] ==
          nlohmann::json::parse(R"({"resolved": true, "acceptance_tests": ["count.private", "count.visible"],
                                   "still_failing": []})"));
    CHECK(contract["rankings"][1]["resolution"]["still_failing"] == nlohmann::json::array({"count.private"}));
  }
  SECTION("valid input: require_resolved = false reports but does not gate") {
    config.gates.require_resolved = false;
    const auto lenient = score::rank(config, base_lint, {special});
    CHECK(gate_named(lenient.candidates[0], "resolved").passed);
    CHECK(gate_named(lenient.candidates[0], "resolved").detail.find("not required") != std::string::npos);
  }
  SECTION("valid input: without acceptance tests, no resolved gate and no resolution") {
    Run plain = base_lint;
    plain.held_out.private_tests.clear();
    const auto plain_ranking = score::rank(config, plain, {special});
    for (const auto& gate : plain_ranking.candidates[0].gates) CHECK(gate.name != "resolved");
    CHECK_FALSE(score::to_contract(config, plain, plain_ranking)["rankings"][0].contains("resolution"));
  }
}

TEST_CASE("resolution at the level tests are scored at, and a verdict or a note whenever a patch is configured",
          "[score][resolution]") {
  Run baseline = make_run("baseline", {});
  TestCase divides;
  divides.program = "calc_test";
  divides.suite = "Calc";
  divides.name = "Divides";
  divides.status = TestStatus::failed;
  baseline.tests = std::vector<TestCase>{make_test("pass0"), divides, make_test("mock_test", TestStatus::failed)};
  baseline.held_out.private_test_patch_configured = true;
  baseline.held_out.private_test_patch = true;
  baseline.held_out.private_tests = {"calc_test/Calc/Divides", "mock_test"};
  SECTION("valid input: a case and a program, each passing or not") {
    Run fixed = make_run("fix", {});
    TestCase passing = divides;
    passing.status = TestStatus::passed;
    fixed.tests = std::vector<TestCase>{make_test("pass0"), passing, make_test("mock_test")};
    const auto resolution = score::resolve(baseline, fixed);
    CHECK(resolution.acceptance_tests == std::vector<std::string>{"calc_test/Calc/Divides", "mock_test"});
    CHECK(resolution.resolved());
    // A case whose program's definition the candidate changed passed on its terms.
    fixed.tampering.tampered_test_names = {"calc_test"};
    CHECK(score::resolve(baseline, fixed).still_failing == std::vector<std::string>{"calc_test/Calc/Divides"});
  }
  SECTION("bad input: a configured patch that decides nothing says why") {
    Run passing_baseline = baseline;
    passing_baseline.tests = std::vector<TestCase>{make_test("pass0"), make_test("mock_test")};
    passing_baseline.held_out.private_tests = {"mock_test"};
    const auto none = score::resolve(passing_baseline, make_run("a", {}));
    CHECK(none.configured);
    CHECK_FALSE(none.applies);
    CHECK(none.note.find("yields no acceptance test") != std::string::npos);
    Run not_applied = make_run("baseline", {});
    not_applied.held_out.private_test_patch_configured = true;
    not_applied.held_out.private_test_patch_problem = "does not exist";
    CHECK(score::resolve(not_applied, make_run("a", {})).note ==
          "the private test patch was not applied to the baseline: does not exist");
    Run timed_out = baseline;
    timed_out.incomplete_steps = {{"held-out build", "held-out run: build timed out after 300 s"}};
    CHECK(score::resolve(timed_out, make_run("a", {})).note.find("could not finish") != std::string::npos);
    // The contract gives every candidate the note, with no verdict.
    const std::vector<Run> candidates = {make_run("a", std::vector<TestCase>{make_test("pass0")})};
    const auto ranking = score::rank({}, not_applied, candidates);
    const auto contract = score::to_contract({}, not_applied, ranking);
    const auto& resolution = contract.at("rankings").at(0).at("resolution");
    CHECK(resolution.at("resolved").is_null());
    CHECK(resolution.at("note") == "the private test patch was not applied to the baseline: does not exist");
  }
}
