// Tests run as they are listed: the test steps run the tests ctest listed
// (`ctest --show-only=json-v1`, stored as ctest.json and read by every
// tampering check), from a CTestTestfile.cmake of HydraScore's own written
// from that listing, never by letting ctest evaluate the tree's
// CTestTestfile.cmake files (and the scripts they include) a second time.
// A test-include script that answers ctest's listing one way and its run
// another (it can read ctest's command line) therefore changes nothing that
// runs (docs/threat-model.md, "The scorer's git").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::capture {

/// The program of a listed test without a command.
inline constexpr const char* kNoListedProgram = "(ctest listed no program for this test)";

/// The folder of a build tree that holds the listed tests' CTestTestfile.cmake.
inline constexpr const char* kListedTestsFolder = ".hydra-listed-tests";

/// The text of a CTestTestfile.cmake that defines the tests of `listing`
/// (ctest's json-v1 document) in their order: add_test() with the listed
/// command and set_tests_properties() with every listed property (lists
/// joined with ';', booleans ON/OFF; MEASUREMENT, TIMEOUT_AFTER_MATCH and
/// RESOURCE_GROUPS written back in their CMake form), every word quoted as a
/// CMake bracket argument. A test the listing gives no command (ctest found
/// no program for it: one that was not built) runs kNoListedProgram, which
/// ctest finds nowhere: it reports "Unable to find executable", as it does
/// when it reads the tree. What cannot be written (a value of another shape, a
/// malformed test) is appended to `problems` and left out. Pure.
std::string listed_tests_file(const nlohmann::json& listing, std::vector<std::string>& problems);

/// `word` as a CMake bracket argument ([==[word]==], with more '=' than any
/// closing bracket in it has). Pure.
std::string bracket_argument(const std::string& word);

/// Makes `<build_dir>/.hydra-listed-tests/` afresh (whatever a step left
/// at that place, a symbolic link included, is removed unread) and writes
/// `text` there as CTestTestfile.cmake; returns the folder.
std::filesystem::path write_listed_tests(const std::filesystem::path& build_dir, const std::string& text);

}  // namespace hydra::capture
