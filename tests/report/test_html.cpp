// The HTML report: golden output, self-containment, escaping, and a real
// headless Chromium rendering it (visible text checked, screenshot kept).
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/report.hpp>
#include <hydra/report/text.hpp>

#include <string>

using hydra::report::render_html;

namespace {

const char* const chromium_flags =
    " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
    " --disable-component-update --disable-sync";

/// The text a reader sees in `dom`: <style> and tags removed, entities decoded.
std::string visible_text(const std::string& dom) {
  std::string text;
  std::size_t index = 0;
  while (index < dom.size()) {
    if (dom.compare(index, 6, "<style") == 0) {
      const auto end = dom.find("</style>", index);
      index = end == std::string::npos ? dom.size() : end + 8;
    } else if (dom[index] == '<') {
      const auto end = dom.find('>', index);
      index = end == std::string::npos ? dom.size() : end + 1;
      text += ' ';
    } else {
      text += dom[index++];
    }
  }
  std::string decoded;
  for (std::size_t at = 0; at < text.size(); ++at) {
    bool replaced = false;
    for (const auto& [entity, character] : {std::pair<const char*, char>{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'},
                                            {"&quot;", '"'}, {"&#39;", '\''}}) {
      const std::string name(entity);
      if (text.compare(at, name.size(), name) == 0) {
        decoded += character;
        at += name.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) decoded += text[at];
  }
  return decoded;
}

}  // namespace

TEST_CASE("render_html matches the golden page", "[report][golden]") {
  const auto contract = report_test::real_contract();
  SECTION("valid input") {
    const std::string html = render_html(contract);
    report_test::check_golden("report.html", html);
    CHECK(render_html(contract) == html);  // deterministic
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(render_html(nlohmann::json::array()), hydra::Error);
  }
}

TEST_CASE("render_html is self-contained and escapes user strings", "[report]") {
  const std::string html = render_html(report_test::hostile_contract());
  // Nothing is fetched: no scripts, style sheets, fonts or images from elsewhere.
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  std::size_t at = 0;
  while ((at = html.find("http", at)) != std::string::npos) {
    // The only URL allowed is the SVG namespace name, which is never fetched.
    CHECK(html.compare(at, 26, "http://www.w3.org/2000/svg") == 0);
    ++at;
  }
  CHECK(html.find("@media print") != std::string::npos);
  CHECK(html.find("<svg") != std::string::npos);
  // The renamed agent "claude|<fast>&co" and the message "... `a*b` <here>" arrive escaped.
  CHECK(html.find("claude|&lt;fast&gt;&amp;co") != std::string::npos);
  CHECK(html.find("&lt;here&gt;") != std::string::npos);
  CHECK(html.find("<fast>") == std::string::npos);
  CHECK(html.find("<here>") == std::string::npos);
  CHECK(hydra::report::escape_html("<a href=\"x\">'&'</a>") ==
        "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST_CASE("headless Chromium shows the ranking and the gate failures", "[report][chromium]") {
  const auto artifacts = report_test::artifacts_dir();
  const auto page = artifacts / "report.html";
  // The real contract, with one agent renamed to a hostile name that must show as typed.
  hydra::util::write_file_atomic(page, render_html(report_test::hostile_contract()));
  const std::string url = "file://" + page.string();

  SECTION("visible text") {
    hydra::util::TempDir profile("hydra-chromium");
    const auto dom = artifacts / "report.dom.html";
    const std::string command = std::string("/usr/bin/chromium") + chromium_flags +
                                " --user-data-dir=" + report_test::shell_quote(profile.path().string()) +
                                " --dump-dom " + report_test::shell_quote(url) + " > " +
                                report_test::shell_quote(dom.string()) + " 2> " +
                                report_test::shell_quote((artifacts / "chromium-dom.log").string());
    REQUIRE(report_test::run_shell(command) == 0);
    const std::string text = visible_text(hydra::util::read_file(dom));
    // The ranking: every agent, as the reader sees it.
    CHECK(text.find("HydraScore report") != std::string::npos);
    CHECK(text.find("clean-fix") != std::string::npos);
    CHECK(text.find("deletes-tests") != std::string::npos);
    CHECK(text.find("breaks-test") != std::string::npos);
    CHECK(text.find("claude|<fast>&co") != std::string::npos);  // protected-lint, renamed
    // deletes-tests: dropped 2 tests, 1 of them passing in the baseline:
    // tests 100 - 1/9*60 - 5 removed assertions * 2 = 83.33;
    // (100*30 + 83.33*30 + 100*15 + 100*15) / 90 = 8499.9 / 90 = 94.44.
    CHECK(text.find("94.44") != std::string::npos);
    // The gate failures, by identity: deletes-tests dropped 1 baseline-passing
    // test, 1/9 = 11.11% > 0%; breaks-test: 2 baseline-passing tests fail, 2/9 = 22.22%.
    CHECK(text.find("Gate failures") != std::string::npos);
    CHECK(text.find("2 regressions (regressed or dropped tests) against 9 baseline-passing tests (22.22% > 0%)") !=
          std::string::npos);
    CHECK(text.find("1 regression (regressed or dropped tests) against 9 baseline-passing tests (11.11% > 0%)") !=
          std::string::npos);
    CHECK(text.find("test count.empty_text: dropped") != std::string::npos);  // deletes-tests' anti_gaming gate
    // A new clang-tidy finding of protected-lint with its location.
    CHECK(text.find("src/count.cpp:6:7") != std::string::npos);
  }
  SECTION("screenshot") {
    hydra::util::TempDir profile("hydra-chromium");
    const auto screenshot = artifacts / "report.png";
    std::filesystem::remove(screenshot);
    const std::string command = std::string("/usr/bin/chromium") + chromium_flags +
                                " --user-data-dir=" + report_test::shell_quote(profile.path().string()) +
                                " --hide-scrollbars --window-size=1280,1600 --screenshot=" +
                                report_test::shell_quote(screenshot.string()) + " " + report_test::shell_quote(url) +
                                " > " + report_test::shell_quote((artifacts / "chromium-screenshot.log").string()) +
                                " 2>&1";
    REQUIRE(report_test::run_shell(command) == 0);
    REQUIRE(std::filesystem::exists(screenshot));
    const std::string png = hydra::util::read_file(screenshot);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(png.size() > 10000);  // a rendered page, not a blank image
  }
}
