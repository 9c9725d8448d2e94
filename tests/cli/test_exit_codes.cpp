// Exit codes of the command line: one table (cli/exit_codes.hpp) that
// --help prints and README.md and docs/cli.md repeat, each error kind's
// code, 3 when the top candidate is not mergeable (unless --no-gate-exit),
// 2 for bad usage.
// Over the captured run directories of tests/fixtures/runs/.
#include "cli/cli_support.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>

using cli_test::run_tool;

namespace {

/// One row of a Markdown exit-code table: the code, its name (backticks
/// dropped) and its meaning.
struct DocumentedCode {
  int code = -1;
  std::string name;
  std::string meaning;
};

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

/// The rows of the table headed `| Code | Name | Meaning |` in `file`.
std::vector<DocumentedCode> documented_codes(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && line.rfind("| Code | Name | Meaning |", 0) != 0) {
  }
  std::vector<DocumentedCode> rows;
  std::getline(in, line);  // |---:|---|---|
  while (std::getline(in, line) && line.rfind("|", 0) == 0) {
    std::vector<std::string> cells;
    std::size_t start = 1;
    for (std::size_t bar = line.find('|', start); bar != std::string::npos; bar = line.find('|', start)) {
      cells.push_back(trimmed(line.substr(start, bar - start)));
      start = bar + 1;
    }
    REQUIRE(cells.size() == 3);
    std::string name = cells[1];
    if (name.size() >= 2 && name.front() == '`' && name.back() == '`') name = name.substr(1, name.size() - 2);
    rows.push_back({std::stoi(cells[0]), name, cells[2]});
  }
  return rows;
}

}  // namespace

TEST_CASE("--help lists every exit code", "[cli]") {
  SECTION("valid input") {
    const auto help = run_tool({"--help"}, cli_test::runs_dir);
    CHECK(help.exit_code == 0);
    // The table, 0 through 9 in order, each line "N  name  meaning".
    const auto& table = hydra::cli::exit_code_table();
    for (std::size_t code = 0; code < table.size(); ++code) {
      CAPTURE(code);
      CHECK(hydra::cli::status(table[code].code) == static_cast<int>(code));
    }
    const std::string block = hydra::cli::exit_code_help();
    CHECK(help.output.find(block) != std::string::npos);
    CHECK(help.output.find("\n  3  not-mergeable  score: the top-ranked candidate is not mergeable") !=
          std::string::npos);
    CHECK(help.output.find("\n  9  refused        apply: refused") != std::string::npos);
    // Each subcommand's help repeats them.
    for (const char* command : {"record", "score", "replay", "capture", "compare", "loop", "apply"}) {
      const auto sub = run_tool({command, "--help"}, cli_test::runs_dir);
      CAPTURE(command);
      CHECK(sub.exit_code == 0);
      CHECK(sub.output.find(block) != std::string::npos);
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

TEST_CASE("README.md and docs/cli.md list the exit codes of --help", "[cli]") {
  const auto& table = hydra::cli::exit_code_table();
  const std::filesystem::path source = HYDRA_SOURCE_DIR;
  // README.md: the same codes, names and meanings as --help.
  const auto readme = documented_codes(source / "README.md");
  REQUIRE(readme.size() == table.size());
  for (std::size_t code = 0; code < table.size(); ++code) {
    CAPTURE(code);
    CHECK(readme[code].code == hydra::cli::status(table[code].code));
    CHECK(readme[code].name == table[code].name);
    CHECK(readme[code].meaning == table[code].meaning);
  }
  // docs/cli.md: the same codes and names, each meaning in more words.
  const auto reference = documented_codes(source / "docs" / "cli.md");
  REQUIRE(reference.size() == table.size());
  for (std::size_t code = 0; code < table.size(); ++code) {
    CAPTURE(code);
    CHECK(reference[code].code == hydra::cli::status(table[code].code));
    CHECK(reference[code].name == table[code].name);
    CHECK_FALSE(reference[code].meaning.empty());
  }
}

TEST_CASE("each error kind ends a command with its exit code", "[cli]") {
  using hydra::cli::ExitCode;
  using hydra::cli::exit_code_of;
  CHECK(exit_code_of(hydra::Error("a bug")) == ExitCode::internal);
  CHECK(exit_code_of(std::runtime_error("the environment")) == ExitCode::internal);
  CHECK(exit_code_of(hydra::UsageError("--jobs must be positive")) == ExitCode::usage);
  CHECK(exit_code_of(hydra::InputError("hydra.toml", "unknown key", 3, 1)) == ExitCode::usage);
  CHECK(exit_code_of(hydra::NotMergeable("agent \"a\" is not mergeable")) == ExitCode::not_mergeable);
  CHECK(exit_code_of(hydra::Tampered("signals.json: content does not match")) == ExitCode::tampered);
  CHECK(exit_code_of(hydra::StepFailed("cmake is not installed")) == ExitCode::step_failed);
  CHECK(exit_code_of(hydra::Refused("the base moved")) == ExitCode::refused);
  // A failure returned from a batch keeps its kind.
  const auto failure =
      hydra::cli::failure_of(std::make_exception_ptr(hydra::StepFailed("git worktree add failed")));
  CHECK(failure.code == ExitCode::step_failed);
  CHECK(failure.message == "git worktree add failed");
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
