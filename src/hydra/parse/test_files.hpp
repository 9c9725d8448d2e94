// test-files.json: which files hold each test of a capture (written by
// capture/cmake/test_files.cpp, read by the held-out runs and by scoring;
// docs/run-directory.md).
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hydra::parse {

struct TestFiles {
  /// Paths relative to the work tree's top level (as a diff names them),
  /// generic separators.
  std::set<std::string> files;
  /// Files of the tree that code (a target no test runs) uses: never test
  /// files, even where a test program compiles or includes them too.
  std::set<std::string> code;
  /// Test name -> the files it depends on.
  std::map<std::string, std::set<std::string>> by_test;
  /// Why the codemodel could not be read (the globs still apply); empty when it was.
  std::string codemodel_problem;

  /// {"files": [...], "code": [...], "tests": {name: [...]}, "codemodel_problem": "..." (when set)}.
  nlohmann::json to_json() const;
};

/// Parses what TestFiles::to_json wrote. Throws hydra::InputError naming
/// `source_name` (line:column for malformed JSON, the JSON pointer for a wrong type).
TestFiles parse_test_files(std::string_view text, const std::string& source_name);
TestFiles parse_test_files_file(const std::filesystem::path& file);

}  // namespace hydra::parse
