// Plain data: one test's outcome, as read from JUnit XML and CTest's JSON.
#pragma once

#include <cstdint>
#include <map>
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
/// A case of a test program's framework report is `program` + "/" + `suite`
/// + "/" + `name` (docs/formulas.md, "Test cases").
struct TestCase {
  /// The CTest test whose program ran this case, when it is a case of a
  /// known test framework's report (GoogleTest, Catch2, doctest); empty for
  /// a test that is itself a CTest test or another runner's test.
  std::string program;
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

  std::string id() const { return program.empty() ? suite + "::" + name : program + "/" + suite + "/" + name; }
};

/// A CTest test whose program is a known test framework (docs/formulas.md,
/// "Test cases"): how its own report was read in the run's first attempt.
struct TestProgram {
  std::string test;       ///< the CTest test's name
  std::string framework;  ///< "googletest", "catch2", "doctest"
  /// "read": its report's cases stand for it; "missing": the program wrote
  /// no report; "unparsable": its report does not parse; "contradicted": it
  /// exited with a failure but its report lists no failed case; "empty": its
  /// report lists no case. Every state but "read" leaves the program one
  /// test, failed unless "empty".
  std::string report;
  std::string detail;                 ///< why, in words, when not "read"
  std::uint64_t cases = 0;            ///< cases its report lists
  std::uint64_t failed_cases = 0;     ///< of them failed or errored
  bool exit_passed = false;           ///< ctest's own verdict on the program (exit code, output rules)
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
  /// Every property as ctest lists it: name -> its value as compact JSON
  /// text (the fields above are the ones detectors read by name).
  std::map<std::string, std::string> properties;
};

}  // namespace hydra::model
