// Shared setup for end-to-end tests: real cmake, ctest, clang-tidy and git
// runs on copies of example-project in temporary directories.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
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

/// `run` with room for a capture of a dozen candidates on a loaded machine
/// (a limit for a hung process, not a timing assertion).
inline hydra::util::ProcessResult run_long(std::vector<std::string> argv,
                                           std::chrono::minutes timeout = std::chrono::minutes(45)) {
  hydra::util::ProcessRequest request;
  request.argv = std::move(argv);
  request.environment["NO_COLOR"] = "1";
  request.timeout = timeout;
  return hydra::util::run_process(request);
}

/// `hydra-score capture --source SOURCE --out OUT`, then `extra`.
inline std::vector<std::string> capture_command(const fs::path& source, const fs::path& out,
                                                std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {kTool.string(), "capture", "--source", source.string(), "--out", out.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

/// Captures the baseline of `source` into OUT/baseline (agent baseline, its
/// tree OUT/trees/baseline, Ninja), then `extra`; the test stops unless it succeeds.
inline void capture_baseline(const fs::path& source, const fs::path& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> options = {"--build-dir", (out / "trees/baseline").string(), "--agent", "baseline",
                                      "--generator", "Ninja"};
  options.insert(options.end(), extra.begin(), extra.end());
  const auto captured = run_long(capture_command(source, out / "baseline", options));
  INFO(captured.output);
  REQUIRE(captured.exit_code == 0);
}

/// Captures `repository`'s work tree as `agent` into ROOT/runs/AGENT (its tree
/// ROOT/trees/AGENT, quiet); every agent but "baseline" against ROOT/runs/baseline.
inline hydra::util::ProcessResult capture_agent(const fs::path& root, const fs::path& repository,
                                                const std::string& agent) {
  std::vector<std::string> options = {"--build-dir", (root / "trees" / agent).string(), "--agent", agent, "--quiet"};
  if (agent != "baseline") options.insert(options.end(), {"--baseline-run", (root / "runs" / "baseline").string()});
  return run(capture_command(repository, root / "runs" / agent, options));
}

/// Captures every branch `refs` names against OUT/baseline, two at a time,
/// into OUT/cand-NAME (Ninja, quiet), then `extra`; the test stops unless it succeeds.
inline void capture_refs(const fs::path& source, const fs::path& out, const std::string& refs = "cand/*",
                         std::vector<std::string> extra = {}) {
  std::vector<std::string> options = {"--ref", refs, "--baseline-run", (out / "baseline").string(),
                                      "--generator", "Ninja", "--jobs", "2", "--quiet"};
  options.insert(options.end(), extra.begin(), extra.end());
  const auto captured = run_long(capture_command(source, out, options));
  INFO(captured.output);
  REQUIRE(captured.exit_code == 0);
}

/// `hydra-score score --baseline OUT/baseline --json JSON --quiet`, a
/// `--candidate OUT/cand-NAME` for each of `names`, then `extra`.
inline std::vector<std::string> score_command(const fs::path& out, const std::vector<std::string>& names,
                                              const fs::path& json, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {kTool.string(), "score", "--baseline", (out / "baseline").string(),
                                   "--json", json.string(), "--quiet"};
  for (const auto& name : names) argv.insert(argv.end(), {"--candidate", (out / ("cand-" + name)).string()});
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

inline void git(const fs::path& directory, std::vector<std::string> arguments) {
  std::vector<std::string> argv = {"git", "-C", directory.string(), "-c", "user.name=e2e",
                                   "-c", "user.email=e2e@example.invalid"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const auto result = run(argv);
  if (result.exit_code != 0) throw std::runtime_error("git failed: " + result.output);
}

/// Makes `directory` a repository whose branch main holds everything in it as one commit.
inline void commit_repository(const fs::path& directory, const std::string& message = "baseline") {
  git(directory, {"init", "--quiet", "--initial-branch=main"});
  git(directory, {"add", "--all"});
  git(directory, {"commit", "--quiet", "-m", message});
}

/// Copies the files of `folder` to `destination` and commits them as main of a fresh repository.
inline void make_repository_from(const fs::path& folder, const fs::path& destination) {
  fs::create_directories(destination);
  fs::copy(folder, destination, fs::copy_options::recursive);
  commit_repository(destination);
}

/// Commits what `make` does to main as the branch cand/<name>, then checks out main again.
inline void commit_candidate(const fs::path& repository, const std::string& name, const std::function<void()>& make,
                             const std::string& prefix = "cand/") {
  git(repository, {"checkout", "--quiet", "-B", prefix + name, "main"});
  make();
  git(repository, {"add", "--all"});
  git(repository, {"commit", "--quiet", "--allow-empty", "-m", name});
  git(repository, {"checkout", "--quiet", "main"});
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
  commit_repository(destination);
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
