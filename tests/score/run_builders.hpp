// Small builders for model::Run values used by the scoring unit tests. The
// scoring functions are pure, so their tests build runs directly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <hydra/model/run.hpp>

namespace hydra::test {

/// A test case of suite "ctest".
inline model::TestCase make_test(const std::string& name,
                                 model::TestStatus status = model::TestStatus::passed) {
  model::TestCase test;
  test.suite = "ctest";
  test.name = name;
  test.status = status;
  return test;
}

/// `count` tests named `prefix`0, `prefix`1, ... with `status`, appended to `tests`.
inline void add_tests(std::vector<model::TestCase>& tests, const std::string& prefix, int count,
                      model::TestStatus status = model::TestStatus::passed) {
  for (int index = 0; index < count; ++index) {
    tests.push_back(make_test(prefix + std::to_string(index), status));
  }
}

/// A clang-tidy finding identified by `name`: its message is "finding <name>",
/// so findings of different names have different fingerprints (the scoring
/// matches by fingerprint).
inline model::LintFinding make_finding(const std::string& name, model::Severity severity,
                                       const std::string& file = "src/a.cpp",
                                       const std::string& tool = "clang-tidy") {
  model::LintFinding::Parts parts;
  parts.tool = tool;
  parts.file = file;
  parts.line = 1;
  parts.column = 1;
  parts.severity = severity;
  const std::string message = "finding " + name;
  parts.message = message;
  parts.checks = "bugprone-example";
  return model::LintFinding(parts);
}

/// `errors` error findings and `warnings` warning findings with distinct
/// names starting with `prefix`.
inline std::vector<model::LintFinding> make_findings(const std::string& prefix, int errors,
                                                     int warnings) {
  std::vector<model::LintFinding> findings;
  for (int index = 0; index < errors; ++index) {
    findings.push_back(make_finding(prefix + "e" + std::to_string(index), model::Severity::error));
  }
  for (int index = 0; index < warnings; ++index) {
    findings.push_back(make_finding(prefix + "w" + std::to_string(index), model::Severity::warning));
  }
  return findings;
}

/// A diff touching `path` with `added`/`removed` lines.
inline model::DiffFile make_diff_file(const std::string& path, std::uint64_t added,
                                      std::uint64_t removed) {
  model::DiffFile file;
  file.path = path;
  file.added = added;
  file.removed = removed;
  return file;
}

/// A run whose build passed, with the given tests and lint findings, a
/// one-file diff and digest "digest-`agent`".
inline model::Run make_run(const std::string& agent,
                           std::optional<std::vector<model::TestCase>> tests = std::nullopt,
                           std::optional<std::vector<model::LintFinding>> lint = std::nullopt) {
  model::Run run;
  run.agent = agent;
  run.path = "runs/" + agent;
  run.digest = "digest-" + agent;
  run.build.known = true;
  run.build.passed = true;
  run.build.exit_code = 0;
  run.build.seconds = 1.5;
  run.tests = std::move(tests);
  run.lint = std::move(lint);
  if (!run.lint) run.lint_inactive_reason = "clang-tidy not found";
  return run;
}

/// `count` passing tests named t0.., as an optional for make_run.
inline std::vector<model::TestCase> passing_tests(int count) {
  std::vector<model::TestCase> tests;
  add_tests(tests, "t", count);
  return tests;
}

}  // namespace hydra::test
