// Test files from the CMake File API codemodel and ctest's test list
// (test_files.hpp).
#include <hydra/capture/cmake/test_files.hpp>
#include <hydra/capture/core/json_members.hpp>

#include <algorithm>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/path_pattern.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The files of a backtrace chain (`backtrace` indexes `graph`'s nodes).
std::set<std::string> backtrace_files(const json& graph, const json& backtrace) {
  std::set<std::string> files;
  const json& nodes = member(graph, "nodes");
  const json& names = member(graph, "files");
  if (!backtrace.is_number_unsigned() || !nodes.is_array() || !names.is_array()) return files;
  std::size_t index = backtrace.get<std::size_t>();
  for (std::size_t steps = 0; index < nodes.size() && steps < nodes.size(); ++steps) {
    const json& node = nodes[index];
    const json& file = member(node, "file");
    if (file.is_number_unsigned() && file.get<std::size_t>() < names.size() && names[file.get<std::size_t>()].is_string())
      files.insert(names[file.get<std::size_t>()].get<std::string>());
    const json& parent = member(node, "parent");
    if (!parent.is_number_unsigned()) break;
    index = parent.get<std::size_t>();
  }
  return files;
}

}  // namespace

TestFiles find_test_files(const model::BuildTargets& targets, const fs::path& source, const fs::path& build_dir,
                          const fs::path& top, const json& ctest_json,
                          const std::map<std::string, std::set<std::string>>& header_users) {
  TestFiles result;
  const fs::path clean_source = util::absolute_clean(source);
  const fs::path clean_top = util::absolute_clean(top);
  const fs::path clean_build = util::absolute_clean(build_dir);
  result.codemodel_problem = targets.problem;
  std::map<fs::path, const model::BuildTarget*> by_artifact;
  for (const auto& target : targets.targets)
    for (const auto& artifact : target.artifacts) by_artifact[fs::path(artifact)] = &target;

  // A path inside the source tree (and outside the build tree), relative to
  // the top level; empty otherwise.
  const auto relative = [&](const fs::path& path) -> std::string {
    const fs::path clean = util::absolute_clean(path);
    if (!util::is_within(clean, clean_source) || util::is_within(clean, clean_build)) return {};
    const fs::path inside = clean.lexically_relative(clean_top);
    if (inside.empty() || inside.generic_string().rfind("..", 0) == 0) return {};
    return inside.generic_string();
  };

  const json& graph = member(ctest_json, "backtraceGraph");
  std::set<const model::BuildTarget*> test_targets;
  std::map<std::string, std::set<fs::path>> definitions_by_test;
  const json& tests = member(ctest_json, "tests");
  if (tests.is_array()) {
    for (const json& test : tests) {
      const std::string name = string_member(test, "name");
      if (name.empty()) continue;
      auto& depends_on = result.by_test[name];
      for (const json& argument : member(test, "command")) {
        if (!argument.is_string()) continue;
        const fs::path path = argument.get<std::string>();
        if (!path.is_absolute()) continue;
        const fs::path clean = util::absolute_clean(path);
        if (const auto found = by_artifact.find(clean); found != by_artifact.end()) {
          test_targets.insert(found->second);
          for (const auto& file : found->second->sources)
            if (!file.generated)
              if (auto inside = relative(file.path); !inside.empty()) depends_on.insert(inside);
          for (const auto& file : found->second->definition_files) definitions_by_test[name].insert(file);
        } else if (auto inside = relative(clean); !inside.empty()) {
          std::error_code error;
          if (fs::is_regular_file(clean, error)) depends_on.insert(inside);
        }
      }
      for (const auto& file : backtrace_files(graph, member(test, "backtrace"))) {
        const fs::path path = file;
        definitions_by_test[name].insert(util::absolute_clean(path.is_absolute() ? path : clean_source / path));
      }
    }
  }
  // CMake files that define the code under test (any target no test runs)
  // are not test files, even when they also define tests.
  std::set<fs::path> defines_code;
  for (const auto& target : targets.targets)
    if (!test_targets.count(&target) && target.type != "UTILITY" && target.type != "INTERFACE_LIBRARY")
      defines_code.insert(target.definition_files.begin(), target.definition_files.end());
  for (auto& [name, files] : definitions_by_test)
    for (const auto& file : files)
      if (!defines_code.count(file))
        if (auto inside = relative(file); !inside.empty()) result.by_test[name].insert(inside);

  // Code: a file only tests use is a test file; a source that a non-test
  // target also compiles (a library source a test program compiles too) is
  // code, and so is every source of a target no test runs.
  std::set<std::string> test_target_names;
  std::map<std::string, std::set<std::string>> tests_of_target;  // target name -> the tests running it
  for (const auto* target : test_targets) test_target_names.insert(target->name);
  if (tests.is_array())
    for (const json& test : tests) {
      const std::string name = string_member(test, "name");
      for (const json& argument : member(test, "command")) {
        if (!argument.is_string() || !fs::path(argument.get<std::string>()).is_absolute()) continue;
        if (const auto found = by_artifact.find(util::absolute_clean(argument.get<std::string>()));
            found != by_artifact.end())
          tests_of_target[found->second->name].insert(name);
      }
    }
  std::vector<fs::path> code_directories;  // include directories of code targets
  for (const auto& target : targets.targets) {
    if (test_targets.count(&target) || target.type == "UTILITY") continue;
    for (const auto& file : target.sources)
      if (!file.generated)
        if (auto inside = relative(file.path); !inside.empty()) result.code.insert(inside);
    for (const auto& group : target.compile_groups)
      for (const auto& include : group.includes) {
        const fs::path directory = util::absolute_clean(include.path);
        if (util::is_within(directory, clean_source) && !util::is_within(directory, clean_build))
          code_directories.push_back(directory);
      }
  }
  // A header is classified by what includes it (the build's own record of
  // each object's inputs): one a code target's object includes is code; one
  // only test programs include is theirs, unless it sits in an include
  // directory of a code target (a header-only library's public header that
  // only its tests compile is still the library).
  for (const auto& [header, users] : header_users) {
    const fs::path path = fs::path(header).is_absolute() ? fs::path(header) : clean_build / header;
    const std::string inside = relative(path);
    if (inside.empty()) continue;
    bool code = false;
    for (const auto& user : users) code = code || !test_target_names.count(user);
    const fs::path clean = util::absolute_clean(path);
    for (const auto& directory : code_directories) code = code || util::is_within(clean, directory);
    if (code) {
      result.code.insert(inside);
      continue;
    }
    for (const auto& user : users)
      for (const auto& test : tests_of_target[user]) result.by_test[test].insert(inside);
  }
  for (const auto& [name, files] : result.by_test)
    for (const auto& file : files)
      if (!result.code.count(file)) result.files.insert(file);
  return result;
}

bool is_test_file(const std::string& path, const std::set<std::string>& files, const std::vector<std::string>& globs) {
  return files.count(path) > 0 || util::first_match(globs, path) != nullptr;
}

bool is_test_file_of_change(const std::string& path, const TestFiles& baseline, const TestFiles& candidate,
                            const std::vector<std::string>& globs) {
  if (path.empty()) return false;
  if (util::first_match(globs, path) != nullptr) return true;
  if (baseline.code.count(path)) return false;
  if (baseline.files.count(path)) return true;
  return candidate.files.count(path) > 0 && !candidate.code.count(path);
}

}  // namespace hydra::capture
