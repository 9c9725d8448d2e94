// Reading the score contract tolerantly: every renderer survives absent and
// null optional parts, and numbers print the same whatever the locale.
#include "report/report_fixtures.hpp"

#include <hydra/error.hpp>
#include <hydra/report/contract.hpp>
#include <hydra/report/report.hpp>
#include <hydra/report/text.hpp>

#include <limits>
#include <string>

using nlohmann::json;

TEST_CASE("read_contract fills gaps and chooses the dimension columns", "[report]") {
  SECTION("valid input") {
    const auto view = hydra::report::read_contract(report_test::real_contract());
    // judge has weight 0: no column. speed has weight 10 but no agent
    // duration was recorded: a column of "-".
    CHECK(view.dimension_names == std::vector<std::string>{"build", "tests", "lint", "diff_scope", "speed"});
    REQUIRE(view.candidates.size() == 4);
    CHECK(view.candidates[0].agent == "clean-fix");
    CHECK(view.candidates[3].agent == "protected-lint");
    const auto* speed = hydra::report::find_dimension(view.candidates[3], "speed");
    REQUIRE(speed != nullptr);
    CHECK_FALSE(speed->active);
    CHECK(speed->reason == "no candidate has a known agent duration");
    // Speed renormalized out: protected-lint's share of build is 30 / (30 + 30 + 15 + 15) = 0.333333.
    CHECK(hydra::report::find_dimension(view.candidates[3], "build")->effective_weight == Approx(0.333333));
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(hydra::report::read_contract(json::array()), hydra::Error);
  }
}

TEST_CASE("every renderer tolerates a contract with null and absent parts", "[report]") {
  const json partial = {
      {"run_id", nullptr},
      {"baseline", {{"summary", {{"build", {{"known", false}}}, {"tests", nullptr}, {"lint", nullptr}}}}},
      {"rankings",
       {{{"agent", "lonely"},
         {"total", nullptr},
         {"breakdown", {{"build", 100}, {"tests", nullptr}}},
         {"gates", nullptr},
         {"tests", nullptr},
         {"lint", {{"introduced", nullptr}}}},
        {{"agent", 7}, {"mergeable", "not a boolean"}}}}};
  const std::string terminal = hydra::report::render_terminal(partial, hydra::report::TerminalOptions{});
  CHECK(terminal.find("lonely") != std::string::npos);
  CHECK(terminal.find("build unknown; NO TEST RAN (no test results recorded); lint did not run") != std::string::npos);
  CHECK(hydra::report::render_markdown(partial).find("lonely") != std::string::npos);
  CHECK(hydra::report::render_html(partial).find("lonely") != std::string::npos);
  CHECK(json::parse(hydra::report::render_sarif(partial))["runs"][0]["results"].empty());
  CHECK(hydra::report::render_gates_junit(partial).find("name=\"lonely\"") != std::string::npos);
  // An empty contract object renders as "nothing scored".
  CHECK(hydra::report::render_markdown(json::object()).find("No candidates were scored.") != std::string::npos);
  CHECK(hydra::report::render_terminal(json::object(), {}).find("No candidates were scored.") != std::string::npos);
}

TEST_CASE("format_number rounds to two decimals without trailing zeros", "[report]") {
  SECTION("valid input") {
    CHECK(hydra::report::format_number(92.22) == "92.22");
    CHECK(hydra::report::format_number(87.67) == "87.67");
    CHECK(hydra::report::format_number(100.0) == "100");
    // deletes-tests' tests before rounding: 100 - 2/9*60 - 5*2 = 76.666667.
    CHECK(hydra::report::format_number(76.666667) == "76.67");
    CHECK(hydra::report::format_number(-0.001) == "0");
    CHECK(hydra::report::format_percent(0.166667) == "16.7%");
  }
  SECTION("bad input") {
    CHECK(hydra::report::format_number(std::numeric_limits<double>::quiet_NaN()) == "-");
    CHECK(hydra::report::format_optional(std::nullopt) == "-");
  }
}
