// The tests dimension with test cases and new tests: the dilution guard and
// the program counts beside the case counts (docs/formulas.md, "Test cases",
// "Dilution guard"). Every expected number shows its arithmetic.
#include <catch2/catch.hpp>

#include <hydra/score/score.hpp>
#include <hydra/score/test_comparison.hpp>

#include "score/run_builders.hpp"

using hydra::model::Run;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;
namespace score = hydra::score;
namespace config = hydra::config;

namespace {

/// A baseline of `passing` passing and `failing` failing tests.
std::vector<TestCase> suite(int passing, int failing) {
  std::vector<TestCase> tests;
  add_tests(tests, "p", passing);
  add_tests(tests, "f", failing, TestStatus::failed);
  return tests;
}

/// A case of `program` (a framework program's report).
TestCase make_case(const std::string& program, const std::string& name, TestStatus status = TestStatus::passed) {
  TestCase test;
  test.program = program;
  test.suite = "Suite";
  test.name = name;
  test.status = status;
  return test;
}

}  // namespace

TEST_CASE("dilution guard: new tests move the score by at most the bonus's cap", "[score][cases]") {
  const config::Config defaults;
  const Run baseline = make_run("baseline", suite(80, 20));
  SECTION("hundreds of trivial new tests over a baseline with failures") {
    auto tests = suite(80, 20);
    add_tests(tests, "trivial", 400);
    const auto dimension = score::score_tests(defaults, baseline, make_run("a", tests));
    // pass_rate = 480/500 = 0.96; new_test_bonus = min(10, 400*0.5) = 10;
    // seed: clamp(96 - 0 + 10) = 100. kept pass rate = 80/100 = 0.8, gain =
    // (0.96 - 0.8)*100 = 16; cut = 16 + 10 - 10 = 16: 96 + 10 - 16 = 90 = 80 + 10.
    CHECK(dimension.score == 90);
    CHECK(dimension.evidence["kept_pass_rate"] == 0.8);
    CHECK(dimension.evidence["new_tests_gain"] == 16.0);
    CHECK(dimension.evidence["dilution_cut"] == 16.0);
  }
  SECTION("a few new tests stay within the cap: the seed formula as it is") {
    auto tests = suite(80, 20);
    add_tests(tests, "new", 2);
    const auto dimension = score::score_tests(defaults, baseline, make_run("a", tests));
    // pass_rate = 82/102; bonus = 2*0.5 = 1; gain = (82/102 - 0.8)*100 = 40/102 (0.39);
    // 0.39 + 1 < 10: no cut; score = 8200/102 + 1 = 81.39...
    CHECK(dimension.evidence["dilution_cut"] == 0.0);
    CHECK(dimension.score == hydra::util::Exact::ratio(8200, 102) + 1);
  }
  SECTION("new failing tests lower the pass rate and are never cut") {
    auto tests = suite(80, 20);
    add_tests(tests, "broken", 100, TestStatus::failed);
    const auto dimension = score::score_tests(defaults, baseline, make_run("a", tests));
    // pass_rate = 80/200 = 0.4 < 0.8: gain 0; score = 40 + min(10, 100*0.5) = 50.
    CHECK(dimension.score == 50);
    CHECK(dimension.evidence["new_tests_gain"] == 0.0);
  }
  SECTION("dilution_guard = false: the seed formula") {
    config::Config seed;
    seed.tests.dilution_guard = false;
    auto tests = suite(80, 20);
    add_tests(tests, "trivial", 400);
    CHECK(score::score_tests(seed, baseline, make_run("a", tests)).score == 100);  // clamp(96 + 10)
  }
  SECTION("a baseline without tests has nothing to dilute") {
    const auto dimension = score::score_tests(defaults, make_run("baseline", std::vector<TestCase>{}),
                                              make_run("a", passing_tests(400)));
    CHECK(dimension.score == 100);  // clamp(100 + 10)
    CHECK(dimension.evidence["dilution_cut"] == 0.0);
  }
}

