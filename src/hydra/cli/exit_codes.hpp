// The exit codes of hydra-score: one table that says, for every code, its
// name, its meaning and which error kind (hydra/error.hpp) ends a command
// with it. The library throws kinds and returns results; only cli/ turns
// them into a process status. `hydra-score --help` prints the table;
// README.md and docs/cli.md list the same codes (tests/cli/test_exit_codes.cpp
// compares them). Reference: docs/cli.md, "Exit codes".
#pragma once

#include <array>
#include <exception>
#include <string>
#include <string_view>

#include <hydra/eval/verdict.hpp>

namespace hydra::cli {

/// The process's exit status. The numbers are part of the interface: never
/// renumber them.
enum class ExitCode : int {
  success = 0,        ///< done; for `score` the top candidate is mergeable; for `compare`, improved
  internal = 1,       ///< unexpected failure (a bug or the environment): hydra::Error itself
  usage = 2,          ///< hydra::UsageError, hydra::InputError, a command line CLI11 rejects
  not_mergeable = 3,  ///< `score`'s result; hydra::NotMergeable (`apply`)
  regressed = 4,      ///< `compare`'s verdict
  neutral = 5,        ///< `compare`'s verdict (never promotes)
  mismatch = 6,       ///< `replay`'s result
  tampered = 7,       ///< hydra::Tampered
  step_failed = 8,    ///< hydra::StepFailed
  refused = 9,        ///< hydra::Refused (`apply`)
};

/// One row of the table.
struct ExitCodeRow {
  ExitCode code;
  std::string_view name;     ///< a word for it: "not-mergeable"
  std::string_view meaning;  ///< one line, as `--help` prints it
  /// Whether `error` is of the kind that ends a command with this code;
  /// null for codes only results give (and for `internal`, the fallback).
  bool (*raised_by)(const std::exception& error);
};

/// Every exit code, 0 through 9, in order.
const std::array<ExitCodeRow, 10>& exit_code_table();

/// The "Exit codes:" block `--help` ends with: one line per row.
std::string exit_code_help();

/// The status `main` returns for `code`.
constexpr int status(ExitCode code) noexcept { return static_cast<int>(code); }

/// The exit code an exception ends a command with: the first row whose
/// kind it is, else `internal` (a plain hydra::Error, any other exception).
ExitCode exit_code_of(const std::exception& error) noexcept;

/// `compare`: improved -> success, neutral -> neutral, regressed -> regressed.
ExitCode exit_code_of(eval::Verdict verdict) noexcept;

/// A failure returned rather than thrown (one capture of a batch): what it
/// says and the exit code it would end a command with.
struct Failure {
  ExitCode code = ExitCode::internal;
  std::string message;
};
Failure failure_of(const std::exception_ptr& failure);

}  // namespace hydra::cli
