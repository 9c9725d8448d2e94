// The commands of the js-node, rust and python profiles as a capture runs
// them: the profile's (or hydra.toml's) shell command plus the arguments that
// make its tool write machine-readable results, and where those results are
// read from. Pure: the caller reads package.json and runs the commands.
// Reference: docs/config.md, "Profiles".
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hydra::capture {

/// Where a step's results are read from.
enum class ResultSource {
  none,      ///< nothing but the exit code (the build step)
  file,      ///< a file the tool writes (`StepCommand::result_file`)
  stdout_,   ///< the command's standard output
  combined,  ///< standard output and error together (cargo test: headers on stderr, results on stdout)
};

/// One step of a profile, ready to run with `sh -c` in the tree's copy.
struct StepCommand {
  std::string shell;    ///< what `sh -c` runs
  std::string program;  ///< the program it starts (checked on PATH before anything runs)
  /// A cargo subcommand the step needs ("clippy"); empty when none.
  std::string cargo_subcommand;
  std::map<std::string, std::string> environment;  ///< added for this step
  ResultSource source = ResultSource::none;
  std::filesystem::path result_file;  ///< with ResultSource::file
  /// The run directory role of the results: "junit", "libtest_log",
  /// "clippy_json", "eslint_json", "flake8_log", "ruff_log"; empty for the build.
  std::string role;
};

/// What the commands are built from.
struct ProfileContext {
  std::string profile;  ///< "js-node", "rust" or "python"
  /// package.json's "scripts" (js-node); empty when there is none.
  std::map<std::string, std::string> npm_scripts;
  /// jest-junit's folder (a project's own, else npm's global one); empty
  /// when neither has it (a jest test step then cannot run: exit 8).
  std::filesystem::path jest_junit;
  /// The folder of HydraScore's helpers for the test runners
  /// (runner_helpers.hpp): with it, jest-junit marks todo tests and node
  /// --test's JUnit names each test's file; empty: the runners' own output.
  std::filesystem::path runner_helpers;
};

/// The first program a shell command starts: its first word after any
/// leading `NAME=value` assignments ("" for an empty command).
std::string first_program(const std::string& shell);

/// `argument` inserted before the command's first ` -- ` (the arguments
/// after it go to another program), else appended.
std::string insert_option(const std::string& shell, const std::string& argument);

/// The npm script a command runs (`npm test` -> "test", `npm run lint` ->
/// "lint"); empty for commands that are not npm's.
std::string npm_script_name(const std::string& shell);

/// `path` quoted for sh.
std::string shell_quote(const std::string& text);

/// The test step: `command` with its results written to `junit` (pytest,
/// jest through jest-junit, node's test runner) or read from cargo test's
/// console lines. A `{junit}` in `command` is replaced by the JUnit path and
/// nothing is added. Throws hydra::Error (exit 2) when the test runner cannot
/// be told from the command and package.json, or (exit 8) when jest-junit is
/// missing.
StepCommand test_command(const ProfileContext& context, const std::string& command, const std::filesystem::path& junit);

/// The lint step: cargo clippy's JSON messages, ESLint's JSON (written to
/// `output`), flake8's text with source lines, or ruff's concise text. A
/// `{output}` in `command` is replaced by `output`'s path and the tool is
/// told from the command. Throws hydra::Error (exit 2) for a lint tool whose
/// output HydraScore does not read.
StepCommand lint_command(const ProfileContext& context, const std::string& command, const std::filesystem::path& output);

/// The build step: the command as it is.
StepCommand build_command(const std::string& command);

/// The scripts of a package.json text ("scripts": {"name": "command"});
/// empty when it has none. Throws hydra::InputError naming `source_name` for
/// JSON that does not parse or a "scripts" that is not an object of strings.
std::map<std::string, std::string> npm_scripts(const std::string& package_json, const std::string& source_name);

}  // namespace hydra::capture
