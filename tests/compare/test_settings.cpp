// Tests for the [eval], [judge] and [compare] tables of hydra.toml, as
// config::parse reads them (config/module_tables.hpp).
#include <catch2/catch.hpp>

#include <fstream>

#include <hydra/config/config.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

using namespace hydra;

namespace {

struct EvalTables {
  config::EvalSettings eval;
  config::JudgeSettings judge;
};

EvalTables parse_eval_tables(std::string_view text, const std::string& source_name,
                             const std::filesystem::path& base_directory = {}) {
  const config::Config parsed = config::parse(text, source_name, base_directory);
  return {parsed.eval, parsed.judge};
}

EvalTables load_eval_tables(const std::filesystem::path& file) {
  const config::Config loaded = config::load(file);
  return {loaded.eval, loaded.judge};
}

config::CompareThresholds parse_compare_table(std::string_view text, const std::string& source_name) {
  return config::parse(text, source_name).compare;
}

/// The InputError `parse` throws for `text`; fails the test when none.
template <typename Parse>
InputError error_of(Parse parse) {
  try {
    parse();
  } catch (const InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  return InputError("", "");
}

}  // namespace

TEST_CASE("parse_eval_tables reads [eval] and [judge]", "[eval][config]") {
  SECTION("valid input") {
    const auto defaults = parse_eval_tables("[scoring]\nprofile = 'cmake'\n", "hydra.toml");
    CHECK(defaults.eval.objective_weight == 0.6);
    CHECK(defaults.eval.judge_weight == 0.4);
    CHECK(defaults.eval.cost_weight == 0.1);
    CHECK(defaults.judge.command.empty());
    CHECK(defaults.judge.timeout_seconds == 120);

    const auto tables = parse_eval_tables(R"(
[eval]
w_obj = 2
w_judge = 0.5
cost_weight = 0
check_labels = ["unit", "integration"]
check_regex = "^math\\."

[judge]
command = "claude -p --output-format json"
timeout_seconds = 60
rubric = "Correct and small."
template = "prompts/judge.md"
)",
                                                "hydra.toml", "/project");
    CHECK(tables.eval.objective_weight == 2.0);
    CHECK(tables.eval.judge_weight == 0.5);
    CHECK(tables.eval.cost_weight == 0.0);
    CHECK(tables.eval.check_labels == std::vector<std::string>{"unit", "integration"});
    CHECK(tables.eval.check_regex == "^math\\.");
    CHECK(tables.judge.command == "claude -p --output-format json");
    CHECK(tables.judge.timeout_seconds == 60.0);
    CHECK(tables.judge.rubric == "Correct and small.");
    CHECK(tables.judge.prompt_template == std::filesystem::path("/project/prompts/judge.md"));
  }
  SECTION("rubric_file is read relative to the config file") {
    util::TempDir directory("hydra-settings-test");
    std::ofstream(directory.path() / "rubric.md") << "The rubric.\n";
    std::ofstream(directory.path() / "hydra.toml") << "[judge]\ncommand = 'true'\nrubric_file = 'rubric.md'\n";
    const auto tables = load_eval_tables(directory.path() / "hydra.toml");
    CHECK(tables.judge.rubric == "The rubric.\n");
  }
  SECTION("bad input") {
    struct Case {
      const char* text;
      std::uint64_t line;
      std::uint64_t column;
      const char* needle;
    };
    for (const Case& bad : {
             Case{"[eval]\nw_objective = 1\n", 2, 1, "eval.w_objective: unknown key"},
             Case{"[eval]\nw_obj = 'high'\n", 2, 9, "eval.w_obj: expected a number"},
             Case{"[eval]\nw_obj = 0\n", 2, 9, "eval.w_obj: must be greater than 0, got 0"},
             Case{"[eval]\nw_judge = -1\n", 2, 11, "eval.w_judge"},
             Case{"[eval]\ncost_weight = 2\n", 2, 15, "eval.cost_weight: must be between 0 and 1, got 2"},
             Case{"[eval]\ncost_weight = nan\n", 2, 15, "eval.cost_weight"},
             Case{"[eval]\ncheck_labels = 'unit'\n", 2, 16, "expected an array of strings"},
             Case{"[eval]\ncheck_regex = '('\n", 2, 15, "invalid regular expression"},
             Case{"[judge]\ntimeout_seconds = 0\n", 2, 19, "judge.timeout_seconds"},
             Case{"[judge]\nmodel = 'x'\n", 2, 1, "judge.model: unknown key"},
             Case{"eval = 3\n", 1, 8, "eval: expected a table"},
             Case{"[eval\n", 1, 6, ""},
         }) {
      CAPTURE(bad.text);
      const InputError error = error_of([&] { parse_eval_tables(bad.text, "hydra.toml"); });
      CHECK(error.file() == "hydra.toml");
      CHECK(error.line() == bad.line);
      CHECK(error.column() == bad.column);
      CHECK_THAT(error.message(), Catch::Contains(bad.needle));
    }
  }
}

TEST_CASE("parse_compare_table reads [compare] thresholds", "[compare][config]") {
  SECTION("valid input") {
    const auto defaults = parse_compare_table("", "hydra.toml");
    CHECK(defaults.min_composite_gain == 0.01);
    CHECK(defaults.regression_composite_drop == 0.05);
    CHECK(defaults.objective_drop_is_regression);

    const auto thresholds = parse_compare_table(
        "[compare]\nmin_composite_gain = 0.02\nregression_composite_drop = 0\n"
        "objective_drop_is_regression = false\n",
        "hydra.toml");
    CHECK(thresholds.min_composite_gain == 0.02);
    CHECK(thresholds.regression_composite_drop == 0.0);
    CHECK_FALSE(thresholds.objective_drop_is_regression);
  }
  SECTION("bad input") {
    const InputError unknown = error_of([] { parse_compare_table("[compare]\nmin_gain = 1\n", "c.toml"); });
    CHECK(unknown.line() == 2);
    CHECK_THAT(unknown.message(), Catch::Contains("compare.min_gain: unknown key"));
    const InputError negative =
        error_of([] { parse_compare_table("[compare]\nmin_composite_gain = -0.1\n", "c.toml"); });
    CHECK(negative.line() == 2);
    CHECK(negative.column() == 22);
    const InputError not_bool =
        error_of([] { parse_compare_table("[compare]\nobjective_drop_is_regression = 1\n", "c.toml"); });
    CHECK_THAT(not_bool.message(), Catch::Contains("compare.objective_drop_is_regression: expected a boolean, got an integer"));
    CHECK_THROWS_AS(config::validate({-1.0, 0.05, true}), UsageError);
    CHECK_THROWS_AS(config::validate({0.01, std::nan(""), true}), UsageError);
  }
}
