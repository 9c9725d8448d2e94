// The leaderboard's renderers: the JSON contract, escaping of hostile agent
// names, and the HTML page (table, Pareto frontier and trends as inline SVG)
// rendered by a real headless Chromium (visible text and SVG checked,
// screenshot kept).
#include "report/report_fixtures.hpp"

#include <string>

#include <hydra/leaderboard/leaderboard.hpp>
#include <hydra/report/leaderboard.hpp>

namespace lb = hydra::leaderboard;
using hydra::store::CandidateRow;

namespace {

const char* const chromium_flags =
    " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
    " --disable-component-update --disable-sync";

CandidateRow attempt(const std::string& agent, const std::string& task, std::int64_t number, double total,
                     bool mergeable, double cost, std::int64_t day) {
  CandidateRow row;
  row.agent = agent;
  row.task = task;
  row.attempt = number;
  row.total = total;
  row.mergeable = mergeable;
  row.metrics.cost_usd = cost;
  row.recorded_at = 1772323200 + day * 86400;  // from 2026-03-01
  return row;
}

/// Three agents over four tasks on three days; one with a hostile name.
lb::Leaderboard sample_board() {
  std::vector<CandidateRow> rows;
  for (int task = 0; task < 4; ++task) {
    const std::string name = "task-" + std::to_string(task);
    rows.push_back(attempt("alpha", name, 1, 100 - task, true, 0.5, task % 3));
    rows.push_back(attempt("alpha", name, 2, 90, task != 3, 0.5, task % 3));
    rows.push_back(attempt("beta", name, 1, 80 + task, task % 2 == 0, 0.2, task % 3));
    rows.push_back(attempt(report_test::hostile_agent, name, 1, 60, false, 0.9, task % 3));
  }
  return lb::compute(rows, {});
}

}  // namespace

TEST_CASE("the leaderboard JSON contract and Markdown", "[report][leaderboard]") {
  const lb::Leaderboard board = sample_board();
  hydra::store::RowFilter filter;
  filter.agents = {"alpha"};
  const auto json = hydra::report::to_json(board, filter);
  CHECK(json["schema"] == "hydra-score/leaderboard/1");
  CHECK(json["filters"]["agents"] == nlohmann::json::array({"alpha"}));
  CHECK(json["bootstrap"]["seed"] == 20240601);
  CHECK(json["agents"][0]["agent"] == "alpha");
  // alpha: 7 of 8 attempts mergeable; per task 1, 1, 1, 0.5: 0.875.
  CHECK(json["agents"][0]["mergeable_rate"]["estimate"] == 0.875);
  CHECK(json["agents"][0]["pass"][1]["pass_hat_k"] == 0.75);
  CHECK(json["frontier"]["agents"] == nlohmann::json::array({"beta", "alpha"}));
  CHECK(hydra::report::to_json(board, filter) == json);  // deterministic
  const std::string markdown = hydra::report::render_markdown(board);
  CHECK(markdown.find("claude\\|&lt;fast&gt;&amp;co") != std::string::npos);  // a pipe cannot end a cell
  CHECK(markdown.find("Pareto frontier (mergeable rate against cost per attempt): alpha, beta.") != std::string::npos);
  const std::string table = hydra::report::render_table(board);
  CHECK(table.find("alpha vs beta: 4 common tasks") != std::string::npos);
}

TEST_CASE("headless Chromium shows the leaderboard, its frontier and its trends", "[report][chromium][leaderboard]") {
  const auto artifacts = report_test::artifacts_dir();
  const auto page = artifacts / "leaderboard.html";
  const std::string html = hydra::report::render_html(sample_board());
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<fast>") == std::string::npos);  // escaped
  hydra::util::write_file_atomic(page, html);
  const std::string url = "file://" + page.string();

  SECTION("visible text and the drawn charts") {
    hydra::util::TempDir profile("hydra-chromium");
    const auto dom = artifacts / "leaderboard.dom.html";
    const std::string command = std::string("/usr/bin/chromium") + chromium_flags +
                                " --user-data-dir=" + report_test::shell_quote(profile.path().string()) +
                                " --dump-dom " + report_test::shell_quote(url) + " > " +
                                report_test::shell_quote(dom.string()) + " 2> " +
                                report_test::shell_quote((artifacts / "chromium-leaderboard.log").string());
    REQUIRE(report_test::run_shell(command) == 0);
    const std::string rendered = hydra::util::read_file(dom);
    CHECK(rendered.find("HydraScore leaderboard") != std::string::npos);
    CHECK(rendered.find("Pareto frontier: mergeable rate against cost") != std::string::npos);
    CHECK(rendered.find("Trends: mean composite by day") != std::string::npos);
    // The hostile name is shown as typed (escaped in the DOM), never as markup.
    CHECK(rendered.find("claude|&lt;fast&gt;&amp;co") != std::string::npos);
    CHECK(rendered.find("<fast>") == std::string::npos);
    // The parsed DOM holds both charts: points per agent, the frontier's line, one line per agent's trend.
    std::size_t svgs = 0;
    for (auto at = rendered.find("<svg"); at != std::string::npos; at = rendered.find("<svg", at + 1)) ++svgs;
    CHECK(svgs == 2);
    CHECK(rendered.find("class=\"frontier\"") != std::string::npos);
    CHECK(rendered.find("alpha (frontier)") != std::string::npos);
    CHECK(rendered.find("beta (frontier)") != std::string::npos);
    CHECK(rendered.find("2026-03-03") != std::string::npos);  // the trends' last day
    CHECK(rendered.find("<polyline fill=\"none\" stroke=") != std::string::npos);
  }
  SECTION("screenshot") {
    hydra::util::TempDir profile("hydra-chromium");
    const auto screenshot = artifacts / "leaderboard.png";
    std::filesystem::remove(screenshot);
    const std::string command = std::string("/usr/bin/chromium") + chromium_flags +
                                " --user-data-dir=" + report_test::shell_quote(profile.path().string()) +
                                " --hide-scrollbars --window-size=1280,1600 --screenshot=" +
                                report_test::shell_quote(screenshot.string()) + " " + report_test::shell_quote(url) +
                                " > " + report_test::shell_quote((artifacts / "chromium-leaderboard-shot.log").string()) +
                                " 2>&1";
    REQUIRE(report_test::run_shell(command) == 0);
    REQUIRE(std::filesystem::exists(screenshot));
    const std::string png = hydra::util::read_file(screenshot);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(png.size() > 10000);
  }
}
