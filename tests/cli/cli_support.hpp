// Shared by the CLI tests: running the built hydra-score in temporary
// directories over the recorded fixtures of tests/fixtures/runs/.
//
// tests/fixtures/runs/<name>/      sealed run directories from `hydra-score capture`
// tests/fixtures/runs/raw/<name>/  raw artifacts of plain cmake/ctest/clang-tidy runs
// Both recorded by tests/fixtures/runs/record.sh from example-project.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/util/process.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

namespace cli_test {

namespace fs = std::filesystem;

inline const fs::path tool_path = HYDRA_TOOL_PATH;
inline const fs::path fixtures_dir = fs::path(HYDRA_FIXTURES_DIR);
inline const fs::path runs_dir = fixtures_dir / "runs";
inline const fs::path raw_dir = runs_dir / "raw";
inline const fs::path example_config = fs::path(HYDRA_SOURCE_DIR) / "example-project" / "hydra.toml";

/// What one run of the tool did.
struct ToolResult {
  int exit_code = -1;
  std::string output;  ///< stdout and stderr, merged in order
};

/// Runs hydra-score with `arguments` in `directory` (NO_COLOR set). The time
/// limit only keeps a hanging tool from blocking the suite; nothing asserts
/// on durations.
inline ToolResult run_tool(const std::vector<std::string>& arguments, const fs::path& directory) {
  hydra::util::ProcessRequest request;
  request.argv = {tool_path.string()};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  request.working_directory = directory;
  request.environment["NO_COLOR"] = "1";
  request.timeout = std::chrono::minutes(5);
  const auto result = hydra::util::run_process(request);
  REQUIRE(result.started);
  REQUIRE_FALSE(result.timed_out);
  return ToolResult{result.exit_code, result.output};
}

/// Copies the directory tree `from` to `to` (created with its parents).
inline void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy(from, to, fs::copy_options::recursive);
}

/// Writes `bytes` to `file` (binary, replacing it).
inline void write_bytes(const fs::path& file, const std::string& bytes) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << bytes;
  REQUIRE(out.good());
}

inline std::string read_bytes(const fs::path& file) { return hydra::util::read_file(file); }

/// The exit code of cmake --build recorded next to the raw artifacts of `name`.
inline std::string recorded_build_exit(const std::string& name) {
  std::string text = read_bytes(raw_dir / name / "build-exit-code");
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

/// The arguments of `hydra-score record` for the raw artifacts of `name`
/// (build exit code, build log, JUnit, ctest JSON, clang-tidy log, diff),
/// written to the run directory `out`.
inline std::vector<std::string> record_arguments(const std::string& name, const std::string& out) {
  const fs::path raw = raw_dir / name;
  return {"record",
          "--out", out,
          "--agent", name,
          "--build-exit", recorded_build_exit(name),
          "--build-log", (raw / "build.log").string(),
          "--junit", (raw / "junit.xml").string(),
          "--ctest-json", (raw / "ctest.json").string(),
          "--lint-log", (raw / "clang-tidy.log").string(),
          "--diff", (raw / "diff.patch").string()};
}

inline nlohmann::json read_json(const fs::path& file) { return nlohmann::json::parse(read_bytes(file)); }

/// The ranking entry of `agent` in a score contract.
inline const nlohmann::json& ranking_of(const nlohmann::json& contract, const std::string& agent) {
  for (const auto& entry : contract.at("rankings"))
    if (entry.at("agent") == agent) return entry;
  FAIL("agent not ranked: " << agent);
  throw std::logic_error("unreachable");
}

/// Agents in ranking order.
inline std::vector<std::string> ranked_agents(const nlohmann::json& contract) {
  std::vector<std::string> agents;
  for (const auto& entry : contract.at("rankings")) agents.push_back(entry.at("agent").get<std::string>());
  return agents;
}

}  // namespace cli_test
