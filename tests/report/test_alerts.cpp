// Alerts (docs/reports.md, "Alerts"): every report says first when a run's
// code ran unconfined or with network.
#include "report/report_fixtures.hpp"

#include <hydra/report/report.hpp>

namespace {

const std::string unconfined =
    "candidate clean-fix's code ran UNCONFINED (bubblewrap (bwrap) is not installed): it could read the user's "
    "files and secrets, reach the network and write outside its trees";
const std::string networked = "candidate <deletes-tests>'s code ran with network access ([sandbox] network = true)";

nlohmann::json alerted_contract() {
  nlohmann::json contract = report_test::real_contract();
  contract["alerts"] = {unconfined, networked};
  return contract;
}

}  // namespace

TEST_CASE("every report says first that candidate code ran unconfined or with network", "[report]") {
  const nlohmann::json contract = alerted_contract();
  SECTION("terminal: right under the title, wrapped, each marked") {
    const std::string text = hydra::report::render_terminal(contract, {});
    const auto second_line = text.find('\n') + 1;
    CHECK(text.compare(second_line, 10, "WARNING:  ") == 0);
    CHECK(text.find("WARNING:  candidate clean-fix's code ran UNCONFINED") == second_line);
    CHECK(text.find("WARNING:  candidate <deletes-tests>'s code ran with network access") != std::string::npos);
    CHECK(text.find("WARNING:") < text.find("Baseline:"));
  }
  SECTION("Markdown: a warning block right under the heading, escaped") {
    const std::string text = hydra::report::render_markdown(contract);
    CHECK(text.rfind("## HydraScore ranking\n\n> [!WARNING]\n> **Candidate code was not confined**\n>\n> - ", 0) == 0);
    CHECK(text.find("&lt;deletes-tests&gt;") != std::string::npos);
    CHECK(text.find("<deletes-tests>") == std::string::npos);
  }
  SECTION("HTML: an alert box right under the page heading, escaped") {
    const std::string text = hydra::report::render_html(contract);
    const auto heading = text.find("<h1>HydraScore report</h1>\n");
    REQUIRE(heading != std::string::npos);
    CHECK(text.find("<section class=\"alert\" id=\"alerts\">") == heading + std::string("<h1>HydraScore report</h1>\n").size());
    CHECK(text.find("&lt;deletes-tests&gt;") != std::string::npos);
  }
  SECTION("SARIF: top-level properties before the runs, and each run's first notifications") {
    const auto sarif = nlohmann::json::parse(hydra::report::render_sarif(contract));
    CHECK(sarif["properties"]["hydraAlerts"] == nlohmann::json({unconfined, networked}));
    for (const auto& run : sarif["runs"]) {
      const auto& notifications = run["invocations"][0]["toolExecutionNotifications"];
      CHECK(notifications[0]["level"] == "error");
      CHECK(notifications[0]["message"]["text"] == unconfined);
      CHECK(notifications[1]["message"]["text"] == networked);
    }
    const std::string text = hydra::report::render_sarif(contract);
    CHECK(text.find("hydraAlerts") < text.find("\"runs\""));
  }
  SECTION("JUnit of the gates: an alert property of every suite") {
    const std::string text = hydra::report::render_gates_junit(contract);
    CHECK(text.find("<property name=\"alert\" value=\"" + unconfined + "\"") != std::string::npos);
  }
  SECTION("no alerts: none of it") {
    const nlohmann::json plain = report_test::real_contract();
    CHECK(hydra::report::render_terminal(plain, {}).find("WARNING:") == std::string::npos);
    CHECK(hydra::report::render_markdown(plain).find("[!WARNING]") == std::string::npos);
    CHECK(hydra::report::render_html(plain).find("id=\"alerts\"") == std::string::npos);
    CHECK(hydra::report::render_sarif(plain).find("hydraAlerts") == std::string::npos);
    CHECK(hydra::report::render_gates_junit(plain).find("name=\"alert\"") == std::string::npos);
  }
}
