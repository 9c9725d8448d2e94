// Tests run through HydraScore's test launcher (test_launch_hook.hpp).
#include <hydra/capture/runners/test_launch_hook.hpp>

#include <optional>

#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// The value the user's cache entries give `name`: the -D options'
/// ("-DNAME=v", "-DNAME:STRING=v") over the initial-cache script's; nullopt
/// when neither sets it.
std::optional<std::string> user_setting(const std::string& name, const parse::CMakeCache& initial_cache,
                                        const std::vector<std::string>& cmake_arguments) {
  if (auto value = parse::parse_cache_definitions(cmake_arguments).value(name)) return value;
  return initial_cache.value(name);
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(';', start), list.size());
    if (end > start) items.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

}  // namespace

bool launcher_is_writable(const std::vector<std::string>& launcher) {
  if (launcher.empty()) return false;
  for (const auto& word : launcher)
    if (word.empty() || word.find_first_of("\"\\$;[]\r\n") != std::string::npos) return false;
  return true;
}

std::string test_launch_hook_text(const std::vector<std::string>& launcher) {
  std::string words;
  for (const auto& word : launcher) words += " \"" + word + "\"";
  return R"cmake(# Written by HydraScore's capture (docs/run-directory.md, "Framework
# reports"). ctest reads this file before any test of the tree; from then on
# add_test() puts HydraScore's test launcher in front of a test's program when
# the program is a file that exists, every argument kept as it is. A program
# that was not built keeps ctest's own "Unable to find executable".
get_property(_hydra_score_hooked GLOBAL PROPERTY _HYDRA_SCORE_TEST_LAUNCH)
if(_hydra_score_hooked)
  return()
endif()
set_property(GLOBAL PROPERTY _HYDRA_SCORE_TEST_LAUNCH TRUE)
# ctest reads test files with no policy set; the functions below keep these.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

# `text` as a bracket argument that holds it exactly (its closing bracket
# occurs nowhere in it; the line break after the opening one is dropped by CMake).
function(_hydra_score_bracket text out)
  set(equals "=")
  string(FIND "${text}" "]${equals}]" at)
  while(NOT at EQUAL -1)
    string(APPEND equals "=")
    string(FIND "${text}" "]${equals}]" at)
  endwhile()
  set(${out} "[${equals}[
${text}]${equals}]" PARENT_SCOPE)
endfunction()

function(add_test name)
  set(launch FALSE)
  if(ARGC GREATER 1)
    set(program "${ARGV1}")
    if(NOT IS_ABSOLUTE "${program}")
      # Where ctest looks for a relative program first: the test's directory.
      set(program "${CMAKE_CURRENT_LIST_DIR}/${program}")
    endif()
    if(EXISTS "${program}" AND NOT IS_DIRECTORY "${program}")
      set(launch TRUE)
    endif()
  endif()
  _hydra_score_bracket("${name}" word)
  set(code "_add_test(${word}")
  set(first 1)
  if(launch)
    foreach(launcher_word IN ITEMS)cmake" +
         words + R"cmake( "--")
      _hydra_score_bracket("${launcher_word}" word)
      string(APPEND code " ${word}")
    endforeach()
    _hydra_score_bracket("${program}" word)
    string(APPEND code " ${word}")
    set(first 2)
  endif()
  if(ARGC GREATER first)
    math(EXPR last "${ARGC} - 1")
    foreach(index RANGE ${first} ${last})
      _hydra_score_bracket("${ARGV${index}}" word)
      string(APPEND code " ${word}")
    endforeach()
  endif()
  cmake_language(EVAL CODE "${code})")
endfunction()
cmake_policy(POP)
)cmake";
}

std::string test_launch_include_text(const fs::path& hook) {
  return "# Written by HydraScore's capture: ctest reads " + hook.filename().string() +
         " before the tests of this tree\n"
         "# (docs/run-directory.md, \"Framework reports\").\n"
         "set_property(DIRECTORY \"${CMAKE_SOURCE_DIR}\" APPEND PROPERTY TEST_INCLUDE_FILES \"" +
         hook.generic_string() + "\")\n";
}

std::vector<std::string> test_launch_configure_arguments(const fs::path& include, const parse::CMakeCache& initial_cache,
                                                         const std::vector<std::string>& cmake_arguments) {
  std::string list = include.generic_string();
  if (const auto own = user_setting("CMAKE_PROJECT_TOP_LEVEL_INCLUDES", initial_cache, cmake_arguments))
    for (const auto& file : split_list(*own))
      if (fs::path(file).filename() != "HydraScore.cmake" && file != list) list += ";" + file;
  return {"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + list};
}

std::vector<std::string> install_test_launch(const std::vector<std::string>& launcher, const fs::path& build_dir,
                                             const parse::CMakeCache& initial_cache,
                                             const std::vector<std::string>& cmake_arguments,
                                             const fs::path& seen_build_dir) {
  if (!launcher_is_writable(launcher)) return {};
  const fs::path folder = build_dir / kTestLaunchFolder;
  const fs::path seen_folder = (seen_build_dir.empty() ? build_dir : seen_build_dir) / kTestLaunchFolder;
  fs::create_directories(folder);
  const fs::path hook = seen_folder / "add-test.cmake";
  const fs::path include = seen_folder / "top-level.cmake";
  if (!launcher_is_writable({hook.generic_string()})) return {};  // a build tree whose path CMake code cannot hold
  util::write_file_atomic(folder / "add-test.cmake", test_launch_hook_text(launcher));
  util::write_file_atomic(folder / "top-level.cmake", test_launch_include_text(hook));
  return test_launch_configure_arguments(include, initial_cache, cmake_arguments);
}

}  // namespace hydra::capture
