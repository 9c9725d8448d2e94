// The flaky tests in every report (report/flaky.hpp): terminal, Markdown,
// HTML, SARIF notifications and the gates' JUnit properties, from a contract
// the scoring code wrote (flaky_contract.hpp), escaped for each format.
#include "report/flaky_contract.hpp"
#include "report/report_fixtures.hpp"

#include <hydra/report/flaky.hpp>
#include <hydra/report/report.hpp>

using namespace hydra::report;
using nlohmann::json;

namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

}  // namespace

TEST_CASE("flaky reports: the contract's flaky tests with every run's attempts", "[report][flaky]") {
  const json contract = report_test::flaky_contract();
  const auto tests = read_flaky_tests(contract);
  REQUIRE(tests.size() == 1);
  CHECK(tests[0].id == "ctest::" + report_test::flaky_test_name);
  CHECK(tests[0].seen_in == std::vector<std::string>{"baseline"});
  // The baseline's attempts, then each candidate's in ranking order (both
  // score 100 and are mergeable: by name, lucky first).
  CHECK(attempts_text(tests[0]) == "baseline: failed, passed; lucky: passed; unlucky: failed, failed, failed");
  CHECK(read_candidate_flaky_tests(contract["rankings"][0]).size() == 1);
}

TEST_CASE("flaky reports: terminal, Markdown and HTML list them, escaped", "[report][flaky]") {
  const json contract = report_test::flaky_contract();
  const std::string terminal = render_terminal(contract, TerminalOptions{});
  CHECK(terminal.find("Flaky tests (1):") != std::string::npos);
  CHECK(terminal.find("ctest::timing|<slow>&co  (flaky in baseline)") != std::string::npos);
  CHECK(terminal.find("baseline: failed, passed; lucky: passed; unlucky: failed, failed, failed") != std::string::npos);
  CHECK(terminal.find("(1 flaky)") != std::string::npos);  // the baseline line
  CHECK(render_terminal(contract, TerminalOptions{true}).find("\x1b[1mFlaky tests (1):\x1b[0m") != std::string::npos);

  const std::string markdown = render_markdown(contract);
  CHECK(markdown.find("### Flaky tests (1)") != std::string::npos);
  CHECK(markdown.find("| ctest::timing\\|") != std::string::npos);  // the table stays a table
  CHECK(markdown.find("timing|<slow>") == std::string::npos);
  CHECK(markdown.find("too slow") != std::string::npos);  // the first failure

  const std::string html = render_html(contract);
  CHECK(html.find("<section id=\"flaky-tests\">") != std::string::npos);
  CHECK(html.find("ctest::timing|&lt;slow&gt;&amp;co") != std::string::npos);
  CHECK(html.find("<slow>") == std::string::npos);

  // Without flaky tests there is no section at all.
  const json plain = report_test::real_contract();
  CHECK(render_terminal(plain, TerminalOptions{}).find("Flaky tests") == std::string::npos);
  CHECK(render_markdown(plain).find("Flaky tests") == std::string::npos);
  CHECK(render_html(plain).find("flaky-tests") == std::string::npos);
}

TEST_CASE("flaky reports: SARIF log properties and the gates' JUnit properties", "[report][flaky]") {
  const json contract = report_test::flaky_contract();
  const json sarif = json::parse(render_sarif(contract));
  // No result (no line of code to point at, no alert): the log's properties.
  for (const auto& run : sarif["runs"]) CHECK(run["results"].empty());
  const auto& flaky = sarif["properties"]["hydraFlakyTests"];
  REQUIRE(flaky.size() == 1);
  CHECK(flaky[0]["id"] == "ctest::" + report_test::flaky_test_name);
  CHECK(flaky[0]["flakyIn"] == json::array({"baseline"}));
  CHECK(flaky[0]["attempts"]["unlucky"] == json::array({"failed", "failed", "failed"}));
  CHECK(flaky[0]["text"].get<std::string>().find("counted as passed") != std::string::npos);
  // No flaky test, no such property.
  CHECK_FALSE(json::parse(render_sarif(report_test::real_contract())).contains("properties"));

  const std::string junit = render_gates_junit(contract);
  CHECK(occurrences(junit, "name=\"flaky_test\"") == 2);  // one per candidate
  CHECK(junit.find("value=\"ctest::timing|&lt;slow") != std::string::npos);
  CHECK(junit.find("co (flaky in baseline; baseline: failed, passed; lucky: passed)") != std::string::npos);
}
