// JUnit XML of the merge gates: golden output and structure read back with pugixml.
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/report.hpp>

#include <pugixml.hpp>

#include <string>

using hydra::report::render_gates_junit;

TEST_CASE("render_gates_junit matches the golden XML", "[report][golden]") {
  const auto contract = report_test::real_contract();
  SECTION("valid input") {
    const std::string xml = render_gates_junit(contract);
    report_test::check_golden("gates.xml", xml);
    CHECK(render_gates_junit(contract) == xml);  // deterministic
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(render_gates_junit(nlohmann::json(true)), hydra::Error);
  }
}

TEST_CASE("render_gates_junit has a suite per candidate and a case per gate", "[report]") {
  // The real contract with protected-lint renamed to "claude|<fast>&co".
  const std::string xml = render_gates_junit(report_test::hostile_contract());
  pugi::xml_document document;
  REQUIRE(document.load_string(xml.c_str()));
  const auto suites = document.child("testsuites");
  REQUIRE(suites);
  // 4 candidates x 7 gates = 28 test cases; failures 0 (clean-fix) + 2 (deletes-tests:
  // max_test_regression_percent, anti_gaming) + 1 (breaks-test: max_test_regression_percent)
  // + 0 (protected-lint) = 3.
  CHECK(suites.attribute("tests").as_int() == 28);
  CHECK(suites.attribute("failures").as_int() == 3);

  std::size_t suite_count = 0;
  std::size_t case_count = 0;
  std::size_t failure_count = 0;
  for (const auto& suite : suites.children("testsuite")) {
    ++suite_count;
    const std::string agent = suite.attribute("name").as_string();
    std::size_t cases_here = 0;
    std::size_t failures_here = 0;
    for (const auto& testcase : suite.children("testcase")) {
      ++cases_here;
      CHECK(std::string(testcase.attribute("classname").as_string()) == "hydra.gates." + agent);
      if (testcase.child("failure")) ++failures_here;
    }
    CHECK(suite.attribute("tests").as_ullong() == cases_here);
    CHECK(suite.attribute("failures").as_ullong() == failures_here);
    case_count += cases_here;
    failure_count += failures_here;
  }
  CHECK(suite_count == 4);
  CHECK(case_count == 28);
  CHECK(failure_count == 3);

  // The agent "claude|<fast>&co" survives the round trip; all its gates passed.
  const auto claude = suites.find_child_by_attribute("testsuite", "name", report_test::hostile_agent.c_str());
  REQUIRE(claude);
  CHECK(std::string(claude.child("testcase").attribute("classname").as_string()) == "hydra.gates.claude|<fast>&co");
  CHECK(claude.attribute("failures").as_int() == 0);
  // A failed gate carries its detail: deletes-tests dropped 2 tests, 1 of
  // them passing in the baseline: 1 regression; 1/9 = 11.11% > 0%.
  const auto deletes_tests = suites.find_child_by_attribute("testsuite", "name", "deletes-tests");
  REQUIRE(deletes_tests);
  const auto regression = deletes_tests.find_child_by_attribute("testcase", "name", "max_test_regression_percent");
  REQUIRE(regression.child("failure"));
  CHECK(std::string(regression.child("failure").attribute("message").as_string()) ==
        "1 regression (regressed or dropped tests) against 9 baseline-passing tests (11.11% > 0%)");
  // 8 tests ran of the baseline's 10: 8 >= 0.8 * 10, so min_test_count_ratio passes.
  CHECK_FALSE(deletes_tests.find_child_by_attribute("testcase", "name", "min_test_count_ratio").child("failure"));
  CHECK_FALSE(deletes_tests.find_child_by_attribute("testcase", "name", "require_build_pass").child("failure"));
  // It deleted 2 tests defined in the baseline: the anti_gaming gate fails too.
  CHECK(deletes_tests.find_child_by_attribute("testcase", "name", "anti_gaming").child("failure"));
  CHECK_FALSE(deletes_tests.find_child_by_attribute("testcase", "name", "security").child("failure"));
}

TEST_CASE("render_gates_junit writes well-formed XML from hostile names", "[report]") {
  const nlohmann::json contract = {
      {"rankings",
       {{{"agent", std::string("a\x01<b>&\"c\"")},
         {"gates", {{{"gate", "require_build_pass"}, {"passed", false}, {"detail", "exit ]]> 2"}}}}}}}};
  const std::string xml = render_gates_junit(contract);
  pugi::xml_document document;
  REQUIRE(document.load_string(xml.c_str()));
  const auto suite = document.child("testsuites").child("testsuite");
  CHECK(std::string(suite.attribute("name").as_string()) == "a?<b>&\"c\"");
  // No gate_failures list: the failures are derived from the gates.
  CHECK(std::string(suite.child("testcase").child("failure").attribute("message").as_string()) == "exit ]]> 2");
}
