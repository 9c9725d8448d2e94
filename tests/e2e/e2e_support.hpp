// Shared setup for end-to-end tests: real cmake, ctest, clang-tidy and git
// runs on copies of example-project in temporary directories.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <hydra/util/process.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

namespace e2e {

namespace fs = std::filesystem;

inline const fs::path kSourceDir = HYDRA_SOURCE_DIR;
inline const fs::path kTool = HYDRA_TOOL_PATH;
inline const fs::path kExample = kSourceDir / "example-project";
inline const fs::path kModule = kSourceDir / "cmake" / "HydraScore.cmake";

/// Runs a command to completion; output merged. Timeout generous: these are
/// correctness tests, not timing tests.
inline hydra::util::ProcessResult run(std::vector<std::string> argv, const fs::path& directory = {},
                                         std::map<std::string, std::string> environment = {}) {
  hydra::util::ProcessRequest request;
  request.argv = std::move(argv);
  request.working_directory = directory;
  request.environment = std::move(environment);
  request.environment["NO_COLOR"] = "1";
  request.timeout = std::chrono::minutes(10);
  return hydra::util::run_process(request);
}

inline void git(const fs::path& directory, std::vector<std::string> arguments) {
  std::vector<std::string> argv = {"git", "-C", directory.string(), "-c", "user.name=e2e",
                                   "-c", "user.email=e2e@example.invalid"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const auto result = run(argv);
  if (result.exit_code != 0) throw std::runtime_error("git failed: " + result.output);
}

/// Copies example-project (without its candidate patches) to `destination`
/// and commits it as the baseline of a fresh repository.
inline void make_example_repository(const fs::path& destination) {
  fs::create_directories(destination);
  for (const auto& entry : fs::directory_iterator(kExample)) {
    if (entry.path().filename() == "candidates") continue;
    fs::copy(entry.path(), destination / entry.path().filename(),
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  git(destination, {"init", "--quiet", "--initial-branch=main"});
  git(destination, {"add", "--all"});
  git(destination, {"commit", "--quiet", "-m", "baseline"});
}

/// Restores the committed baseline, then applies a candidate patch.
inline void apply_candidate(const fs::path& repository, const std::string& name) {
  git(repository, {"checkout", "--quiet", "--", "."});
  git(repository, {"clean", "-fdq"});
  if (!name.empty())
    git(repository, {"apply", "--whitespace=nowarn", (kExample / "candidates" / (name + ".patch")).string()});
}

/// Commits candidate patch `name` on the branch agent/<name>, from main.
inline void make_agent_branch(const fs::path& repository, const std::string& name) {
  git(repository, {"checkout", "--quiet", "-b", "agent/" + name, "main"});
  git(repository, {"apply", "--whitespace=nowarn", (kExample / "candidates" / (name + ".patch")).string()});
  git(repository, {"add", "--all"});
  git(repository, {"commit", "--quiet", "-m", name});
  git(repository, {"checkout", "--quiet", "main"});
}

/// Replaces the first `from` in `file` with `to` (the test fails when `from` is not there).
inline void edit_file(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = hydra::util::read_file(file);
  const auto at = text.find(from);
  INFO(file.string() << " lacks: " << from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  hydra::util::write_file_atomic(file, text);
}

/// Writes `file` (and its folders); `executable`: mode 0744.
inline void create_file(const fs::path& file, const std::string& text, bool executable = false) {
  fs::create_directories(file.parent_path());
  hydra::util::write_file_atomic(file, text);
  if (executable) fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

inline nlohmann::json read_json(const fs::path& file) {
  return nlohmann::json::parse(hydra::util::read_file(file));
}

/// The ranking entry of `agent` in a score contract.
inline nlohmann::json ranking_of(const nlohmann::json& contract, const std::string& agent) {
  for (const auto& entry : contract.at("rankings"))
    if (entry.at("agent") == agent) return entry;
  throw std::runtime_error("agent not ranked: " + agent);
}

inline std::vector<std::string> failed_gates(const nlohmann::json& entry) {
  std::vector<std::string> names;
  for (const auto& gate : entry.at("gate_failures")) names.push_back(gate.at("gate").get<std::string>());
  return names;
}

inline std::vector<std::string> test_names(const nlohmann::json& tests) {
  std::vector<std::string> names;
  for (const auto& test : tests) names.push_back(test.at("name").get<std::string>());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace e2e
