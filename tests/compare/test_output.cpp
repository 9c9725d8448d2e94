// Tests for hydra::compare output: the JSON contract, the terminal table and
// Markdown, rendered from one small comparison.
#include <catch2/catch.hpp>

#include <cmath>

#include <hydra/report/compare.hpp>

using namespace hydra;
using nlohmann::json;

namespace {

/// Reference t1 3/4 (composite 0.75), t2 1/1 with judge 0.5 (0.8);
/// candidate t1 4/4 (1.0), t3 only in the candidate. t2 is dropped.
eval::Comparison sample() {
  eval::TaskResult reference_t1;
  reference_t1.id = "t1";
  reference_t1.source = "ref.json";
  reference_t1.checks = {false, 3, 4};
  eval::TaskResult reference_t2 = reference_t1;
  reference_t2.id = "t2";
  reference_t2.checks = {false, 1, 1};
  reference_t2.judge_score = 0.5;
  reference_t2.judge_rationale = "average";
  eval::TaskResult candidate_t1 = reference_t1;
  candidate_t1.source = "cand.json";
  candidate_t1.checks = {false, 4, 4};
  eval::TaskResult candidate_t3 = candidate_t1;
  candidate_t3.id = "t3";
  return eval::compare_sets({"ref.json", {reference_t1, reference_t2}},
                               {"cand.json", {candidate_t1, candidate_t3}}, {}, {});
}

}  // namespace

TEST_CASE("to_json writes the compare contract", "[compare][output]") {
  SECTION("valid input") {
    const json output = report::to_json(sample(), 4);
    CHECK(output["schema"] == "hydra-score/compare/1");
    CHECK(output["verdict"] == "regressed");  // t2 dropped
    CHECK(output["promote"] == false);
    CHECK(output["exit_code"] == 4);
    CHECK(output["composite_delta_sum"] == 0.25);  // t1: 1.0 - 0.75; t3 not counted
    CHECK(output["thresholds"] ==
          json({{"min_composite_gain", 0.01}, {"regression_composite_drop", 0.05},
                {"objective_drop_is_regression", true}}));
    CHECK(output["eval"]["w_obj"] == 0.6);
    CHECK(output["added_tasks"] == json({"t3"}));
    CHECK(output["hard_regressions"] ==
          json::parse(R"([{"task":"t2","reason":"task missing from the candidate set"}])"));

    const json& t1 = output["tasks"][0];
    CHECK(t1["id"] == "t1");
    CHECK(t1["pairing"] == "paired");
    CHECK(t1["deltas"] == json::parse(R"({"composite":0.25,"objective":0.25,"passed":1,"judge":null,"cost_adjustment":0.0})"));
    CHECK(t1["reference"]["objective"] == json::parse(R"({"passed":3,"total":4,"score01":0.75})"));
    CHECK(t1["reference"]["composite"] == 0.75);  // 0.6*0.75 / 0.6
    CHECK(t1["candidate"]["composite"] == 1.0);   // 0.6*1 / 0.6
    CHECK(t1["candidate"]["judge"].is_null());

    const json& t2 = output["tasks"][1];
    CHECK(t2["pairing"] == "dropped");
    CHECK(t2["candidate"].is_null());
    CHECK(t2["deltas"].is_null());
    CHECK(t2["reference"]["judge"] == json::parse(R"({"score0to1":0.5,"rationale":"average"})"));
    CHECK(t2["reference"]["composite"] == 0.8);  // (0.6*1 + 0.4*0.5) / 1

    CHECK(output["tasks"][2]["pairing"] == "added");
  }
  SECTION("deterministic") {
    CHECK(report::to_json(sample(), 4).dump(2) == report::to_json(sample(), 4).dump(2));
  }
  SECTION("bad input: non-finite numbers are written as null") {
    eval::TaskResult reference;
    reference.id = "t1";
    reference.checks = {false, 1, 1};
    reference.cost.tokens = 10;
    eval::TaskResult candidate = reference;
    candidate.cost.tokens = std::nan("");
    const json output =
        report::to_json(eval::compare_sets({"r", {reference}}, {"c", {candidate}}, {}, {}), 4);
    CHECK(output["tasks"][0]["candidate"]["composite"].is_null());
    CHECK(output["tasks"][0]["deltas"]["composite"].is_null());
    CHECK(output["verdict"] == "regressed");
    CHECK_NOTHROW(json::parse(output.dump()));
  }
}

TEST_CASE("render_table and render_markdown show every task and the verdict", "[compare][output]") {
  const eval::Comparison comparison = sample();
  CHECK(report::render_table(comparison) ==
        "task  reference  candidate  delta      objective   status\n"
        "-------------------------------------------------------------\n"  // 4+9+9+9+10+10 column widths + 5*2 spaces
        "t1    0.750000   1.000000   +0.250000  3/4 -> 4/4  ok\n"
        "t2    0.800000   n/a        -          1/1 -> -    REGRESSION\n"
        "t3    n/a        1.000000   -          - -> 4/4    added\n"
        "hard regression: t2: task missing from the candidate set\n"
        "added tasks (not in the reference): t3\n"
        "verdict: regressed (sum of composite deltas +0.250000, min_composite_gain 0.010000, "
        "1 hard regression); promote: no\n");

  const std::string markdown = report::render_markdown(comparison);
  CHECK_THAT(markdown, Catch::StartsWith("# HydraScore compare: regressed\n"));
  CHECK_THAT(markdown, Catch::Contains("| t1 | 0.750000 | 1.000000 | +0.250000 | 3/4 → 4/4 | - | ok |"));
  CHECK_THAT(markdown, Catch::Contains("## Hard regressions\n\n- t2: task missing from the candidate set"));
  CHECK_THAT(markdown, Catch::Contains("- Promote: **no**"));
  CHECK_THAT(markdown, Catch::Contains("## Added tasks"));
}

TEST_CASE("compare output escapes task ids a candidate controls", "[compare][output]") {
  // A task id with a table pipe, a code-span backtick and a terminal escape
  // (ESC [ 2 J clears the screen).
  eval::TaskResult reference;
  reference.id = "evil|id`\x1b[2J";
  reference.checks.passed = 1;
  reference.checks.total = 1;
  const eval::Comparison comparison = eval::compare_sets({"r", {reference}}, {"c", {}}, {}, {});
  const std::string table = report::render_table(comparison);
  CHECK(table.find('\x1b') == std::string::npos);
  CHECK_THAT(table, Catch::Contains("hard regression: evil|id`?[2J: task missing from the candidate set"));
  const std::string markdown = report::render_markdown(comparison);
  CHECK(markdown.find('\x1b') == std::string::npos);
  CHECK(markdown.find("evil|id") == std::string::npos);  // the pipe would end the table cell
  CHECK_THAT(markdown, Catch::Contains("| evil\\|id\\`"));
}
