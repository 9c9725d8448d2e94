// Tests for guard/test_levels.hpp: a program built on one side only is one
// program on both; private tests at the level tests are scored at.
#include <catch2/catch.hpp>

#include <hydra/guard/test_levels.hpp>

using hydra::model::Run;
using hydra::model::TestCase;
using hydra::model::TestStatus;
namespace guard = hydra::guard;

namespace {

TestCase program(const std::string& name, TestStatus status, const std::string& message = "") {
  TestCase test;
  test.suite = "ctest";
  test.name = name;
  test.status = status;
  test.message = message;
  return test;
}

TestCase one_case(const std::string& program, const std::string& name, TestStatus status) {
  TestCase test;
  test.program = program;
  test.suite = "Calc";
  test.name = name;
  test.status = status;
  return test;
}

std::vector<std::string> ids(const std::vector<TestCase>& tests) {
  std::vector<std::string> out;
  for (const auto& test : tests) out.push_back(test.id() + "=" + std::string(hydra::model::to_string(test.status)));
  return out;
}

}  // namespace

TEST_CASE("align_levels: a program held as one test on one side is one test on both", "[guard][levels]") {
  SECTION("valid input: cases of a program the reference holds whole are folded") {
    const std::vector<TestCase> reference = {program("calc_test", TestStatus::failed, "Could not find executable"),
                                             program("plain", TestStatus::passed)};
    const std::vector<TestCase> passing = {one_case("calc_test", "Adds", TestStatus::passed),
                                           one_case("calc_test", "Divides", TestStatus::passed),
                                           program("plain", TestStatus::passed)};
    CHECK(ids(guard::align_levels(reference, passing)) ==
          std::vector<std::string>{"ctest::calc_test=passed", "ctest::plain=passed"});
    std::vector<TestCase> failing = passing;
    failing[1].status = TestStatus::failed;
    failing[1].message = "expected 3";
    const auto folded = guard::align_levels(reference, failing);
    REQUIRE(folded.size() == 2);
    CHECK(folded[0].status == TestStatus::failed);
    CHECK(folded[0].message == "case Calc/Divides failed: expected 3");
  }
  SECTION("valid input: a program held whole where the reference has cases stands for each case") {
    const std::vector<TestCase> reference = {one_case("calc_test", "Adds", TestStatus::passed),
                                             one_case("calc_test", "Divides", TestStatus::passed)};
    const std::vector<TestCase> tests = {program("calc_test", TestStatus::failed, "Could not find executable")};
    const auto expanded = guard::align_levels(reference, tests);
    CHECK(ids(expanded) == std::vector<std::string>{"calc_test/Calc/Adds=failed", "calc_test/Calc/Divides=failed"});
    CHECK(expanded[1].message == "Could not find executable");
  }
  SECTION("valid input: programs at the same level on both sides are kept as they are") {
    const std::vector<TestCase> reference = {one_case("calc_test", "Adds", TestStatus::passed),
                                             program("plain", TestStatus::passed)};
    const std::vector<TestCase> tests = {one_case("calc_test", "Adds", TestStatus::failed),
                                         one_case("calc_test", "New", TestStatus::passed),
                                         program("plain", TestStatus::failed), program("added", TestStatus::passed)};
    CHECK(ids(guard::align_levels(reference, tests)) == ids(tests));
  }
  SECTION("bad input: a program with no case that ran folds to skipped") {
    const std::vector<TestCase> reference = {program("calc_test", TestStatus::failed)};
    const auto folded = guard::align_levels(reference, {one_case("calc_test", "Adds", TestStatus::skipped)});
    CHECK(ids(folded) == std::vector<std::string>{"ctest::calc_test=skipped"});
  }
}

TEST_CASE("private_test_identities: the cases a private patch adds or changes, and programs that did not build",
          "[guard][levels]") {
  Run run;
  run.tests = std::vector<TestCase>{one_case("calc_test", "Adds", TestStatus::passed),
                                    one_case("calc_test", "Divides", TestStatus::passed),
                                    one_case("mock_test", "Adds", TestStatus::passed), program("plain", TestStatus::passed)};
  run.held_out.tests = std::vector<TestCase>{one_case("calc_test", "Adds", TestStatus::passed),
                                             one_case("calc_test", "Divides", TestStatus::failed),
                                             one_case("calc_test", "DividesNegative", TestStatus::failed),
                                             program("mock_test", TestStatus::failed), program("plain", TestStatus::failed)};
  SECTION("valid input: changed and added cases; a program held whole and a plain test by name") {
    run.held_out.private_tests = {"calc_test", "mock_test", "plain"};
    // calc_test/Calc/Adds kept its result: not the patch's; the changed
    // case failed where it passed, the new case is new.
    CHECK(guard::private_test_identities(run) ==
          std::vector<std::string>{"calc_test/Calc/Divides", "calc_test/Calc/DividesNegative", "mock_test", "plain"});
  }
  SECTION("valid input: no private tests, none") {
    CHECK(guard::private_test_identities(run).empty());
  }
}
