// Reports of the improvement loop: golden HTML and Markdown, the trajectory chart.
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/report.hpp>

#include <string>

using hydra::report::render_loop_html;
using hydra::report::render_loop_markdown;

namespace {

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

}  // namespace

TEST_CASE("render_loop_html and render_loop_markdown match their goldens", "[report][golden]") {
  const auto report = report_test::real_loop_report();
  SECTION("valid input") {
    const std::string html = render_loop_html(report);
    const std::string markdown = render_loop_markdown(report);
    report_test::check_golden("loop.html", html);
    report_test::check_golden("loop.md", markdown);
    CHECK(render_loop_html(report) == html);  // deterministic
    CHECK(render_loop_markdown(report) == markdown);
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(render_loop_html(nlohmann::json::array()), hydra::Error);
    CHECK_THROWS_AS(render_loop_markdown(nlohmann::json("loop")), hydra::Error);
  }
}

TEST_CASE("render_loop_html draws score and best score with kept and reverted markers", "[report]") {
  const std::string html = render_loop_html(report_test::real_loop_report());
  // Two lines: score and best score.
  CHECK(occurrences(html, "<polyline") == 2);
  // Iteration 1 was kept: 1 green circle, plus 1 in the legend.
  CHECK(occurrences(html, "<circle") == 1 + 1);
  // Iterations 2 and 3 were reverted (ties): 2 red crosses, plus 1 in the legend.
  CHECK(occurrences(html, "stroke=\"#cf222e\"") == 2 + 1);
  // The best score only rises: 0.821429 -> 0.952381.
  CHECK(html.find("Plateau") != std::string::npos);
  CHECK(html.find("Differences under 0.05 may be noise.") != std::string::npos);
  // Mean pass rate of the best state's cases: edge 4/4, parsing 3/3, unit 6/7:
  // (1 + 1 + 0.857143) / 3 = 0.952381.
  CHECK(html.find("Mean pass rate</th><th class=\"num\">0.952</th>") != std::string::npos);  // shown to 3 decimals
  // A changelog with markup arrives escaped.
  auto hostile = report_test::real_loop_report();
  hostile["iterations"][1]["changelog"] = "Handle `a|b` & <edge> cases";
  CHECK(render_loop_html(hostile).find("Handle `a|b` &amp; &lt;edge&gt; cases") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
}

TEST_CASE("loop reports tolerate missing parts", "[report]") {
  SECTION("valid input") {
    const nlohmann::json partial = {
        {"classification", "stuck"},
        {"iterations", {{{"iteration", 0}, {"score", nullptr}, {"action", "baseline"}}, {{"score", 0.4}}}}};
    const std::string html = render_loop_html(partial);
    CHECK(html.find("Stuck") != std::string::npos);
    const std::string markdown = render_loop_markdown(partial);
    CHECK(markdown.find("best score -") != std::string::npos);
    CHECK(markdown.find("| 1 | 0.4 | - |") != std::string::npos);  // the second iteration, numbered by position
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(render_loop_html(nlohmann::json()), hydra::Error);
  }
}

TEST_CASE("loop reports say first when the iterations' code ran unconfined", "[report]") {
  auto report = report_test::real_loop_report();
  const std::string alert = "iterations 0, 1: the tree's code ran UNCONFINED (disabled (--no-sandbox)): it could read "
                            "the user's files and secrets, reach the network and write outside its trees";
  report["alerts"] = {alert};
  CHECK(render_loop_markdown(report).rfind("## HydraScore improvement loop\n\n> [!WARNING]\n> **Candidate code was not "
                                           "confined**\n>\n> - iterations 0, 1: the tree",
                                           0) == 0);
  const std::string html = render_loop_html(report);
  CHECK(html.find("<h1>HydraScore improvement loop</h1>\n<section class=\"alert\" id=\"alerts\">") != std::string::npos);
  CHECK(render_loop_markdown(report_test::real_loop_report()).find("[!WARNING]") == std::string::npos);
}
