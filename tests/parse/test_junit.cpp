#include <catch2/catch.hpp>

#include <map>
#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/junit.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::TestCase;
using hydra::model::TestStatus;
using hydra::parse::parse_junit;
using hydra::parse::parse_junit_file;
using hydra::test::parse_fixture;
using hydra::test::read_parse_fixture;

namespace {

std::map<std::string, const TestCase*> by_id(const std::vector<TestCase>& tests) {
  std::map<std::string, const TestCase*> out;
  for (const auto& test : tests) out.emplace(test.id(), &test);
  return out;
}

std::size_t count_status(const std::vector<TestCase>& tests, TestStatus status) {
  return hydra::test::count_if(tests, [status](const TestCase& test) { return test.status == status; });
}

}  // namespace

TEST_CASE("parse_junit reads CTest's --output-junit", "[parse]") {
  SECTION("valid input") {
    const auto tests = parse_junit_file(parse_fixture("ctest_junit.xml"));
    REQUIRE(tests.size() == 10);
    // The <testsuite> is named after the build/host ("(empty)" here): every
    // CTest test gets the machine-independent suite "ctest".
    for (const auto& test : tests) CHECK(test.suite == "ctest");
    const auto tests_by_id = by_id(tests);
    REQUIRE(tests_by_id.size() == 10);

    const auto& add = *tests_by_id.at("ctest::math.add");
    CHECK(add.status == TestStatus::passed);
    CHECK(add.duration_seconds > 0.0);  // time="0.0027..." (differs per recording)
    CHECK(add.labels.empty());  // CMake 3.25's JUnit has no labels: apply_labels adds them

    const auto& subtract = *tests_by_id.at("ctest::math.subtract");
    CHECK(subtract.status == TestStatus::failed);
    // <failure message=""/>: the message falls back to the first output line.
    CHECK(subtract.message == "expected 1, got 2");

    // ctest counts these two "notrun" tests as failed, and so do we.
    CHECK(tests_by_id.at("ctest::tool.missing")->status == TestStatus::failed);
    CHECK(tests_by_id.at("ctest::tool.missing")->message == "Unable to find executable");
    CHECK(tests_by_id.at("ctest::data.required")->status == TestStatus::failed);
    CHECK(tests_by_id.at("ctest::data.required")->message == "Required Files Missing");

    CHECK(tests_by_id.at("ctest::math.disabled")->status == TestStatus::disabled);
    CHECK(tests_by_id.at("ctest::math.skipped")->status == TestStatus::skipped);
    CHECK(tests_by_id.at("ctest::math.skipped")->message == "SKIP_RETURN_CODE=77");
    CHECK(tests_by_id.at("ctest::output.skip_regex")->status == TestStatus::skipped);
    CHECK(tests_by_id.at("ctest::output.skip_regex")->message == "SKIP_REGULAR_EXPRESSION_MATCHED");
    CHECK(tests_by_id.at("ctest::output.regex")->status == TestStatus::passed);
    CHECK(tests_by_id.at("ctest::math.expected_failure")->status == TestStatus::passed);  // WILL_FAIL
    // XML escapes are decoded in names.
    CHECK(tests_by_id.at("ctest::escape<&>\"name")->status == TestStatus::passed);

    // add, output.regex, expected_failure, escape<&>"name = 4 passed;
    // subtract, tool.missing, data.required = 3 failed; 2 skipped; 1 disabled.
    CHECK(count_status(tests, TestStatus::passed) == 4);
    CHECK(count_status(tests, TestStatus::failed) == 3);
    CHECK(count_status(tests, TestStatus::skipped) == 2);
    CHECK(count_status(tests, TestStatus::disabled) == 1);
    CHECK(count_status(tests, TestStatus::error) == 0);
  }
  SECTION("bad input") {
    // The recorded file cut off in the middle of an element.
    const std::string xml = read_parse_fixture("ctest_junit.xml");
    const std::string truncated = xml.substr(0, xml.find("<testcase name=\"math.skipped\"") + 20);
    const auto last_line = static_cast<std::uint64_t>(std::count(truncated.begin(), truncated.end(), '\n')) + 1;
    try {
      parse_junit(truncated, "ctest.xml");
      FAIL("expected an InputError");
    } catch (const hydra::InputError& error) {
      CHECK(error.file() == "ctest.xml");
      CHECK(error.line() == last_line);
      CHECK(error.column() > 0);
      CHECK_THAT(error.message(), Catch::Contains("malformed XML"));
    }
  }
}

