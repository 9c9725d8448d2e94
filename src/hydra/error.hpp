// The errors the library throws: each says what went wrong, never how the
// process ends. The command line (src/hydra/cli/exit_codes.hpp) alone turns
// an error into an exit code, as ccache's `ccache_main` does for its
// `core::Error`.
//
// - `Error`: a failure nobody should see (a bug, or the environment). Every
//   exception the library throws on purpose derives from it.
// - `UsageError`: an option, argument or setting the command cannot take.
// - `InputError`: a user's file cannot be read or parsed; it carries the file
//   and, for parse errors, the 1-based line and column, like toml++'s
//   `parse_error`.
// - `StepFailed`: a step of a capture or loop could not be run at all (its
//   tool is missing, the sandbox it requires cannot be made, a worktree
//   cannot be checked out).
// - `Tampered`: a run directory's sealed artifacts do not match their digests.
// - `NotMergeable`: `apply` was asked for a candidate that failed its gates.
// - `Refused`: `apply` will not write the change: the tree has changes, its
//   base moved, or the change does not apply.
//
// Outcomes that are not errors (a ranking whose top candidate is not
// mergeable, a verdict, a replay that differs) are returned as values.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace hydra {

/// Base class of every exception the library throws on purpose; thrown as
/// itself, an internal failure.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// Bad command-line usage (unknown option, missing argument, bad value, a
/// setting that contradicts another).
class UsageError : public Error {
 public:
  using Error::Error;
};

/// A user's file (or argument) is unreadable or malformed.
/// `what()` reads `FILE:LINE:COLUMN: message` (line/column omitted when 0).
class InputError : public Error {
 public:
  InputError(std::string file, const std::string& message, std::uint64_t line = 0,
             std::uint64_t column = 0)
      : Error(format(file, message, line, column)),
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

/// A step could not be run at all: its tool is not installed, the sandbox
/// it requires cannot be made, its tree cannot be checked out. (A step that
/// ran and failed is a result, recorded in the run, never this.)
class StepFailed : public Error {
 public:
  using Error::Error;
};

/// A sealed run directory does not match its manifest (the message names
/// the file).
class Tampered : public Error {
 public:
  using Error::Error;
};

/// `apply`: the chosen candidate failed its gates, and was not forced.
class NotMergeable : public Error {
 public:
  using Error::Error;
};

/// `apply`: the change is not written because the working tree has changes,
/// its `HEAD` is not the commit the change was made against, or the change
/// does not apply. Nothing was written.
class Refused : public Error {
 public:
  using Error::Error;
};

}  // namespace hydra
