// HydraScore's test launcher (test_frameworks.hpp): the hidden subcommand
// `hydra-score test-launcher [EMULATOR...] -- PROGRAM [ARGUMENTS...]` that
// CMake puts in front of every test command naming an executable target of
// a capture's tree. It runs the program (through EMULATOR, the project's own
// emulator or launcher, when there is one) with its framework's report
// options when the capture's plan (HYDRA_SCORE_TEST_PROGRAMS) names its
// launch and a report folder is set (HYDRA_SCORE_TEST_REPORTS); otherwise
// (a build step's custom command, ctest run by hand) exactly as it is.
#pragma once

#include <string>
#include <vector>

namespace hydra::capture {

/// What the launcher runs for `arguments` (the words after the subcommand)
/// with `plan_file` and `reports` (the variables' values; empty: unset).
struct Launch {
  std::vector<std::string> argv;                               ///< emulator words, program, arguments, report options
  std::vector<std::pair<std::string, std::string>> environment;  ///< variables to set
  std::string report;  ///< the report file the program is asked to write; empty: none
  std::string framework;
  std::string error;   ///< non-empty: nothing can be run (bad arguments)
};
Launch plan_launch(const std::vector<std::string>& arguments, const std::string& plan_file, const std::string& reports);

/// The subcommand: plans the launch from the environment, records it beside
/// the report (`<key>.launch`: the framework and the command), and replaces
/// this process with the program. Returns only when that fails (127, after
/// a message on stderr).
int run_test_launcher(const std::vector<std::string>& arguments);

}  // namespace hydra::capture
