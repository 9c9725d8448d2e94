// HydraScore's plain runner (plain_tests.hpp): the hidden subcommand
// `hydra-score test-plain PLAN` that the launcher differential runs inside
// the test step's sandbox, in place of ctest, for the tests it can judge
// itself.
#pragma once

#include <string>
#include <vector>

namespace hydra::capture {

/// The subcommand: runs the tests of the plan file `arguments[0]`
/// (plain_plan), at most the plan's jobs at once, each through `bash -c`
/// (the program itself when no bash is found) in a session of its own with
/// its listed working directory and environment, stdout and stderr to two
/// regular files, stdin an empty regular file, and prints one result line
/// per test (plain_result_line) on stdout as each ends. The runner cannot be
/// inspected by the tests it runs (not dumpable: its descriptors and memory
/// are closed to them). Returns 0 when every test ran (whatever its
/// result), 1 when one could not be started, 2 for a bad plan (after a
/// message on stderr).
int run_plain_tests(const std::vector<std::string>& arguments);

}  // namespace hydra::capture
