// HydraScore's test launcher (test_frameworks.hpp): the hidden subcommand
// `hydra-score test-launcher [WRAPPER...] -- PROGRAM [ARGUMENTS...]` that a
// capture's tree puts in front of every test whose program exists
// (test_launch_hook.hpp). It runs the program (after WRAPPER's words, when
// given) with its framework's report options when the capture's plan
// (HYDRA_SCORE_TEST_PROGRAMS) names its launch and a report folder is set
// (HYDRA_SCORE_TEST_REPORTS); otherwise (ctest run by hand in the tree)
// exactly as it is.
#pragma once

#include <string>
#include <vector>

namespace hydra::capture {

/// What the launcher runs for `arguments` (the words after the subcommand)
/// with `plan_file` and `reports` (the variables' values; empty: unset).
struct Launch {
  std::vector<std::string> argv;                               ///< wrapper words, program, arguments, report options
  std::vector<std::pair<std::string, std::string>> environment;  ///< variables to set
  std::string report;  ///< the report file the program is asked to write; empty: none
  std::string framework;
  std::string error;   ///< non-empty: nothing can be run (bad arguments)
};
Launch plan_launch(const std::vector<std::string>& arguments, const std::string& plan_file, const std::string& reports);

/// The subcommand: plans the launch from the environment, records it beside
/// the report (`<key>.launch`: the framework and the command), and replaces
/// this process with the program; a GoogleTest program asked for its report
/// instead runs as a child whose streamed verdicts the launcher holds
/// (result_stream.hpp), and its exit code is returned. Returns otherwise only
/// when the program cannot be run (127, after a message on stderr).
int run_test_launcher(const std::vector<std::string>& arguments);

}  // namespace hydra::capture
