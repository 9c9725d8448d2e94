// `hydra-score record` + `score` + `replay` over the raw artifacts of real
// cmake/ctest/clang-tidy runs of example-project (tests/fixtures/runs/raw/),
// tampering with a sealed artifact, and deterministic output.
#include "cli/cli_support.hpp"

#include <string>
#include <vector>

using cli_test::run_tool;
using nlohmann::json;

namespace {

/// A temporary directory holding run directories recorded from the raw
/// artifacts: baseline (with example-project's hydra.toml), clean-fix
/// (agent took 600 s), breaks-test (300 s) and protected-lint (400 s, from a
/// metrics file). Paths given to the tool are relative to `dir`.
class RecordedRuns {
 public:
  RecordedRuns() {
    auto baseline = cli_test::record_arguments("baseline", "baseline");
    baseline.insert(baseline.end(), {"--config", cli_test::example_config.string()});
    record(baseline);

    auto clean_fix = cli_test::record_arguments("clean-fix", "clean-fix");
    clean_fix.insert(clean_fix.end(), {"--agent-seconds", "600"});
    record(clean_fix);

    auto breaks_test = cli_test::record_arguments("breaks-test", "breaks-test");
    breaks_test.insert(breaks_test.end(), {"--agent-seconds", "300"});
    record(breaks_test);

    cli_test::write_bytes(dir.path() / "protected-lint-metrics.json", R"({"duration_seconds": 400, "tokens": 51234})");
    auto protected_lint = cli_test::record_arguments("protected-lint", "protected-lint");
    protected_lint.insert(protected_lint.end(), {"--metrics", "protected-lint-metrics.json"});
    record(protected_lint);
  }

  /// `score` of the three candidates, in the order clean-fix, breaks-test, protected-lint.
  cli_test::ToolResult score(const std::string& json_file) const {
    return run_tool({"score", "--baseline", "baseline", "--candidate", "clean-fix", "--candidate", "breaks-test",
                     "--candidate", "protected-lint", "--json", json_file},
                    dir.path());
  }

  hydra::util::TempDir dir{"hydra-cli-record"};

 private:
  void record(const std::vector<std::string>& arguments) {
    const auto result = run_tool(arguments, dir.path());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  }
};

}  // namespace

