// Exit codes of the command line: documented in --help, 3 when the top
// candidate is not mergeable (unless --no-gate-exit), 2 for bad usage.
// Over the captured run directories of tests/fixtures/runs/.
#include "cli/cli_support.hpp"

#include <string>
#include <vector>

using cli_test::run_tool;

TEST_CASE("--help lists every exit code", "[cli]") {
  SECTION("valid input") {
    const auto help = run_tool({"--help"}, cli_test::runs_dir);
    CHECK(help.exit_code == 0);
    CHECK(help.output.find("Exit codes:") != std::string::npos);
    for (const char* line : {"0  success", "1  internal error", "2  bad usage, or an unreadable or malformed input file",
                             "3  score: the top-ranked candidate is not mergeable", "4  compare: regressed",
                             "5  compare: neutral", "6  replay: re-scoring gave different output",
                             "7  a run directory's sealed artifacts do not match their digests",
                             "8  capture/loop: a step could not be run"}) {
      CAPTURE(line);
      CHECK(help.output.find(line) != std::string::npos);
    }
    // Each subcommand's help repeats them.
    for (const char* command : {"record", "score", "replay", "capture", "compare"}) {
      const auto sub = run_tool({command, "--help"}, cli_test::runs_dir);
      CAPTURE(command);
      CHECK(sub.exit_code == 0);
      CHECK(sub.output.find("3  score: the top-ranked candidate is not mergeable") != std::string::npos);
    }
  }
  SECTION("bad input") {
    // No subcommand, an unknown one, an unknown option: exit 2 with a hint.
    for (const std::vector<std::string>& arguments :
         {std::vector<std::string>{}, std::vector<std::string>{"rank"},
          std::vector<std::string>{"score", "--baseline", "baseline", "--candidate", "clean-fix", "--colour"}}) {
      const auto result = run_tool(arguments, cli_test::runs_dir);
      CAPTURE(arguments, result.output);
      CHECK(result.exit_code == 2);
      CHECK(result.output.find("--help") != std::string::npos);
    }
  }
}

TEST_CASE("score exits 3 when the top candidate is not mergeable", "[cli]") {
  hydra::util::TempDir output("hydra-cli-exit");
  SECTION("valid input") {
    // breaks-test alone: 1 of 9 baseline-passing tests regressed (11.11% > 0%),
    // so the top (only) candidate is not mergeable.
    const auto gated = run_tool({"score", "--baseline", "baseline", "--candidate", "breaks-test", "--json",
                                 (output.path() / "gated.json").string()},
                                cli_test::runs_dir);
    INFO(gated.output);
    CHECK(gated.exit_code == 3);
    CHECK(gated.output.find("max_test_regression_percent") != std::string::npos);  // the table says why
    // The reports are still written, and say so.
    const auto contract = cli_test::read_json(output.path() / "gated.json");
    CHECK(contract["rankings"][0]["mergeable"] == false);

    // --no-gate-exit: exit 0, same contract.
    const auto forced = run_tool({"score", "--no-gate-exit", "--baseline", "baseline", "--candidate", "breaks-test",
                                  "--json", (output.path() / "forced.json").string()},
                                 cli_test::runs_dir);
    CHECK(forced.exit_code == 0);
    CHECK(cli_test::read_bytes(output.path() / "forced.json") == cli_test::read_bytes(output.path() / "gated.json"));

    // deletes-tests (92.22) outranks protected-lint (87.67) but fails the
    // regression gate: the top candidate decides, so exit 3.
    const auto ranked = run_tool({"score", "--quiet", "--baseline", "baseline", "--candidate", "protected-lint",
                                  "--candidate", "deletes-tests"},
                                 cli_test::runs_dir);
    CHECK(ranked.exit_code == 3);
    // With clean-fix (100, mergeable) on top: exit 0.
    const auto mergeable = run_tool({"score", "--quiet", "--baseline", "baseline", "--candidate", "deletes-tests",
                                     "--candidate", "clean-fix"},
                                    cli_test::runs_dir);
    CHECK(mergeable.exit_code == 0);
  }
  SECTION("bad input") {
    // A missing baseline is bad usage (2), not "not mergeable" (3).
    const auto result = run_tool({"score", "--baseline", "no-such-run", "--candidate", "clean-fix"}, cli_test::runs_dir);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("no-such-run") != std::string::npos);
  }
}
