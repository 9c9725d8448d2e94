// Plain data: lint findings from clang-tidy, compiler warnings, rustc/clippy,
// ESLint and flake8.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::model {

enum class Severity { warning, error };

/// "warning" or "error".
std::string_view to_string(Severity severity) noexcept;

/// `message` with the positions it mentions replaced by "N", as a finding's
/// fingerprint reads it (docs/parsers.md, "Fingerprint and de-duplication"):
/// a number after a position word (`line`, `lines`, `column`, `columns`,
/// `col`, `ln`; "from line 1", "on line 3 column 7", "(line 9)") and the
/// line and column after a file name with an extension ("src/a.cpp:12:5",
/// "lib.rs:3"), with the numbers chained to them by "-", ":" or ","
/// ("lines 3-5"). Other numbers (counts, limits, values) stay. Returns
/// false, leaving `out` alone, when there is nothing to replace.
bool position_free_message(std::string_view message, std::string& out);

/// One diagnostic. Identified across runs by its fingerprint, which hashes
/// the tool, file, checks, message and the whitespace-stripped source line,
/// never the line number (so moved code is not "new"), nor a position inside
/// the message (position_free_message).
///
/// A value type whose text lives in one allocation: a large log gives a
/// million of these, and six strings each made building them the larger part
/// of parsing (bench/README.md). That text is the fingerprint's input,
/// `tool 0x1F file 0x1F checks-joined-by-"," 0x1F message 0x1F source_line`
/// (with the message's positions replaced when it mentions any).
class LintFinding {
 public:
  /// What a finding is made of.
  struct Parts {
    std::string_view tool;  ///< "clang-tidy", "compiler", "rustc", "clippy", "eslint", "flake8" (or as the caller names it)
    std::string_view file;  ///< as printed (the caller may make it relative); empty when location-less
    std::uint32_t line = 0;    ///< 1-based; 0 when location-less
    std::uint32_t column = 0;  ///< 1-based; 0 when not printed
    Severity severity = Severity::warning;
    std::string_view message;
    /// Check names joined by ",", e.g. "bugprone-branch-clone" or
    /// "-Wunused-variable"; empty when none. No name is empty or holds a comma.
    std::string_view checks;
    std::string_view source_line;  ///< the quoted source line with all whitespace removed; empty if none printed
  };

  /// An empty finding (every text part empty).
  LintFinding();
  /// Throws hydra::Error when the parts together exceed 4 GiB.
  explicit LintFinding(const Parts& parts);

  std::string_view tool() const noexcept { return std::string_view(text_).substr(0, tool_end_); }
  std::string_view file() const noexcept { return part(tool_end_, file_end_); }
  std::uint32_t line() const noexcept { return line_; }
  std::uint32_t column() const noexcept { return column_; }
  Severity severity() const noexcept { return severity_; }
  std::string_view message() const noexcept { return part(checks_end_, message_end_); }
  /// The check names joined by ","; empty when none.
  std::string_view joined_checks() const noexcept { return part(file_end_, checks_end_); }
  /// The check names, in the order printed.
  std::vector<std::string_view> checks() const;
  std::string_view source_line() const noexcept { return part(message_end_, static_cast<std::uint32_t>(text_.size())); }

  /// xxh64 (seed 0) of fingerprint_bytes(): stable across runs and machines.
  std::uint64_t fingerprint() const noexcept { return fingerprint_; }
  /// fingerprint() as 16 lower-case hex digits, as the JSON output shows it.
  std::string fingerprint_hex() const;
  /// `tool 0x1F file 0x1F checks 0x1F message 0x1F source_line`, the message
  /// without the positions it mentions (position_free_message).
  std::string fingerprint_bytes() const;

  /// Replaces the file (e.g. made relative to the source root); the
  /// fingerprint follows.
  void set_file(std::string_view file);

 private:
  /// The text between the separator at `separator` and `end`.
  std::string_view part(std::uint32_t separator, std::uint32_t end) const noexcept {
    return std::string_view(text_).substr(separator + 1, end - separator - 1);
  }

  /// `tool 0x1F file 0x1F checks 0x1F message 0x1F source_line`, the
  /// message as printed.
  std::string text_;
  std::uint32_t tool_end_ = 0;     ///< offsets of the four 0x1F separators in text_
  std::uint32_t file_end_ = 1;
  std::uint32_t checks_end_ = 2;
  std::uint32_t message_end_ = 3;
  std::uint32_t line_ = 0;
  std::uint32_t column_ = 0;
  Severity severity_ = Severity::warning;
  std::uint64_t fingerprint_ = 0;
};

}  // namespace hydra::model
