// JUnit XML of the merge gates: golden output and structure read back with pugixml.
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/report.hpp>

#include <pugixml.hpp>

#include <string>

using hydra::report::render_gates_junit;

TEST_CASE("render_gates_junit matches the golden XML", "[report][golden]") {
  const auto contract = report_test::standin_contract();
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
  const std::string xml = render_gates_junit(report_test::standin_contract());
  pugi::xml_document document;
  REQUIRE(document.load_string(xml.c_str()));
  const auto suites = document.child("testsuites");
  REQUIRE(suites);
  // 3 candidates x 6 gates = 18 test cases; failures 0 (codex) + 1 (claude) + 3 (gemini) = 4.
  CHECK(suites.attribute("tests").as_int() == 18);
  CHECK(suites.attribute("failures").as_int() == 4);

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
  CHECK(suite_count == 3);
  CHECK(case_count == 18);
  CHECK(failure_count == 4);

  // The agent "claude|<fast>&co" survives the round trip; its failed gate carries the detail.
  const auto claude = suites.find_child_by_attribute("testsuite", "name", "claude|<fast>&co");
  REQUIRE(claude);
  const auto regression = claude.find_child_by_attribute("testcase", "name", "max_test_regression_percent");
  REQUIRE(regression.child("failure"));
  CHECK(std::string(regression.child("failure").attribute("message").as_string()) ==
        "1 of 4 baseline-passing tests regressed (25% > 0%)");
  const auto gemini = suites.find_child_by_attribute("testsuite", "name", "gemini");
  REQUIRE(gemini);
  CHECK(gemini.find_child_by_attribute("testcase", "name", "require_build_pass").child("failure"));
  CHECK_FALSE(gemini.find_child_by_attribute("testcase", "name", "security").child("failure"));
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
