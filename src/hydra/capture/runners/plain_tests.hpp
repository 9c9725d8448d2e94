// Tests run plain, outside ctest (docs/threat-model.md, "Behaving well only
// under test"): the launcher differential's second run of the tests that
// passed does not go through ctest. HydraScore's plain runner
// (`hydra-score test-plain PLAN`, plain_runner.hpp), inside the same sandbox,
// starts each listed test as a user's shell would: through `bash -c`, so the
// program's parent is a shell and not ctest, the shell sets SHLVL, `_` and
// PWD and orders the environment its own way; stdout and stderr are two
// regular files (not ctest's one pipe), stdin an empty regular file, no
// descriptor past the standard three, each test in a session of its own.
// The runner then judges the test as ctest would from the listed properties
// (exit status, WILL_FAIL, PASS_/FAIL_/SKIP_REGULAR_EXPRESSION,
// SKIP_RETURN_CODE, TIMEOUT) and prints one result line per test. A test
// with a property the runner does not model (fixtures, resource groups,
// environment modifications, ...) runs plain through ctest as before.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::capture {

/// The plain runner's subcommand word.
inline constexpr const char* kPlainSubcommand = "test-plain";

/// One listed test as the plain runner runs and judges it.
struct PlainTest {
  std::string name;
  std::vector<std::string> command;
  std::string working_directory;         ///< empty: the runner's own
  std::vector<std::string> environment;  ///< ENVIRONMENT: "NAME=VALUE" words
  bool will_fail = false;
  std::vector<std::string> pass_regex, fail_regex, skip_regex;
  std::optional<int> skip_return_code;
  double timeout = 0;  ///< TIMEOUT; 0: the run's own
};

/// The tests named `names` of `listing` (ctest's json-v1, the launcher
/// already taken out: plain_listing): the ones the runner can run
/// (`direct`, in the listing's order) and the ones it cannot (`ctest`: a
/// property it does not model, a pattern that does not compile, no
/// command). Pure.
struct PlainSelection {
  std::vector<PlainTest> direct;
  std::vector<std::string> ctest;
};
PlainSelection select_plain_tests(const nlohmann::json& listing, const std::vector<std::string>& names);

/// How a run of `test` ended, in ctest's words: "passed", "failed",
/// "skipped" or "timed out". `exit_code` is 128 + N for a program killed by
/// signal N (`signalled`); `output` is what it wrote to stdout and stderr.
/// Pure.
std::string plain_verdict(const PlainTest& test, int exit_code, bool signalled, bool timed_out,
                          const std::string& output);

/// The runner's plan file: the tests, how many run at once, the timeout
/// of a test without its own and the process number the tests' start from
/// (`pid_floor`; 0: as they come). Pure.
nlohmann::json plain_plan(const std::vector<PlainTest>& tests, unsigned jobs, double timeout, unsigned pid_floor = 0);

/// The tests, jobs and timeout of the plan file `file`'s document; throws
/// hydra::InputError naming `file` when it is not one. Pure.
struct PlainPlan {
  std::vector<PlainTest> tests;
  unsigned jobs = 1;
  double timeout = 0;
  unsigned pid_floor = 0;
};
PlainPlan read_plain_plan(const nlohmann::json& plan, const std::string& file);

/// One result line of the runner: {"test", "result", "exit_code",
/// "seconds"} as one line of JSON. Pure.
std::string plain_result_line(const std::string& test, const std::string& result, int exit_code, double seconds);

/// The results the runner's output `log` gives, by test (lines that are not
/// result lines are skipped). Pure.
std::map<std::string, std::string> plain_results(const std::string& log);

}  // namespace hydra::capture
