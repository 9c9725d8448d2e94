// How a capture's tree runs its tests through HydraScore's test launcher
// (test_launcher.hpp) without an edit of the project (docs/run-directory.md,
// "Framework reports"):
//
//  - the configure step includes `top-level.cmake` (through
//    CMAKE_PROJECT_TOP_LEVEL_INCLUDES, before the project's own files), which
//    adds `add-test.cmake` to the top directory's TEST_INCLUDE_FILES;
//  - ctest reads `add-test.cmake` before any test of the tree (it comes
//    first in the top directory's CTestTestfile.cmake, and ctest's functions
//    outlive the file that defines them), and it replaces ctest's add_test()
//    with one that puts the launcher in front of the test's program, every
//    argument kept as it is: `<hydra-score> test-launcher -- PROGRAM ARGS...`.
//
// So both add_test() signatures are covered, `add_test(NAME n COMMAND target)`
// and the old `add_test(n program)` (whose command CMake never passes to a
// test launcher or emulator), whatever the CMake version, and so are tests
// that gtest_discover_tests() adds. A program is launched only when it is a
// file that exists when ctest reads the tests (a relative one: in the test's
// directory, where ctest looks first): a program that was not built keeps
// ctest's own "Unable to find executable".
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <hydra/parse/cmake_cache.hpp>

namespace hydra::capture {

/// The folder of a build tree that holds the two files.
inline constexpr const char* kTestLaunchFolder = ".hydra-test-launch";

/// The text of `add-test.cmake` (read by ctest) for `launcher` (hydra-score
/// and its `test-launcher` word).
std::string test_launch_hook_text(const std::vector<std::string>& launcher);

/// The text of `top-level.cmake` (included by the configure step) that
/// makes ctest read `hook`.
std::string test_launch_include_text(const std::filesystem::path& hook);

/// Whether `launcher`'s words can be written into CMake code as they are
/// (none holds a quote, a backslash, '$', ';', a bracket or a line break);
/// a launcher that cannot is not installed and every test keeps its
/// program-level result.
bool launcher_is_writable(const std::vector<std::string>& launcher);

/// The configure arguments that include `include` (top-level.cmake) first,
/// then whatever CMAKE_PROJECT_TOP_LEVEL_INCLUDES the user's cache entries
/// (the initial-cache script's `initial_cache`, the -D options among
/// `cmake_arguments`, which win) name,
/// except HydraScore's own module (a capture never captures itself).
/// These arguments go after the user's, so they are the ones CMake keeps.
std::vector<std::string> test_launch_configure_arguments(const std::filesystem::path& include,
                                                         const parse::CMakeCache& initial_cache,
                                                         const std::vector<std::string>& cmake_arguments);

/// Writes both files into `<build_dir>/.hydra-test-launch/` and returns the
/// configure arguments (test_launch_configure_arguments); nothing and no
/// arguments when `launcher` is empty or not writable. The files and the
/// arguments name the build tree as the steps see it, `seen_build_dir` (a
/// held-out tree shown at the candidate's build tree), when one is given.
std::vector<std::string> install_test_launch(const std::vector<std::string>& launcher,
                                             const std::filesystem::path& build_dir,
                                             const parse::CMakeCache& initial_cache,
                                             const std::vector<std::string>& cmake_arguments,
                                             const std::filesystem::path& seen_build_dir = {});

}  // namespace hydra::capture