TEST_CASE("record and score rank candidates recorded from real ctest and clang-tidy artifacts", "[cli]") {
  RecordedRuns runs;
  SECTION("valid input") {
    const auto scored = runs.score("score.json");
    INFO(scored.output);
    // The top candidate (clean-fix) is mergeable: exit 0.
    REQUIRE(scored.exit_code == 0);
    CHECK(scored.output.find("clean-fix") != std::string::npos);  // the table
    const json contract = cli_test::read_json(runs.dir.path() / "score.json");

    // Weights from example-project/hydra.toml: build 30, tests 30, lint 15,
    // diff scope 15, speed 10 (all active: sum 100).
    // Baseline (raw/baseline): build exit 0; ctest 9 of 10 passed
    // (count.lines_without_trailing_newline fails); clang-tidy 0 errors, 2 warnings.
    CHECK(contract["baseline"]["summary"]["tests"]["total"] == 10);
    CHECK(contract["baseline"]["summary"]["tests"]["passed"] == 9);
    CHECK(contract["baseline"]["summary"]["lint"]["warnings"] == 2);

    // Successful candidates for speed (mergeable): clean-fix and
    // protected-lint (breaks-test fails the regression gate).
    // fastest = min(600, 400) = 400 s.
    //
    // clean-fix: tests 12/12, new_tests 12 - 10 = 2:
    //   1.0*100 - max(0, 9 - 12)/9*60 + min(10, 2*0.5) = 101 -> clamp 100
    //   lint 2 -> 2 warnings: 100 - 0*12 - 0*2 + 0 = 100
    //   diff 3 files, churn 16 + 1 = 17 (<= 10 files, <= 200 lines) -> 0.5*100 + 0.5*100 = 100
    //   speed 400/600*100 = 66.67
    //   total (30*100 + 30*100 + 15*100 + 15*100 + 10*66.67) / 100 = 96.667 -> 96.67
    // breaks-test: tests 8/10: 0.8*100 - max(0, 9 - 8)/9*60 + 0 = 80 - 6.67 = 73.33
    //   speed clamp(400/300*100, 0, 100) = 100 (include_failed)
    //   total (30*100 + 30*73.33 + 15*100 + 15*100 + 10*100) / 100 = 9199.9/100 = 92.00
    //   gate: 1 of 9 baseline-passing tests regressed = 11.11% > 0% -> not mergeable
    // protected-lint: tests 12/12 -> 100; lint 2 -> 4 warnings: 100 - 2*2 = 96
    //   diff 4 files, churn 39 + 4 = 43 -> 100, but cmake/TextstatsWarnings.cmake is
    //   protected: min(100, 30) = 30; speed 400/400*100 = 100
    //   total (30*100 + 30*100 + 15*96 + 15*30 + 10*100) / 100 = 8890/100 = 88.9
    CHECK(cli_test::ranked_agents(contract) == std::vector<std::string>{"clean-fix", "breaks-test", "protected-lint"});

    const json& clean_fix = cli_test::ranking_of(contract, "clean-fix");
    CHECK(clean_fix["rank"] == 1);
    CHECK(clean_fix["mergeable"] == true);
    CHECK(clean_fix["total"] == Approx(96.67));
    CHECK(clean_fix["breakdown"]["tests"] == Approx(100.0));
    CHECK(clean_fix["breakdown"]["speed"] == Approx(66.67));
    CHECK(clean_fix["dimensions"]["tests"]["evidence"]["new_test_bonus"] == Approx(1.0));  // min(10, 2*0.5)
    CHECK(clean_fix["dimensions"]["diff_scope"]["evidence"]["churn"] == 17);                // 16 + 1
    CHECK(clean_fix["dimensions"]["speed"]["evidence"]["fastest_successful_seconds"] == Approx(400.0));

    const json& breaks_test = cli_test::ranking_of(contract, "breaks-test");
    CHECK(breaks_test["rank"] == 2);
    CHECK(breaks_test["mergeable"] == false);
    CHECK(breaks_test["total"] == Approx(92.0));
    CHECK(breaks_test["breakdown"]["tests"] == Approx(73.33));
    CHECK(breaks_test["dimensions"]["tests"]["evidence"]["regression"] == 1);  // max(0, 9 - 8)
    REQUIRE(breaks_test["gate_failures"].size() == 1);
    CHECK(breaks_test["gate_failures"][0]["gate"] == "max_test_regression_percent");
    // By identity both count.lines_with_trailing_newline and count.empty_text regressed.
    CHECK(breaks_test["tests"]["regressed"].size() == 2);

    const json& protected_lint = cli_test::ranking_of(contract, "protected-lint");
    CHECK(protected_lint["rank"] == 3);
    CHECK(protected_lint["mergeable"] == true);
    CHECK(protected_lint["total"] == Approx(88.9));
    CHECK(protected_lint["breakdown"]["lint"] == Approx(96.0));
    CHECK(protected_lint["breakdown"]["diff_scope"] == Approx(30.0));
    CHECK(protected_lint["breakdown"]["speed"] == Approx(100.0));  // duration from the metrics file: 400/400
    CHECK(protected_lint["dimensions"]["diff_scope"]["evidence"]["capped_at_30"] == true);
    CHECK(protected_lint["dimensions"]["diff_scope"]["evidence"]["files_created"] == 1);  // tests/test_lines.cpp
    CHECK(protected_lint["dimensions"]["diff_scope"]["evidence"]["protected_paths_touched"] ==
          json::array({"cmake/TextstatsWarnings.cmake"}));
    // The two new clang-tidy findings, identified without line numbers.
    REQUIRE(protected_lint["lint"]["introduced"].size() == 2);
    CHECK(protected_lint["lint"]["introduced"][0]["checks"] == json::array({"cppcoreguidelines-init-variables"}));
    CHECK(protected_lint["lint"]["introduced"][0]["source_line"] == "intlines;");
  }
  SECTION("bad input") {
    // No candidate at all is bad usage, not an empty ranking.
    const auto scored = run_tool({"score", "--baseline", "baseline"}, runs.dir.path());
    CHECK(scored.exit_code == 2);
    CHECK(scored.output.find("--candidate") != std::string::npos);
  }
}

