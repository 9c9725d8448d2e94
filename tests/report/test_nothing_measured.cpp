// Every report says what measured nothing (docs/reports.md, "Nothing measured").
#include <catch2/catch.hpp>

#include <hydra/report/report.hpp>
#include <hydra/util/text.hpp>

#include "report/report_fixtures.hpp"

using nlohmann::json;

namespace {

/// The real contract, with a baseline whose 3 tests were all skipped and
/// whose lint step linted no translation unit, and the lines the scoring
/// writes for that.
json nothing_measured_contract() {
  json contract = report_test::real_contract();
  contract["baseline"]["summary"]["tests"] = {{"total", 3}, {"passed", 0}, {"failed", 0}, {"skipped", 3}};
  contract["baseline"]["summary"]["lint"]["units"] = 0;
  contract["nothing_measured"] = {
      "tests: nothing measured: no test ran in the baseline (all 3 recorded tests skipped or disabled) or any "
      "candidate (inactive: left out of every total)",
      "lint: nothing measured: baseline: the lint step linted no translation unit (inactive: left out of every "
      "total)"};
  return contract;
}

}  // namespace

TEST_CASE("every report says what measured nothing", "[report]") {
  const json contract = nothing_measured_contract();

  const std::string terminal = hydra::report::render_terminal(contract, {});
  CHECK(terminal.find("Baseline: build passed in 12.6 s; NO TEST RAN (all 3 skipped or disabled); lint NOTHING "
                      "LINTED (0 translation units)\nNothing measured:\n  ! tests: nothing measured: no test ran") !=
        std::string::npos);
  // The lines are wrapped to the 100 columns of the gate failures.
  const std::size_t start = terminal.find("Nothing measured:");
  for (const auto& line : hydra::util::split(terminal.substr(start, terminal.find("\n\n", start) - start), '\n'))
    CHECK(line.size() <= 100);
  CHECK(terminal.find("\n    ", start) < terminal.find("\n\n", start));  // a long line goes on, indented

  const std::string markdown = hydra::report::render_markdown(contract);
  CHECK(markdown.find("NO TEST RAN (all 3 skipped or disabled), lint NOTHING LINTED (0 translation units).") !=
        std::string::npos);
  CHECK(markdown.find("> ⚠️ **Nothing measured**\n>\n> - tests: nothing measured: no test ran in the baseline") !=
        std::string::npos);

  const std::string html = hydra::report::render_html(contract);
  CHECK(html.find("<section class=\"alert\" id=\"nothing-measured\">\n<h2>Nothing measured</h2>\n<ul>\n<li>tests: "
                  "nothing measured") != std::string::npos);

  const json sarif = json::parse(hydra::report::render_sarif(contract));
  for (const auto& run : sarif["runs"]) {
    REQUIRE(run.contains("invocations"));
    CHECK(run["invocations"][0]["executionSuccessful"] == true);
    CHECK(run["invocations"][0]["toolExecutionNotifications"][1]["message"]["text"] ==
          "Nothing measured: lint: nothing measured: baseline: the lint step linted no translation unit (inactive: "
          "left out of every total)");
    CHECK(run["invocations"][0]["toolExecutionNotifications"][1]["level"] == "warning");
  }

  const std::string junit = hydra::report::render_gates_junit(contract);
  CHECK(junit.find("<property name=\"nothing_measured\" value=\"lint: nothing measured: baseline:") !=
        std::string::npos);

  SECTION("a contract that measured everything says nothing of it") {
    const json real = report_test::real_contract();
    CHECK(hydra::report::render_terminal(real, {}).find("Nothing measured") == std::string::npos);
    CHECK(hydra::report::render_markdown(real).find("Nothing measured") == std::string::npos);
    CHECK(hydra::report::render_html(real).find("nothing-measured") == std::string::npos);
    CHECK(hydra::report::render_sarif(real).find("invocations") == std::string::npos);
  }
}
