// Shared by the report tests: the input fixtures, golden-file comparison and
// a place for artifacts (screenshots) in the build tree.
//
// Goldens live in tests/fixtures/report/. To re-record them after a deliberate
// change of a renderer, run the tests with HYDRA_UPDATE_GOLDEN=1 (or
// tests/fixtures/report/record.sh), then review the diff.
#pragma once

#include <catch2/catch.hpp>

#include <hydra/util/files.hpp>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "test_paths.hpp"

namespace report_test {

inline std::filesystem::path fixtures_dir() { return std::filesystem::path(HYDRA_FIXTURES_DIR) / "report"; }

/// The real score contract: `hydra-score score --json` over the recorded run
/// directories of tests/fixtures/runs/ (see tests/fixtures/report/README.md).
/// Ranked: clean-fix, deletes-tests, breaks-test, protected-lint.
inline nlohmann::json real_contract() {
  return nlohmann::json::parse(hydra::util::read_file(fixtures_dir() / "contract.json"));
}

/// The agent name the escaping tests use: a table separator, an HTML tag and
/// an entity start in one string.
inline const std::string hostile_agent = "claude|<fast>&co";

/// The real contract with hostile strings put into a copy in memory:
/// protected-lint (rank 4, the one with new clang-tidy findings) is renamed
/// `hostile_agent`; its second new finding gets an absolute path with a `|`
/// and a message with `|`, backticks, `*` and `<here>`.
inline nlohmann::json hostile_contract() {
  nlohmann::json contract = real_contract();
  auto& protected_lint = contract.at("rankings").at(3);
  REQUIRE(protected_lint.at("agent") == "protected-lint");
  protected_lint["agent"] = hostile_agent;
  auto& finding = protected_lint.at("lint").at("introduced").at(1);
  finding["file"] = "/home/ci/project/src/parse|x.cpp";
  finding["message"] = finding.at("message").get<std::string>() + " | `a*b` <here>";
  return contract;
}

/// A real loop report (tests/fixtures/report/record-loop.sh: `hydra-score
/// loop` on example-project with a scripted improver; a plateau).
inline nlohmann::json real_loop_report() {
  return nlohmann::json::parse(hydra::util::read_file(fixtures_dir() / "loop.json"));
}

/// Where tests leave files worth looking at (screenshots, mismatching output):
/// test-artifacts/report under the working directory (ctest runs the tests in
/// <build>/tests).
inline std::filesystem::path artifacts_dir() {
  const auto dir = std::filesystem::current_path() / "test-artifacts" / "report";
  std::filesystem::create_directories(dir);
  return dir;
}

inline bool updating_goldens() {
  const char* value = std::getenv("HYDRA_UPDATE_GOLDEN");
  return value != nullptr && value[0] != '\0' && std::string(value) != "0";
}

/// Compares `actual` byte for byte with the golden file `name`; with
/// HYDRA_UPDATE_GOLDEN=1 rewrites the golden instead.
inline void check_golden(const std::string& name, const std::string& actual) {
  const auto golden = fixtures_dir() / name;
  CAPTURE(golden.string());
  if (updating_goldens()) {
    hydra::util::write_file_atomic(golden, actual);
    WARN("re-recorded " << golden.string());
    CHECK(hydra::util::read_file(golden) == actual);
    return;
  }
  REQUIRE(std::filesystem::exists(golden));
  const std::string expected = hydra::util::read_file(golden);
  const bool same = expected == actual;
  std::string difference;
  if (!same) {
    // Report the first differing line rather than two whole documents.
    std::istringstream expected_lines(expected);
    std::istringstream actual_lines(actual);
    std::string expected_line;
    std::string actual_line;
    std::size_t line = 0;
    while (true) {
      ++line;
      const bool more_expected = static_cast<bool>(std::getline(expected_lines, expected_line));
      const bool more_actual = static_cast<bool>(std::getline(actual_lines, actual_line));
      if (!more_expected || !more_actual || expected_line != actual_line) break;
    }
    const auto actual_file = artifacts_dir() / (name + ".actual");
    hydra::util::write_file_atomic(actual_file, actual);
    difference = "first difference at line " + std::to_string(line) + "\n  expected: " + expected_line +
                 "\n  actual:   " + actual_line + "\n  whole output: " + actual_file.string() +
                 "\n  (re-record with HYDRA_UPDATE_GOLDEN=1 if the change is intended)";
  }
  INFO(difference);
  CHECK(same);
}

/// Runs `command` with /bin/sh and returns its exit status (-1 if it did not exit).
inline int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

/// `text` quoted for /bin/sh.
inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace report_test
