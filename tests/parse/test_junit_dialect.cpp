// The JUnit dialects of framework reports (parse/junit_dialect.hpp), read
// from reports real programs wrote (tests/fixtures/frameworks/record.sh).
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/junit.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::TestCase;
using hydra::model::TestStatus;
using hydra::parse::JunitDialect;
using hydra::parse::parse_junit;
using hydra::parse::parse_junit_file;

namespace {

std::filesystem::path report(const std::string& name) {
  return std::filesystem::path(HYDRA_FIXTURES_DIR) / "frameworks" / "reports" / name;
}

std::map<std::string, TestStatus> statuses(const std::vector<TestCase>& tests) {
  std::map<std::string, TestStatus> out;
  for (const auto& test : tests) out.emplace(test.id(), test.status);
  return out;
}

}  // namespace

TEST_CASE("GoogleTest's XML report names cases with their parameters", "[parse][dialect]") {
  SECTION("every case passed") {
    const auto tests = parse_junit_file(report("baseline/googletest.xml"), JunitDialect::googletest);
    const std::map<std::string, TestStatus> expected = {
        {"Calc::Adds", TestStatus::passed},
        {"Calc::Subtracts", TestStatus::passed},
        {"Calc::Multiplies", TestStatus::passed},
        {"Calc::Divides", TestStatus::passed},
        // TYPED_TEST: the type is part of the name, as --gtest_list_tests prints it.
        {"Identity/0::AddsZero # TypeParam = int", TestStatus::passed},
        {"Identity/1::AddsZero # TypeParam = long", TestStatus::passed},
        // TEST_P: the instance's prefix in the suite, the value in the name.
        {"Values/AddZero::KeepsValue/0 # GetParam() = 1", TestStatus::passed},
        {"Values/AddZero::KeepsValue/1 # GetParam() = 7", TestStatus::passed},
    };
    CHECK(statuses(tests) == expected);
  }
  SECTION("one case failed") {
    const auto tests = parse_junit_file(report("break-multiply/googletest.xml"), JunitDialect::googletest);
    const auto by_id = statuses(tests);
    REQUIRE(by_id.size() == 8);
    CHECK(by_id.at("Calc::Multiplies") == TestStatus::failed);
    CHECK(std::count_if(tests.begin(), tests.end(), [](const TestCase& test) {
            return test.status == TestStatus::passed;
          }) == 7);
  }
  SECTION("the generic reading keeps GoogleTest's names as written") {
    const auto tests = parse_junit_file(report("baseline/googletest.xml"));
    CHECK(statuses(tests).count("Identity/0::AddsZero") == 1);
  }
}

TEST_CASE("Catch2's JUnit report names cases by class, section and template type", "[parse][dialect]") {
  SECTION("every case passed") {
    const auto tests = parse_junit_file(report("baseline/catch2.xml"), JunitDialect::catch2);
    // tests="..." in the file counts assertions; the testcases are the cases:
    // a TEST_CASE's leaf sections each, a TEMPLATE_TEST_CASE's types each.
    const std::map<std::string, TestStatus> expected = {
        {"global::adds", TestStatus::passed},
        {"global::subtracts", TestStatus::passed},
        {"global::multiplies/small", TestStatus::passed},
        {"global::multiplies/by zero", TestStatus::passed},
        {"global::divides", TestStatus::passed},
        {"global::adds zero - int", TestStatus::passed},
        {"global::adds zero - long", TestStatus::passed},
    };
    CHECK(statuses(tests) == expected);
  }
  SECTION("one section failed, its sibling passed") {
    const auto by_id = statuses(parse_junit_file(report("break-multiply/catch2.xml"), JunitDialect::catch2));
    CHECK(by_id.at("global::multiplies/small") == TestStatus::failed);
    CHECK(by_id.at("global::multiplies/by zero") == TestStatus::passed);
  }
  SECTION("a fixture's class stays; an exception is an error (parse fixture catch2.xml)") {
    const auto tests = parse_junit_file(hydra::test::parse_fixture("catch2.xml"), JunitDialect::catch2);
    const auto by_id = statuses(tests);
    CHECK(by_id.at("global::throws unexpectedly") == TestStatus::error);
    CHECK(by_id.size() == 5);
  }
  SECTION("a classname without the program's prefix is kept as it is") {
    const auto tests = parse_junit(R"(<testsuites><testsuite name="prog">
        <testcase classname="other.global" name="case" status="run"/></testsuite></testsuites>)",
                                   "inline.xml", JunitDialect::catch2);
    REQUIRE(tests.size() == 1);
    CHECK(tests[0].id() == "other.global::case");
  }
}

TEST_CASE("doctest's JUnit report names cases by source file, not its folders", "[parse][dialect]") {
  const auto tests = parse_junit_file(report("break-multiply/doctest.xml"), JunitDialect::doctest);
  // The report's classname is the source file as compiled
  // (/tmp/hydra-frameworks-record/source/tests/doctest_calc.cpp).
  const std::map<std::string, TestStatus> expected = {
      {"doctest_calc.cpp::adds", TestStatus::passed},
      {"doctest_calc.cpp::subtracts", TestStatus::passed},
      {"doctest_calc.cpp::multiplies", TestStatus::failed},
      {"doctest_calc.cpp::divides", TestStatus::passed},
      {"doctest_calc.cpp::adds zero<int>", TestStatus::passed},
      {"doctest_calc.cpp::adds zero<long int>", TestStatus::passed},
  };
  CHECK(statuses(tests) == expected);
  const auto failed = std::find_if(tests.begin(), tests.end(), [](const TestCase& test) {
    return test.status == TestStatus::failed;
  });
  CHECK(failed->message == "8 == 12");
}

TEST_CASE("a framework's report is never read as CTest's", "[parse][dialect]") {
  // A bare <testsuite> whose testcases carry `status` reads as CTest's in
  // the generic dialect (suite "ctest"); a framework's is its own.
  const std::string xml = R"(<testsuite name="prog"><testcase classname="prog.global" name="case" status="run"/></testsuite>)";
  CHECK(parse_junit(xml, "inline.xml").at(0).suite == "ctest");
  CHECK(parse_junit(xml, "inline.xml", JunitDialect::catch2).at(0).suite == "global");
}

TEST_CASE("junit dialects have names", "[parse][dialect]") {
  for (const auto dialect : {JunitDialect::generic, JunitDialect::googletest, JunitDialect::catch2, JunitDialect::doctest})
    CHECK(hydra::parse::junit_dialect_from_string(hydra::parse::to_string(dialect)) == dialect);
  CHECK_FALSE(hydra::parse::junit_dialect_from_string("boost"));
  CHECK_THROWS_AS(parse_junit("<nope/>", "bad.xml", JunitDialect::googletest), hydra::InputError);
}