TEST_CASE("parse_junit reads GoogleTest's --gtest_output=xml", "[parse]") {
  const auto tests = parse_junit_file(parse_fixture("gtest.xml"));
  REQUIRE(tests.size() == 6);
  const auto tests_by_id = by_id(tests);
  CHECK(tests_by_id.at("MathTest::Adds")->status == TestStatus::passed);
  CHECK(tests_by_id.at("MathTest::Subtracts")->status == TestStatus::failed);
  // The message's first line (GoogleTest starts it with the file and line).
  CHECK_THAT(tests_by_id.at("MathTest::Subtracts")->message, Catch::EndsWith("gtest_sample.cpp:4"));
  CHECK(tests_by_id.at("MathTest::Skips")->status == TestStatus::skipped);
  CHECK(tests_by_id.at("MathTest::DISABLED_Slow")->status == TestStatus::disabled);
  CHECK(tests_by_id.at("Numbers/ParityTest::IsEven/0")->status == TestStatus::passed);
  CHECK(tests_by_id.at("Numbers/ParityTest::IsEven/1")->status == TestStatus::failed);
}

TEST_CASE("parse_junit counts Catch2's testcases, not its assertions", "[parse]") {
  const auto tests = parse_junit_file(parse_fixture("catch2.xml"));
  // tests="8" in the file counts assertions (3 + 2 + 1 + 1 + 1); there are
  // 5 testcases (the hidden "[.]" test did not run).
  REQUIRE(tests.size() == 5);
  const auto tests_by_id = by_id(tests);
  CHECK(tests_by_id.at("catch2_sample.global::adds numbers")->status == TestStatus::passed);
  CHECK(tests_by_id.at("catch2_sample.global::subtracts numbers")->status == TestStatus::failed);
  CHECK(tests_by_id.at("catch2_sample.global::subtracts numbers")->message == "5 - 3 == 1");
  CHECK(tests_by_id.at("catch2_sample.global::throws unexpectedly")->status == TestStatus::error);
  CHECK(tests_by_id.at("catch2_sample.global::sections/first")->status == TestStatus::passed);
  CHECK(tests_by_id.at("catch2_sample.global::sections/second")->status == TestStatus::passed);
}

TEST_CASE("parse_junit reads pytest's --junitxml", "[parse]") {
  const auto tests = parse_junit_file(parse_fixture("pytest.xml"));
  REQUIRE(tests.size() == 8);
  const auto tests_by_id = by_id(tests);
  CHECK(tests_by_id.at("test_sample::test_adds")->status == TestStatus::passed);
  CHECK(tests_by_id.at("test_sample::test_subtracts")->status == TestStatus::failed);
  CHECK(tests_by_id.at("test_sample::test_subtracts")->message == "AssertionError: subtraction is off");
  CHECK(tests_by_id.at("test_sample::test_skipped")->status == TestStatus::skipped);
  CHECK(tests_by_id.at("test_sample::test_skipped")->message == "not on this machine");
  CHECK(tests_by_id.at("test_sample::test_expected_failure")->status == TestStatus::skipped);  // xfail
  CHECK(tests_by_id.at("test_sample::test_with_broken_fixture")->status == TestStatus::error);
  CHECK(tests_by_id.at("test_sample::test_even[2]")->status == TestStatus::passed);
  CHECK(tests_by_id.at("test_sample::test_even[3]")->status == TestStatus::failed);
  CHECK(tests_by_id.at("test_sample.TestGroup::test_in_class")->status == TestStatus::passed);
}

TEST_CASE("parse_junit reads jest-junit's output", "[parse]") {
  const auto tests = parse_junit_file(parse_fixture("jest_junit.xml"));
  REQUIRE(tests.size() == 5);
  const auto tests_by_id = by_id(tests);
  CHECK(tests_by_id.at("math adds::math adds")->status == TestStatus::passed);
  CHECK(tests_by_id.at("math adds::math adds")->duration_seconds == Approx(0.002));
  CHECK(tests_by_id.at("math subtracts::math subtracts")->status == TestStatus::failed);
  CHECK(tests_by_id.at("math subtracts::math subtracts")->message ==
        "Error: expect(received).toBe(expected) // Object.is equality");
  CHECK(tests_by_id.at("math skipped::math skipped")->status == TestStatus::skipped);
  // jest-junit writes test.todo as a plain testcase.
  CHECK(tests_by_id.at("math multiplies::math multiplies")->status == TestStatus::passed);
  // Outside any describe block jest-junit's "{classname} {title}" starts
  // with a blank (classname=" top level" in the file): names are trimmed.
  CHECK(tests_by_id.at("top level::top level")->status == TestStatus::passed);
}

