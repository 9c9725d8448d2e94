// The Markdown report: golden output and escaping of user-controlled strings.
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/report.hpp>
#include <hydra/report/text.hpp>

#include <sstream>
#include <string>

using hydra::report::escape_markdown;
using hydra::report::render_markdown;

namespace {

/// Pipes that end a GFM table cell: not preceded by a backslash.
std::size_t unescaped_pipes(const std::string& line) {
  std::size_t count = 0;
  for (std::size_t index = 0; index < line.size(); ++index) {
    if (line[index] == '|' && (index == 0 || line[index - 1] != '\\')) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("render_markdown matches the golden report", "[report][golden]") {
  const auto contract = report_test::real_contract();
  SECTION("valid input") {
    const std::string markdown = render_markdown(contract);
    report_test::check_golden("report.md", markdown);
    CHECK(render_markdown(contract) == markdown);  // deterministic
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(render_markdown(nlohmann::json()), hydra::Error);
  }
}

TEST_CASE("render_markdown keeps every table intact whatever the strings hold", "[report]") {
  const std::string markdown = render_markdown(report_test::hostile_contract());
  std::istringstream lines(markdown);
  std::string line;
  std::size_t columns = 0;  // pipes per row of the current table
  std::size_t table_rows = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("|", 0) != 0) {
      columns = 0;
      continue;
    }
    CAPTURE(line);
    if (columns == 0) columns = unescaped_pipes(line);
    CHECK(unescaped_pipes(line) == columns);
    ++table_rows;
  }
  CHECK(table_rows > 10);
  // The agent "claude|<fast>&co", the message "... | `a*b` <here>" and the
  // path "/home/ci/project/src/parse|x.cpp" (put into a copy of the real
  // contract, see report_fixtures.hpp) arrive escaped; the finding keeps its
  // real line and column (7:22).
  CHECK(markdown.find("claude\\|&lt;fast&gt;&amp;co") != std::string::npos);
  CHECK(markdown.find("implementation-defined \\| \\`a\\*b\\` &lt;here&gt;") != std::string::npos);
  CHECK(markdown.find("/home/ci/project/src/parse\\|x.cpp:7:22") != std::string::npos);
  CHECK(markdown.find("<fast>") == std::string::npos);
  CHECK(markdown.find("<here>") == std::string::npos);
}

TEST_CASE("escape_markdown makes user strings literal", "[report]") {
  SECTION("valid input") {
    CHECK(escape_markdown("plain text 1.5") == "plain text 1.5");
    CHECK(escape_markdown("a|b") == "a\\|b");
    CHECK(escape_markdown("<script>&") == "&lt;script&gt;&amp;");
    CHECK(escape_markdown("*bold* _it_ `code` [link](x) ~s~") == "\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](x) \\~s\\~");
    CHECK(escape_markdown("@team #12 $x$ a.cpp:4:2") == "\\@team \\#12 \\$x\\$ a.cpp:4:2");
    CHECK(escape_markdown("back\\slash") == "back\\\\slash");
  }
  SECTION("bad input") {
    // Line breaks would end a table row; control characters are dropped.
    CHECK(escape_markdown("line one\nline two\r\tend") == "line one line two  end");
    CHECK(escape_markdown(std::string("bell\x07", 5)) == "bell?");
  }
}

TEST_CASE("render_markdown and render_html list anti-gaming findings and the protection in force", "[report]") {
  auto contract = report_test::real_contract();
  // deletes-tests deleted two tests and their assertions (recorded run).
  const std::string markdown = hydra::report::render_markdown(contract);
  CHECK(markdown.find("**Anti-gaming findings:**") != std::string::npos);
  CHECK(markdown.find("test count.empty\\_text: dropped") != std::string::npos);
  CHECK(markdown.find("assertion removed: tests/test\\_count.cpp") != std::string::npos);
  const std::string html = hydra::report::render_html(contract);
  CHECK(html.find("<h4>Anti-gaming findings</h4>") != std::string::npos);
  CHECK(html.find("test count.empty_text: dropped") != std::string::npos);
  // A candidate captured with a sandbox says so.
  contract["rankings"][0]["run"]["sandbox"] = "bubblewrap: read-only outside the trees";
  CHECK(hydra::report::render_markdown(contract).find("**Protection while its code ran:** bubblewrap") !=
        std::string::npos);
  // So does one whose capture used the caches (run.caches, from the manifest's "caches").
  contract["rankings"][0]["run"]["caches"] = "ccache: 5 of 6 compilations from the cache; lint: 5 of 6 translation units from the cache";
  CHECK(hydra::report::render_markdown(contract).find("**Capture caches:** ccache: 5 of 6 compilations") !=
        std::string::npos);
  CHECK(hydra::report::render_html(contract).find("Capture caches: ccache: 5 of 6") != std::string::npos);
  // And one captured again alone after a step ran out of time beside other captures.
  CHECK(hydra::report::render_markdown(contract).find("Captured again alone") == std::string::npos);
  contract["rankings"][0]["run"]["retried_alone"] = "its build step ran out of time with 1 of 2 jobs";
  CHECK(hydra::report::render_markdown(contract).find(
            "**Captured again alone:** its build step ran out of time with 1 of 2 jobs") != std::string::npos);
  CHECK(hydra::report::render_html(contract).find("Captured again alone: its build step ran out of time") !=
        std::string::npos);
  const std::string terminal = hydra::report::render_terminal(contract, {});
  CHECK(terminal.find("Captured again alone:\n  1. " + contract["rankings"][0]["agent"].get<std::string>() +
                      ": its build step ran out of time with 1 of 2 jobs\n") != std::string::npos);
}

TEST_CASE("every report shows whether each candidate resolved the task", "[report][resolution]") {
  auto contract = report_test::real_contract();
  SECTION("valid input: no resolution, no Resolved column") {
    CHECK(hydra::report::render_markdown(contract).find("Resolved") == std::string::npos);
    CHECK(hydra::report::render_terminal(contract, {}).find("Resolved") == std::string::npos);
  }
  SECTION("valid input: a column, the acceptance tests and what each leaves failing") {
    const auto acceptance = nlohmann::json::array({"count.lines_without_trailing_newline", "count.private_lines"});
    contract["rankings"][0]["resolution"] = {{"resolved", true}, {"acceptance_tests", acceptance},
                                            {"still_failing", nlohmann::json::array()}};
    contract["rankings"][1]["resolution"] = {{"resolved", false}, {"acceptance_tests", acceptance},
                                            {"still_failing", nlohmann::json::array({"count.private_lines"})}};
    const std::string terminal = hydra::report::render_terminal(contract, {});
    CHECK(terminal.find("Resolved  Mergeable") != std::string::npos);
    // Wrapped at the terminal's width.
    CHECK(terminal.find("Acceptance tests (private tests the baseline fails):") != std::string::npos);
    CHECK(terminal.find("count.private_lines") != std::string::npos);
    const std::string markdown = hydra::report::render_markdown(contract);
    CHECK(markdown.find("| Resolved | Mergeable |") != std::string::npos);
    CHECK(markdown.find("**Resolution:** resolved") != std::string::npos);
    CHECK(markdown.find("**Resolution:** UNRESOLVED: count.private\\_lines") != std::string::npos);
    const std::string html = hydra::report::render_html(contract);
    CHECK(html.find("<th>Resolved</th>") != std::string::npos);
    CHECK(html.find("✗ unresolved") != std::string::npos);
    CHECK(html.find("UNRESOLVED: count.private_lines") != std::string::npos);
  }
}
