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
  std::string program;   ///< the test's program (the first word after the separator)
  std::size_t program_index = 0;  ///< its place in argv (after the wrapper's words)
  bool judged = false;   ///< a capture's run (plan and report folder given): judged_run.hpp
  /// Catch2, doctest: the report goes to a pipe the launcher holds
  /// (child_run.hpp's kReportPipeWord in argv), which it writes to `report`.
  bool report_pipe = false;
};
Launch plan_launch(const std::vector<std::string>& arguments, const std::string& plan_file, const std::string& reports);

/// The subcommand: plans the launch from the environment, records it beside
/// the report (`<key>.launch`: the framework and the command). In a
/// capture's run the program runs as a child whose verdicts the launcher
/// takes outside its reach (judged_run.hpp), and the test's exit code is
/// returned; otherwise (ctest run by hand) this process is replaced with the
/// program. Returns 127 when the program cannot be run (after a message on
/// stderr).
int run_test_launcher(const std::vector<std::string>& arguments);

}  // namespace hydra::capture