TEST_CASE("parse_junit reads durations and nested suites", "[parse]") {
  const auto tests = parse_junit(R"(<testsuites>
  <testsuite name="outer">
    <testsuite name="inner"><testcase name="a" time="1.25"/></testsuite>
    <testcase name="b" time="not a number"/>
    <testcase name="c" classname="given" time="-3"/>
  </testsuite>
</testsuites>)", "nested.xml");
  REQUIRE(tests.size() == 3);
  CHECK(tests[0].id() == "inner::a");
  CHECK(tests[0].duration_seconds == 1.25);
  CHECK(tests[1].id() == "outer::b");
  CHECK(tests[1].duration_seconds == 0.0);  // unreadable time: 0
  CHECK(tests[2].id() == "given::c");      // classname wins over the suite name
  CHECK(tests[2].duration_seconds == 0.0);  // negative time: 0
}

TEST_CASE("parse_junit rejects documents that are not JUnit XML", "[parse]") {
  SECTION("valid input") {
    // A run without tests is valid and empty.
    CHECK(parse_junit("<testsuites/>", "empty.xml").empty());
  }
  SECTION("bad input") {
    const auto error_of = [](const std::string& xml) -> hydra::InputError {
      try {
        parse_junit(xml, "in.xml");
      } catch (const hydra::InputError& error) {
        return error;
      }
      FAIL("expected an InputError");
      throw;  // unreachable
    };
    const auto not_junit = error_of("<?xml version=\"1.0\"?>\n  <html><body/></html>\n");
    CHECK(not_junit.line() == 2);
    CHECK(not_junit.column() == 3);
    CHECK_THAT(not_junit.message(), Catch::Contains("<html>"));

    CHECK_THAT(error_of("").message(), Catch::Contains("empty"));
    CHECK(error_of("<testsuites>\n<testsuite name=\"x\">\n<testcase/>\n</testsuite></testsuites>").line() == 3);
    const auto unclosed = error_of("<testsuites>\n<testsuite name=\"x\">\n</testsuites>");
    CHECK(unclosed.line() == 3);
    CHECK_THAT(unclosed.message(), Catch::Contains("malformed XML"));
  }
}

TEST_CASE("parse_junit walks suites nested to any depth, without recursion", "[parse][hostile]") {
  // 50,000 nested suites once overflowed the stack (a segmentation fault).
  const std::size_t depth = 50000;
  std::string xml = "<testsuites>";
  // <testsuites> in <testsuites>, then <testsuite> in <testsuite> (a
  // <testsuites> inside a <testsuite> is not read).
  for (std::size_t i = 0; i < depth; ++i) xml += i < depth / 2 ? "<testsuites>" : "<testsuite name=\"s\">";
  xml += "<testsuite name=\"deep\"><testcase name=\"bottom\"/></testsuite>";
  for (std::size_t i = depth; i-- > 0;) xml += i < depth / 2 ? "</testsuites>" : "</testsuite>";
  xml += "</testsuites>";
  const auto tests = parse_junit(xml, "nested.xml");
  REQUIRE(tests.size() == 1);
  CHECK(tests[0].id() == "deep::bottom");
}

TEST_CASE("parse_junit keeps document order across nested suites", "[parse]") {
  const auto tests = parse_junit(R"(<testsuites>
  <testsuite name="a"><testcase name="1"/>
    <testsuite name="b"><testcase name="2"/></testsuite>
    <testcase name="3"/>
    <testsuites><testsuite name="ignored"><testcase name="x"/></testsuite></testsuites>
  </testsuite>
  <testcase name="outside"/>
  <testsuites><testsuite name="c"><testcase name="4"/></testsuite></testsuites>
</testsuites>)", "order.xml");
  // <testsuites> inside a <testsuite> is not read (as before the walk
  // became iterative); a testcase directly in <testsuites> is (node --test
  // writes its top-level tests there), its suite the classname (none here).
  REQUIRE(tests.size() == 5);
  CHECK(tests[0].id() == "a::1");
  CHECK(tests[1].id() == "b::2");
  CHECK(tests[2].id() == "a::3");
  CHECK(tests[3].id() == "::outside");
  CHECK(tests[4].id() == "c::4");
}

TEST_CASE("parse_junit replaces invalid UTF-8 in names and messages and counts it", "[parse][hostile]") {
  std::uint64_t replaced = 0;
  const auto tests = parse_junit(
      "<testsuites><testsuite name=\"s\xC3\">"
      "<testcase name=\"t\xFF\"><failure message=\"bad \xE2\x82\"/></testcase>"
      "<testcase name=\"ok\"/></testsuite></testsuites>",
      "utf8.xml", &replaced);
  REQUIRE(tests.size() == 2);
  // s + C3, t + FF, message with a truncated 3-byte sequence (E2 82: two bytes).
  CHECK(tests[0].suite == "s\xEF\xBF\xBD");
  CHECK(tests[0].name == "t\xEF\xBF\xBD");
  CHECK(tests[0].message == "bad \xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(replaced == 5);  // 1 (suite of test 0) + 1 (name) + 2 (message) + 1 (suite of test 1)
}
