// Which files of a tree are its tests: the code under test must never judge
// itself (docs/threat-model.md, "Held-out evaluation"), so a capture records
// which files hold the tests and their definitions, and the held-out runs
// take those files from the other side of the change.
//
// A file is a test file when only tests use it (docs/threat-model.md,
// "Which files are tests"), that is when
//  - it is a source of a target whose artifact a CTest test runs (CMake File
//    API codemodel, matched against `ctest --show-only=json-v1` commands) and
//    of no other target (a library source a test program also compiles is
//    code),
//  - it is a header that only such targets' objects include (the Ninja deps
//    log) and that lies in no include directory of another target,
//  - a test's command names it (a script inside the source tree),
//  - it is a CMake file in the backtrace of an add_test() call or of a test
//    target, and defines no other target (a file that also defines the code
//    under test stays the candidate's), or
//  - it matches `[anti_gaming] test_file_globs` (checked where a path is
//    judged, see is_test_file).
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/build_targets.hpp>
#include <hydra/parse/test_files.hpp>

namespace hydra::capture {

/// The test files of a tree (the format of test-files.json: parse/test_files.hpp).
using TestFiles = parse::TestFiles;

/// The test files of the tree configured from `source` into `build_dir`
/// (as the build sees them), given its targets (codemodel.hpp) and the
/// tests ctest lists (`ctest_json`), as paths relative to `top`.
/// `codemodel_problem` says why the targets are unknown, when they are.
/// `header_users`: which targets include each header (codemodel.hpp,
/// header_users); headers are classified by it.
TestFiles find_test_files(const model::BuildTargets& targets, const std::filesystem::path& source,
                          const std::filesystem::path& build_dir, const std::filesystem::path& top,
                          const nlohmann::json& ctest_json,
                          const std::map<std::string, std::set<std::string>>& header_users = {});

/// Whether `path` (relative to the top level) is a test file: listed in
/// `files` or matched by one of `globs` (path patterns, util/path_pattern.hpp).
/// (The held-out runs first let the baseline decide for the files it
/// classified: is_test_file_of_change.)
bool is_test_file(const std::string& path, const std::set<std::string>& files, const std::vector<std::string>& globs);

/// Whether a path of a candidate's change (relative to the top level) is a
/// test file: one `globs` match is; otherwise the baseline decides for a
/// file it classified (a test file or code), and the candidate's tree for a
/// file the baseline does not know (a new file): a test file only when only
/// tests use it there. The candidate's build cannot turn the baseline's test
/// into code, nor the baseline's code into a test.
bool is_test_file_of_change(const std::string& path, const TestFiles& baseline, const TestFiles& candidate,
                            const std::vector<std::string>& globs);

}  // namespace hydra::capture