TEST_CASE("replay confirms a score byte for byte and refuses a tampered artifact", "[cli]") {
  RecordedRuns runs;
  REQUIRE(runs.score("score.json").exit_code == 0);
  SECTION("valid input") {
    const auto replayed = run_tool({"replay", "score.json"}, runs.dir.path());
    INFO(replayed.output);
    CHECK(replayed.exit_code == 0);
    CHECK(replayed.output.find("re-scored byte for byte") != std::string::npos);
    // A run directory replays too: its signals.json is re-derived from the artifacts.
    const auto run_replayed = run_tool({"replay", "protected-lint"}, runs.dir.path());
    CHECK(run_replayed.exit_code == 0);
  }
  SECTION("bad input") {
    // Change one byte of breaks-test's sealed JUnit file: "passed" -> "Passed".
    const auto junit = runs.dir.path() / "breaks-test" / "junit" / "0.xml";
    REQUIRE(std::filesystem::exists(junit));
    std::string bytes = cli_test::read_bytes(junit);
    const auto at = bytes.find("passed");
    REQUIRE(at != std::string::npos);
    bytes[at] = 'P';
    cli_test::write_bytes(junit, bytes);

    for (const std::vector<std::string>& arguments :
         {std::vector<std::string>{"replay", "score.json"}, std::vector<std::string>{"replay", "breaks-test"},
          std::vector<std::string>{"score", "--baseline", "baseline", "--candidate", "breaks-test"}}) {
      const auto result = run_tool(arguments, runs.dir.path());
      CAPTURE(arguments, result.output);
      CHECK(result.exit_code == 7);
      CHECK(result.output.find("breaks-test/junit/0.xml") != std::string::npos);
    }
    // A file slipped into a sealed run directory is tampering too.
    cli_test::write_bytes(runs.dir.path() / "clean-fix" / "extra.log", "not part of the capture\n");
    const auto added = run_tool({"replay", "clean-fix"}, runs.dir.path());
    CHECK(added.exit_code == 7);
    CHECK(added.output.find("clean-fix/extra.log") != std::string::npos);
  }
}

TEST_CASE("score gives byte-identical JSON for the same inputs", "[cli]") {
  RecordedRuns runs;
  REQUIRE(runs.score("first.json").exit_code == 0);
  REQUIRE(runs.score("second.json").exit_code == 0);
  const std::string first = cli_test::read_bytes(runs.dir.path() / "first.json");
  const std::string second = cli_test::read_bytes(runs.dir.path() / "second.json");
  CHECK(first.size() > 1000);
  CHECK(first == second);
  // Recording the same artifacts again, in another directory, gives the same
  // digests, hence the same run_id and the same bytes.
  RecordedRuns again;
  REQUIRE(again.score("third.json").exit_code == 0);
  const std::string third = cli_test::read_bytes(again.dir.path() / "third.json");
  CHECK(json::parse(third)["run_id"] == json::parse(first)["run_id"]);
  CHECK(third == first);
}

TEST_CASE("record takes the linters' versions and the SARIF report names them", "[cli][sarif]") {
  hydra::util::TempDir dir("hydra-cli-tool-version");
  const std::string version = "Debian LLVM version 14.0.6";
  for (const char* name : {"baseline", "clean-fix"}) {
    auto arguments = cli_test::record_arguments(name, name);
    arguments.insert(arguments.end(), {"--tool-version", "clang-tidy=" + version});
    const auto result = run_tool(arguments, dir.path());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  }
  CHECK(cli_test::read_json(dir.path() / "clean-fix" / "manifest.json").at("tools").at("clang-tidy") == version);
  const auto scored = run_tool({"score", "--baseline", "baseline", "--candidate", "clean-fix", "--sarif", "score.sarif",
                                "--no-gate-exit", "--quiet"},
                               dir.path());
  INFO(scored.output);
  REQUIRE(scored.exit_code == 0);
  const json sarif = cli_test::read_json(dir.path() / "score.sarif");
  bool named = false;
  for (const auto& run : sarif.at("runs")) {
    const auto& driver = run.at("tool").at("driver");
    if (driver.at("name") != "clang-tidy") continue;
    named = true;
    CHECK(driver.at("version") == "14.0.6");
    CHECK(driver.at("fullName") == version);
  }
  CHECK(named);
  SECTION("bad usage: a value that is not NAME=VERSION, or a tool given twice") {
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--tool-version", "clang-tidy"}, {"--tool-version", "=14"},
          {"--tool-version", "clang-tidy=1", "--tool-version", "clang-tidy=2"}}) {
      auto arguments = cli_test::record_arguments("clean-fix", "again");
      arguments.insert(arguments.end(), extra.begin(), extra.end());
      const auto result = run_tool(arguments, dir.path());
      CAPTURE(extra);
      CHECK(result.exit_code == 2);
      CHECK(result.output.find("--tool-version") != std::string::npos);
      CHECK_FALSE(std::filesystem::exists(dir.path() / "again"));
    }
  }
}