TEST_CASE("cases: the tests dimension counts cases and shows the programs beside them", "[score][cases]") {
  const config::Config defaults;
  // Baseline: program "calc" with 3 passing cases, and a plain program.
  std::vector<TestCase> base_cases = {make_case("calc", "adds"), make_case("calc", "subtracts"),
                                      make_case("calc", "multiplies"), make_test("plain")};
  Run baseline = make_run("baseline", base_cases);
  baseline.program_tests = std::vector<TestCase>{make_test("calc"), make_test("plain")};
  baseline.test_programs = {{"calc", "googletest", "read", "", 3, 0, true}};
  // Candidate: one case broken (its program failed), one case added.
  std::vector<TestCase> cases = base_cases;
  cases[2].status = TestStatus::failed;
  cases.push_back(make_case("calc", "divides"));
  Run candidate = make_run("a", cases);
  candidate.program_tests = std::vector<TestCase>{make_test("calc", TestStatus::failed), make_test("plain")};
  candidate.test_programs = {{"calc", "googletest", "read", "", 4, 1, false}};

  score::TestChanges changes;
  const auto dimension = score::score_tests(defaults, baseline, candidate, &changes);
  REQUIRE(changes.regressed.size() == 1);
  CHECK(changes.regressed[0].id() == "calc/Suite/multiplies");
  REQUIRE(changes.added.size() == 1);
  CHECK(changes.added[0].id() == "calc/Suite/divides");
  // pass_rate = 4/5 (adds, subtracts, divides, plain of 5); the seed's count
  // formula: max(0, B_pass 4 - A_pass 4) = 0, reg_penalty 0, while the gate
  // counts by identity (multiplies: 1). bonus = (5 - 4)*0.5 = 0.5; kept pass
  // rate 3/4, gain (0.8 - 0.75)*100 = 5, 5 + 0.5 < 10: no cut; 80 + 0.5 = 80.5.
  CHECK(dimension.evidence["regression"] == 0);
  CHECK(dimension.evidence["gate_regression"] == 1);
  CHECK(dimension.score == hydra::util::Exact(80.5));
  CHECK(dimension.evidence["granularity"] == "case");
  CHECK(dimension.evidence["programs"] ==
        nlohmann::json{{"B_pass", 2}, {"B_total", 2}, {"A_pass", 1}, {"A_total", 2}});
  CHECK(dimension.evidence["case_programs"] == 1);
}

TEST_CASE("cases: a case that disappears from its program's report is dropped", "[score][cases]") {
  const config::Config defaults;
  const std::vector<TestCase> base_cases = {make_case("calc", "adds"), make_case("calc", "subtracts"),
                                            make_case("calc", "multiplies"), make_test("plain")};
  const Run baseline = make_run("baseline", base_cases);
  SECTION("a passing case removed from a program that still passes") {
    const Run candidate = make_run("a", std::vector<TestCase>{make_case("calc", "adds"), make_case("calc", "multiplies"), make_test("plain")});
    score::TestChanges changes;
    const auto dimension = score::score_tests(defaults, baseline, candidate, &changes);
    REQUIRE(changes.dropped.size() == 1);
    CHECK(changes.dropped[0].id() == "calc/Suite/subtracts");
    // count_regression = max(0, 4 - 3) = 1; dropped_passing = 1; regression = max(1, 1) = 1;
    // pass_rate = 3/3; reg_penalty = 1/4*60 = 15: 100 - 15 = 85.
    CHECK(dimension.evidence["dropped_passing"] == 1);
    CHECK(dimension.evidence["gate_regression"] == 1);
    CHECK(dimension.score == 85);
  }
  SECTION("the same case under another program is another test") {
    const Run candidate = make_run("a", std::vector<TestCase>{make_case("calc", "adds"), make_case("other", "subtracts"),
                                         make_case("calc", "multiplies"), make_test("plain")});
    score::TestChanges changes;
    score::score_tests(defaults, baseline, candidate, &changes);
    REQUIRE(changes.dropped.size() == 1);
    CHECK(changes.dropped[0].id() == "calc/Suite/subtracts");
    REQUIRE(changes.added.size() == 1);
    CHECK(changes.added[0].id() == "other/Suite/subtracts");
  }
}
