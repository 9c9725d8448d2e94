// Plain data: one test's outcome, as read from JUnit XML and CTest's JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::model {

/// Outcome of one test. CTest's "notrun" with "Unable to find executable" or
/// "Required Files Missing" is `failed` (ctest itself counts it as failed).
enum class TestStatus { passed, failed, error, skipped, disabled };

/// "passed", "failed", "error", "skipped", "disabled".
std::string_view to_string(TestStatus status) noexcept;
/// Inverse of `to_string`; nullopt for anything else.
std::optional<TestStatus> test_status_from_string(std::string_view text) noexcept;

/// One run of a test on the same code (docs/formulas.md, "Flaky tests"): the
/// first run, a rerun of a failing test, or a repeat of the baseline's suite.
struct TestAttempt {
  TestStatus status = TestStatus::passed;
  double duration_seconds = 0.0;
  std::string message;  ///< as TestCase::message
};

/// One test case. Its identity is `suite` + "::" + `name`: the runner's full
/// path to the test (program, crate or file, suite, class, name, parameters)
/// without line numbers or run order, as each parser states it in
/// docs/parsers.md.
struct TestCase {
  std::string suite;
  std::string name;
  TestStatus status = TestStatus::passed;
  double duration_seconds = 0.0;
  std::vector<std::string> labels;  ///< sorted, unique
  std::string message;              ///< failure/skip reason, first line, at most 500 bytes
  /// The name the runner selects the test by, when it differs from `name`
  /// (a doc test's "src/lib.rs - add (line 3)", whose identity leaves the
  /// line out); empty otherwise. Not part of the identity.
  std::string selector;
  /// Every attempt of the test on this code, in order, when it ran more than
  /// once (parse/test_attempts.hpp merges them into the status above); empty
  /// when it ran once.
  std::vector<TestAttempt> attempts;

  std::string id() const { return suite + "::" + name; }
};

/// What `ctest --show-only=json-v1` says of one test: its command, labels and
/// the properties that decide whether and how it runs.
struct TestDefinition {
  std::string name;
  std::vector<std::string> command;  ///< argv; empty when ctest could not find the executable
  std::vector<std::string> labels;   ///< sorted, unique
  bool disabled = false;
  bool will_fail = false;
  std::optional<int> skip_return_code;
  std::vector<std::string> skip_regular_expression;
  std::vector<std::string> pass_regular_expression;
  std::vector<std::string> fail_regular_expression;
  std::string working_directory;
};

}  // namespace hydra::model
