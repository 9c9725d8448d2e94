// The matrix flow: run directories captured separately (tests/fixtures/runs/,
// real `hydra-score capture` runs of example-project), moved elsewhere and
// ranked together give the same JSON as ranking them where they were made.
#include "cli/cli_support.hpp"

#include <string>
#include <vector>
#include "test_paths.hpp"

using cli_test::run_tool;

namespace {

const std::vector<std::string> captured_runs = {"baseline", "clean-fix", "breaks-test", "deletes-tests",
                                                "protected-lint"};

/// `score --json score.json` of the four captured candidates, run in
/// `directory`, which holds them under `runs/`.
cli_test::ToolResult score_in(const std::filesystem::path& directory, const std::filesystem::path& json_file) {
  return run_tool({"score", "--quiet", "--baseline", "runs/baseline", "--candidate", "runs/clean-fix", "--candidate",
                   "runs/breaks-test", "--candidate", "runs/deletes-tests", "--candidate", "runs/protected-lint",
                   "--json", json_file.string()},
                  directory);
}

}  // namespace

TEST_CASE("captures moved to other directories rank exactly as in place", "[cli]") {
  hydra::util::TempDir output("hydra-cli-matrix-out");
  SECTION("valid input") {
    // In place: tests/fixtures/ holds runs/<name>.
    const auto in_place = score_in(cli_test::fixtures_dir, output.path() / "in-place.json");
    INFO(in_place.output);
    REQUIRE(in_place.exit_code == 0);  // clean-fix, ranked first, is mergeable

    // Layout 1: every capture in its own folder first (as separate CI jobs
    // leave them), then gathered under one runs/ folder.
    hydra::util::TempDir jobs("hydra-cli-matrix-jobs");
    for (const auto& name : captured_runs) {
      cli_test::copy_tree(cli_test::runs_dir / name, jobs.path() / ("job-" + name) / "artifacts" / name);
    }
    for (const auto& name : captured_runs) {
      std::filesystem::create_directories(jobs.path() / "gathered" / "runs");
      std::filesystem::rename(jobs.path() / ("job-" + name) / "artifacts" / name, jobs.path() / "gathered" / "runs" / name);
    }
    const auto gathered = score_in(jobs.path() / "gathered", output.path() / "gathered.json");
    REQUIRE(gathered.exit_code == 0);

    // Layout 2: a deeper, differently named tree.
    hydra::util::TempDir deep("hydra-cli-matrix-deep");
    const auto deep_root = deep.path() / "a" / "b c" / "matrix";
    for (const auto& name : captured_runs) cli_test::copy_tree(cli_test::runs_dir / name, deep_root / "runs" / name);
    const auto deeper = score_in(deep_root, output.path() / "deep.json");
    REQUIRE(deeper.exit_code == 0);

    const std::string expected = cli_test::read_bytes(output.path() / "in-place.json");
    CHECK(cli_test::read_bytes(output.path() / "gathered.json") == expected);
    CHECK(cli_test::read_bytes(output.path() / "deep.json") == expected);
    // The paths in the contract are the relative ones given, never where the runs were.
    CHECK(expected.find(cli_test::fixtures_dir.string()) == std::string::npos);
    CHECK(expected.find(deep_root.string()) == std::string::npos);
    // And a replay from the moved layout agrees.
    const auto replayed = run_tool({"replay", (output.path() / "deep.json").string()}, deep_root);
    INFO(replayed.output);
    CHECK(replayed.exit_code == 0);
  }
  SECTION("bad input") {
    // One capture missing from the moved layout: exit 2 naming it, not a shorter ranking.
    hydra::util::TempDir partial("hydra-cli-matrix-partial");
    for (const auto& name : captured_runs)
      if (name != "deletes-tests") cli_test::copy_tree(cli_test::runs_dir / name, partial.path() / "runs" / name);
    const auto result = score_in(partial.path(), output.path() / "partial.json");
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("runs/deletes-tests") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(output.path() / "partial.json"));
  }
}

TEST_CASE("the report contract fixture is the real score of the captured runs", "[cli][golden]") {
  // tests/fixtures/report/contract.json was written by tests/fixtures/report/record.sh
  // from the repository root; scoring the same runs the same way reproduces it.
  hydra::util::TempDir output("hydra-cli-contract");
  const auto result = run_tool({"score", "--quiet", "--no-gate-exit", "--baseline", "tests/fixtures/runs/baseline",
                                "--candidate", "tests/fixtures/runs/clean-fix", "--candidate",
                                "tests/fixtures/runs/breaks-test", "--candidate", "tests/fixtures/runs/deletes-tests",
                                "--candidate", "tests/fixtures/runs/protected-lint", "--json",
                                (output.path() / "contract.json").string()},
                               HYDRA_SOURCE_DIR);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  INFO("re-record with tests/fixtures/report/record.sh if the scoring changed on purpose");
  CHECK(cli_test::read_bytes(output.path() / "contract.json") ==
        cli_test::read_bytes(cli_test::fixtures_dir / "report" / "contract.json"));
}
