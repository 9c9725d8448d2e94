// Baseline and candidate tests are paired by identity, never by position
// (docs/formulas.md, "Tests": "One identity, several tests").
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include <hydra/score/test_comparison.hpp>

#include "score/run_builders.hpp"

using hydra::model::TestCase;
using hydra::model::TestStatus;
using hydra::score::pair_by_identity;
using hydra::score::TestChanges;
using hydra::test::make_test;

namespace {

TestCase failed(const std::string& name, const std::string& message = "boom") {
  TestCase test = make_test(name, TestStatus::failed);
  test.message = message;
  return test;
}

TestChanges paired(const std::vector<TestCase>& baseline, const std::vector<TestCase>& candidate) {
  TestChanges changes;
  pair_by_identity(baseline, candidate, changes);
  return changes;
}

std::vector<std::string> ids(const std::vector<TestCase>& tests) {
  std::vector<std::string> out;
  for (const auto& test : tests) out.push_back(test.id() + "=" + std::string(hydra::model::to_string(test.status)));
  return out;
}

}  // namespace

TEST_CASE("pairing: the same tests in any order give the same changes", "[score][identity]") {
  const std::vector<TestCase> baseline = {make_test("a"), make_test("dup"), failed("dup"), failed("b"),
                                          make_test("dup", TestStatus::skipped)};
  std::vector<TestCase> candidate = {make_test("a"), failed("dup"), make_test("dup"), make_test("b"),
                                     make_test("dup", TestStatus::skipped), make_test("new")};
  const TestChanges first = paired(baseline, candidate);
  std::mt19937 shuffle(27);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(candidate.begin(), candidate.end(), shuffle);
    std::vector<TestCase> reordered = baseline;
    std::shuffle(reordered.begin(), reordered.end(), shuffle);
    const TestChanges again = paired(reordered, candidate);
    CHECK(ids(again.regressed) == ids(first.regressed));
    CHECK(ids(again.dropped) == ids(first.dropped));
    CHECK(ids(again.added) == ids(first.added));
    REQUIRE(again.duplicates.size() == 1);
  }
  // The baseline's own duplicate ("dup": 3 and 3): passing pairs with
  // passing, nothing regressed; "b" failed before and passes now.
  CHECK(first.regressed.empty());
  CHECK(ids(first.added) == std::vector<std::string>{"ctest::new=passed"});
  REQUIRE(first.duplicates.size() == 1);
  CHECK(first.duplicates[0].id == "ctest::dup");
  CHECK(first.duplicates[0].baseline == 3);
  CHECK(first.duplicates[0].candidate == 3);
  CHECK_FALSE(first.duplicates[0].introduced_by_candidate);
}

TEST_CASE("pairing: a duplicate the candidate introduces pairs against it", "[score][identity]") {
  SECTION("one baseline test, two candidate tests of its identity, one failing") {
    const TestChanges changes = paired({make_test("x")}, {make_test("x"), failed("x")});
    REQUIRE(changes.regressed.size() == 1);
    CHECK(changes.regressed[0].status == TestStatus::failed);
    REQUIRE(changes.added.size() == 1);  // the other one is new
    CHECK(changes.added[0].status == TestStatus::passed);
    REQUIRE(changes.duplicates.size() == 1);
    CHECK(changes.duplicates[0].introduced_by_candidate);
  }
  SECTION("the baseline's duplicate grown by the candidate") {
    const TestChanges changes = paired({make_test("x"), make_test("x")}, {make_test("x"), make_test("x"), failed("x")});
    CHECK(changes.regressed.size() == 1);
    CHECK(changes.duplicates[0].introduced_by_candidate);
  }
  SECTION("both passing: nothing regressed, the ambiguity is still named") {
    const TestChanges changes = paired({make_test("x")}, {make_test("x"), make_test("x")});
    CHECK(changes.regressed.empty());
    CHECK(changes.duplicates.size() == 1);
  }
}

TEST_CASE("pairing: a baseline's duplicate that shrinks pairs its passing tests first", "[score][identity]") {
  // The baseline ran "x" three times (one failing); the candidate once, passing.
  const TestChanges changes = paired({make_test("x"), failed("x"), make_test("x")}, {make_test("x")});
  CHECK(changes.regressed.empty());
  REQUIRE(changes.dropped.size() == 2);
  // Paired: a passing one. Dropped: the failing one, then the other passing one.
  CHECK(changes.dropped[0].status == TestStatus::passed);
  CHECK(changes.dropped[1].status == TestStatus::failed);
  CHECK_FALSE(changes.duplicates[0].introduced_by_candidate);
}

TEST_CASE("pairing: one test per identity pairs as it always did", "[score][identity]") {
  const TestChanges changes =
      paired({make_test("a"), make_test("b"), failed("c"), make_test("gone")}, {failed("a"), make_test("b"), make_test("c")});
  CHECK(ids(changes.regressed) == std::vector<std::string>{"ctest::a=failed"});
  CHECK(ids(changes.dropped) == std::vector<std::string>{"ctest::gone=passed"});
  CHECK(changes.added.empty());
  CHECK(changes.duplicates.empty());
}
