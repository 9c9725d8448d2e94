// How each test runner reruns the tests that failed (docs/config.md,
// "Flaky tests"): ctest by test number (`-I 0,0,0,N,...`), pytest through its
// own `--last-failed`, jest through its own `--onlyFailures`, node's test
// runner by `--test-name-pattern`, cargo test by name with `--exact`. Pure:
// the capture runs the commands (test_attempts.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <hydra/capture/runners/profile_commands.hpp>

namespace hydra::capture {

/// ctest's arguments that run exactly the tests numbered `numbers`
/// ("-I", "0,0,0,3,5"); empty when `numbers` is.
std::vector<std::string> ctest_selection(const std::vector<unsigned>& numbers);

/// What ctest's console said of one test: "  3/12 Test  #3: name ...   Passed".
struct CtestConsoleResult {
  unsigned number = 0;  ///< the test's number (what `-I` selects)
  bool passed = false;
};

/// ctest's own per-test verdicts from its console output, by test name. Test
/// programs cannot write there: ctest captures their output.
std::map<std::string, CtestConsoleResult> ctest_console_results(const std::string& console);

/// Which way a runner reruns its failing tests.
enum class RerunKind {
  none,          ///< HydraScore knows no way (the test command names its own results file)
  last_failed,   ///< pytest: `--last-failed` from its cache
  only_failures, ///< jest: `--onlyFailures` from its cache (every test of a file that failed)
  name_pattern,  ///< node --test: `--test-name-pattern` of the failing tests' names
  exact_names,   ///< cargo test: `-- --exact NAME...`
};

/// How the test step `first` (test_command's result for `context`) reruns
/// its failing tests.
RerunKind rerun_kind(const ProfileContext& context, const StepCommand& first);

/// `first` made ready for reruns: pytest and jest keep their cache of the
/// last run in `cache_directory` (pytest's `-o cache_dir=` instead of
/// `-p no:cacheprovider`, jest's `--cacheDirectory`), outside the tree, so a
/// rerun reads the failures this capture saw and nothing else. Other runners'
/// commands are returned as they are.
StepCommand prepare_first_attempt(const ProfileContext& context, StepCommand first,
                                  const std::filesystem::path& cache_directory);

/// The command of a rerun of the tests named `failing` (the test names the
/// results gave, for the runners that select by name): the test command
/// `command` (hydra.toml's) for `context`, writing its results to `results`,
/// with the rerun's arguments. nullopt when the runner cannot rerun (
/// RerunKind::none) or there is nothing to select. Throws what
/// test_command throws.
std::optional<StepCommand> rerun_command(const ProfileContext& context, const std::string& command,
                                         const std::filesystem::path& results,
                                         const std::filesystem::path& cache_directory,
                                         const std::vector<std::string>& failing);

/// `text` as an ECMAScript regular expression matching it literally.
std::string regex_escape(const std::string& text);

}  // namespace hydra::capture
