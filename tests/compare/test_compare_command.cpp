// Tests for `hydra-score compare` through its registration function
// (hydra::cli::register_compare) on a fresh CLI::App, so the command is
// tested whether or not the tool's main has it wired yet.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include <hydra/util/process.hpp>
#include <hydra/cli/commands.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

using namespace hydra;

namespace {

void write(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }

/// One-task set: t1 with `passed` of 4 checks.
std::string task_file(int passed) {
  return R"({"schema":"hydra-score/tasks/1","tasks":[{"id":"t1","objective":{"passed":)" +
         std::to_string(passed) + R"(,"total":4}}]})";
}

/// Runs `compare` with `arguments`; returns the exit code it stored.
int run_compare(std::vector<std::string> arguments) {
  CLI::App app{"test"};
  int exit_code = -1;
  cli::register_compare(app, exit_code);
  arguments.insert(arguments.begin(), "compare");
  std::reverse(arguments.begin(), arguments.end());  // CLI11 takes a reversed vector
  app.parse(arguments);
  return exit_code;
}

}  // namespace

TEST_CASE("compare command maps the verdict to the exit code", "[compare][cli]") {
  util::TempDir directory("hydra-compare-cli-test");
  const auto& root = directory.path();
  write(root / "three.json", task_file(3));
  write(root / "four.json", task_file(4));
  const std::string three = (root / "three.json").string();
  const std::string four = (root / "four.json").string();

  SECTION("valid input") {
    // 3/4 -> 4/4: composite 0.75 -> 1.0, +0.25: improved
    CHECK(run_compare({"--reference", three, "--candidate", four, "--json", (root / "out.json").string(),
                       "--markdown", (root / "out.md").string()}) == 0);
    const auto output = nlohmann::json::parse(util::read_file(root / "out.json"));
    CHECK(output["verdict"] == "improved");
    CHECK(output["promote"] == true);
    CHECK_THAT(util::read_file(root / "out.md"), Catch::StartsWith("# HydraScore compare: improved"));

    // 3/4 -> 3/4: neutral
    CHECK(run_compare({"--reference", three, "--candidate", three}) == 5);
    // 4/4 -> 3/4: objective drop: regressed
    CHECK(run_compare({"--reference", four, "--candidate", three}) == 4);
    // A gain of 0.25 does not exceed --min-composite-gain 0.25: neutral
    CHECK(run_compare({"--reference", three, "--candidate", four, "--min-composite-gain", "0.25"}) == 5);
    // Without the objective rule the drop of 0.25 still exceeds regression_composite_drop 0.05
    CHECK(run_compare({"--reference", four, "--candidate", three, "--objective-drop-is-regression", "false"}) == 4);
    // ...unless that is widened to 0.3: then the sum -0.25 <= -0.01 still regresses
    CHECK(run_compare({"--reference", four, "--candidate", three, "--objective-drop-is-regression", "false",
                       "--regression-composite-drop", "0.3"}) == 4);
  }
  SECTION("config thresholds apply and flags override them") {
    write(root / "hydra.toml", "[compare]\nmin_composite_gain = 0.3\n");
    const std::string config = (root / "hydra.toml").string();
    CHECK(run_compare({"--reference", three, "--candidate", four, "--config", config}) == 5);  // 0.25 <= 0.3
    CHECK(run_compare({"--reference", three, "--candidate", four, "--config", config,
                       "--min-composite-gain", "0.1"}) == 0);  // 0.25 > 0.1
  }
  SECTION("bad input") {
    write(root / "broken.json", "{\"schema\": \"hydra-score/tasks/1\",\n \"tasks\": [}");
    try {
      run_compare({"--reference", (root / "broken.json").string(), "--candidate", four});
      FAIL("expected an InputError");
    } catch (const InputError& error) {
      CHECK(error.line() == 2);
    }
    CHECK_THROWS_AS(run_compare({"--reference", (root / "missing").string(), "--candidate", four}), InputError);
    CHECK_THROWS_AS(run_compare({"--reference", three, "--candidate", four, "--min-composite-gain", "-1"}),
                    UsageError);
    // Both sets, or --store with both sides named (exit 2 either way).
    CHECK_THROWS_WITH(run_compare({"--reference", three}), Catch::Contains("give --reference SET and --candidate SET"));
    CHECK_THROWS_AS(run_compare({"--store", "results.db", "--reference-agent", "a"}), UsageError);
    CHECK_THROWS_AS(run_compare({"--reference", three, "--candidate", four, "--reference-agent", "a"}), UsageError);
    write(root / "bad.toml", "[compare]\nmin_composite_gain = 'x'\n");
    CHECK_THROWS_AS(run_compare({"--reference", three, "--candidate", four, "--config", (root / "bad.toml").string()}),
                    InputError);
  }
}

TEST_CASE("the built tool runs compare end to end", "[compare][cli]") {
  util::TempDir directory("hydra-compare-tool-test");
  const auto& root = directory.path();
  write(root / "three.json", task_file(3));
  write(root / "four.json", task_file(4));
  auto tool = [&](std::vector<std::string> arguments) {
    util::ProcessRequest request;
    request.argv = {HYDRA_TOOL_PATH, "compare"};
    request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
    return util::run_process(request);
  };
  const std::string three = (root / "three.json").string();
  const std::string four = (root / "four.json").string();

  SECTION("valid input") {
    const auto improved = tool({"--reference", three, "--candidate", four, "--json", (root / "a.json").string()});
    REQUIRE(improved.started);
    CHECK(improved.exit_code == 0);
    CHECK_THAT(improved.output, Catch::Contains("verdict: improved"));
    CHECK(tool({"--reference", three, "--candidate", three}).exit_code == 5);
    CHECK(tool({"--reference", four, "--candidate", three}).exit_code == 4);
    // Deterministic: the same inputs give byte-identical JSON.
    tool({"--reference", three, "--candidate", four, "--json", (root / "b.json").string()});
    CHECK(util::read_file(root / "a.json") == util::read_file(root / "b.json"));
  }
  SECTION("bad input") {
    write(root / "broken.json", "{\"schema\": \"hydra-score/tasks/1\",\n \"tasks\": [}");
    const auto broken = tool({"--reference", (root / "broken.json").string(), "--candidate", four});
    CHECK(broken.exit_code == 2);
    CHECK_THAT(broken.output, Catch::Contains("broken.json:2:"));
    CHECK(tool({"--reference", three}).exit_code == 2);
  }
}
