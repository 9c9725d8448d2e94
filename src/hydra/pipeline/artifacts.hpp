// What each artifact role of a run directory holds and which parser reads
// it: test results (JUnit, cargo test's console lines) and lint findings
// (clang-tidy, cargo's JSON messages, ESLint's JSON, flake8 and ruff text).
// Reference: docs/run-directory.md (its table of files names each file's
// role) and docs/parsers.md (one section per parser).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <hydra/model/lint.hpp>
#include <hydra/model/test.hpp>

namespace hydra::pipeline {

/// Whether artifacts of `role` hold test results of the run's own tests.
bool is_test_role(const std::string& role);
/// Whether artifacts of `role` hold lint findings.
bool is_lint_role(const std::string& role);

/// Test results of an artifact of a test role.
struct TestArtifact {
  std::vector<model::TestCase> tests;
  std::vector<std::string> problems;  ///< output that cannot be believed as a whole (cargo test's cross-checks)
  std::uint64_t replaced_bytes = 0;   ///< invalid UTF-8 bytes replaced (JUnit)
};
/// Parses `file`, an artifact of test role `role`. Throws hydra::InputError
/// for malformed input.
TestArtifact parse_test_artifact(const std::string& role, const std::filesystem::path& file);

/// Lint findings of an artifact of a lint role.
struct LintArtifact {
  std::vector<model::LintFinding> findings;
  /// Why the log is incomplete (the linter stopped early: cargo's build
  /// stopped at an error); empty when complete or the format cannot tell.
  std::string stopped_early;
};
/// Parses `file`, an artifact of lint role `role`. Throws hydra::InputError
/// for malformed input.
LintArtifact parse_lint_artifact(const std::string& role, const std::filesystem::path& file);

}  // namespace hydra::pipeline
