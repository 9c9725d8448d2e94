// Errors and exit codes shared by the whole library.
//
// Two kinds of failure (see docs/cli.md "Exit codes"):
// - `InputError`: a user's file cannot be read or parsed. It carries the file
//   and, for parse errors, the 1-based line and column (0 when unknown).
// - `Error`: any other failure the tool reports and exits on. Every exception
//   the library throws on purpose derives from `Error`.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace hydra {

/// Process exit codes. Documented in `hydra-score --help`, README and docs/cli.md.
enum class ExitCode : int {
  success = 0,        ///< done; for `score` the top candidate is mergeable; for `compare`, improved
  internal = 1,       ///< unexpected failure (a bug or the environment)
  usage = 2,          ///< bad usage, or an unreadable or malformed input file
  not_mergeable = 3,  ///< `score`: the top-ranked candidate is not mergeable (or there is none)
  regressed = 4,      ///< `compare`: the candidate set regressed
  neutral = 5,        ///< `compare`: no meaningful change (never promotes)
  mismatch = 6,       ///< `replay`: re-scoring gave different output
  tampered = 7,       ///< a run directory's sealed artifacts do not match their digests
  step_failed = 8,    ///< `capture`/`loop`: a step could not be run at all
  refused = 9,        ///< `apply`: the working tree is not clean, its base moved, or the change does not apply
};

/// Base class of every exception the library throws on purpose.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, ExitCode code = ExitCode::internal)
      : std::runtime_error(message), code_(code) {}
  ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

/// A user's file (or argument) is unreadable or malformed.
/// `what()` reads `FILE:LINE:COLUMN: message` (line/column omitted when 0).
class InputError : public Error {
 public:
  InputError(std::string file, const std::string& message, std::uint64_t line = 0,
             std::uint64_t column = 0)
      : Error(format(file, message, line, column), ExitCode::usage),
        file_(std::move(file)),
        line_(line),
        column_(column),
        message_(message) {}

  const std::string& file() const noexcept { return file_; }
  std::uint64_t line() const noexcept { return line_; }
  std::uint64_t column() const noexcept { return column_; }
  const std::string& message() const noexcept { return message_; }

 private:
  static std::string format(const std::string& file, const std::string& message,
                            std::uint64_t line, std::uint64_t column) {
    std::string out = file;
    if (line > 0) {
      out += ":" + std::to_string(line);
      if (column > 0) out += ":" + std::to_string(column);
    }
    return out + ": " + message;
  }

  std::string file_;
  std::uint64_t line_;
  std::uint64_t column_;
  std::string message_;
};

/// Bad command-line usage (unknown option, missing argument, bad value).
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(message, ExitCode::usage) {}
};

/// A sealed run directory does not match its manifest.
class TamperError : public Error {
 public:
  explicit TamperError(const std::string& message) : Error(message, ExitCode::tampered) {}
};

}  // namespace hydra
