// Internal to the lint log parser (parse/lint_log.cpp): reading lines (ANSI colour, caret lines, GCC's
// gutter) and the grammar of a diagnostic line.
// Inline: the parser calls these once per line or per byte block.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/util/utf8.hpp>

#include <hydra/model/lint.hpp>
#include <hydra/util/text.hpp>

namespace hydra::parse::lint_detail {

using model::Severity;

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

using util::starts_with;

/// Removes ANSI escape sequences (`ESC [ params letter`, or ESC and one
/// character: a whole UTF-8 sequence, never part of one) from `line` into
/// `scratch`.
inline std::string_view strip_ansi(std::string_view line, std::string& scratch) {
  scratch.clear();
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\x1b') {
      scratch += line[i];
      continue;
    }
    if (i + 1 < line.size() && line[i + 1] == '[') {
      i += 2;
      while (i < line.size() && !((line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= 'a' && line[i] <= 'z')))
        ++i;
    } else if (i + 1 < line.size()) {
      // ESC and the one character after it. Cutting a multi-byte character
      // in two would leave invalid UTF-8 in the finding (found by fuzzing).
      const auto* bytes = reinterpret_cast<const unsigned char*>(line.data());
      const std::size_t length = bytes[i + 1] < 0x80 ? 1 : util::utf8_sequence_length(bytes, i + 1, line.size());
      i += length == 0 ? 1 : length;
    }
  }
  return scratch;
}

/// A caret line ("   ^~~~", or GCC's "      |   ~~^~~") under a quoted source
/// line. Sets `gcc_gutter` when it has GCC's "|" gutter.
inline bool is_caret_line(std::string_view line, bool& gcc_gutter) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  gcc_gutter = i < line.size() && line[i] == '|';
  if (gcc_gutter) ++i;
  bool caret = false;
  for (; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '^') caret = true;
    else if (c != '~' && !is_space(c)) return false;
  }
  return caret;
}

/// The quoted source line with GCC's "  12 | " gutter removed when present
/// (the line number must never reach the fingerprint).
inline std::string_view without_gcc_gutter(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  const std::size_t digits_start = i;
  while (i < line.size() && is_digit(line[i])) ++i;
  const std::size_t after_digits = i;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i < line.size() && line[i] == '|' && (after_digits > digits_start || i > 0)) {
    return line.substr(i + 1);
  }
  return line;
}

/// Sets `out` to `text` with all whitespace removed.
inline void assign_without_whitespace(std::string& out, std::string_view text) {
  static const std::array<bool, 256> whitespace = [] {
    std::array<bool, 256> table{};
    for (const char c : {' ', '\t', '\r', '\v', '\f', '\n'}) table[static_cast<unsigned char>(c)] = true;
    return table;
  }();
  out.resize(text.size());
  std::size_t length = 0;
  for (const char c : text) {
    out[length] = c;
    length += whitespace[static_cast<unsigned char>(c)] ? 0 : 1;
  }
  out.resize(length);
}

inline bool parse_number(std::string_view digits, std::uint32_t& value) {
  if (digits.empty() || digits.size() > 9) return false;
  value = 0;
  for (const char c : digits) {
    if (!is_digit(c)) return false;
    value = value * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return true;
}

/// Compiler drivers whose location-less diagnostics ("clang: error: ...")
/// are findings; other programs (ninja, make, cmake) are not.
inline bool is_compiler_driver(std::string_view program) {
  const auto slash = program.rfind('/');
  if (slash != std::string_view::npos) program.remove_prefix(slash + 1);
  // Drop a version suffix: "g++-12", "clang++-14".
  if (const auto dash = program.rfind('-'); dash != std::string_view::npos && dash + 1 < program.size() &&
                                            is_digit(program[dash + 1]))
    program = program.substr(0, dash);
  static constexpr std::array<std::string_view, 9> drivers = {
      "gcc", "g++", "cc", "c++", "cc1", "cc1plus", "clang", "clang++", "clang-tidy"};
  for (const auto driver : drivers)
    if (program == driver) return true;
  return false;
}

/// One diagnostic line, taken apart (views into the line).
struct DiagnosticLine {
  std::string_view file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  Severity severity = Severity::warning;
  std::string_view message;
  std::string_view checks;  ///< the bracketed list, without brackets; empty when none
};

/// Reads "warning: " / "error: " / "fatal error: " at the start of `rest`;
/// removes it. False for anything else (notes, remarks, other text).
inline bool take_severity(std::string_view& rest, Severity& severity) {
  if (starts_with(rest, "warning: ")) {
    severity = Severity::warning;
    rest.remove_prefix(9);
  } else if (starts_with(rest, "error: ")) {
    severity = Severity::error;
    rest.remove_prefix(7);
  } else if (starts_with(rest, "fatal error: ")) {
    severity = Severity::error;
    rest.remove_prefix(13);
  } else {
    return false;
  }
  return true;
}

/// Splits "message [a,b]" into the message and "a,b". A bracketed tail with
/// spaces in it is part of the message, not a check list.
inline void split_checks(std::string_view rest, DiagnosticLine& out) {
  while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
  out.message = rest;
  if (rest.empty() || rest.back() != ']') return;
  const auto open = rest.rfind(" [");
  if (open == std::string_view::npos) return;
  const std::string_view inside = rest.substr(open + 2, rest.size() - open - 3);
  if (inside.empty() || inside.find(' ') != std::string_view::npos) return;
  out.checks = inside;
  out.message = rest.substr(0, open);
}

/// `path:line:col: severity: message [checks]`, `path:line: severity: ...`,
/// `severity: ...` or `driver: severity: ...`. False for any other line.
inline bool parse_diagnostic_line(std::string_view text, DiagnosticLine& out) {
  out = DiagnosticLine{};
  std::string_view rest;
  bool located = false;
  // Find the first ":<digits>:" (then optionally "<digits>:") followed by a space.
  for (std::size_t colon = text.find(':'); colon != std::string_view::npos && colon > 0;
       colon = text.find(':', colon + 1)) {
    std::size_t i = colon + 1;
    const std::size_t line_start = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i == line_start || i >= text.size() || text[i] != ':') continue;
    std::uint32_t line_number = 0;
    if (!parse_number(text.substr(line_start, i - line_start), line_number)) continue;
    std::uint32_t column_number = 0;
    std::size_t after = i + 1;
    const std::size_t column_start = after;
    while (after < text.size() && is_digit(text[after])) ++after;
    if (after > column_start && after < text.size() && text[after] == ':') {
      if (!parse_number(text.substr(column_start, after - column_start), column_number)) continue;
      ++after;
    } else {
      after = i + 1;  // no column
    }
    if (after >= text.size() || text[after] != ' ') continue;
    out.file = text.substr(0, colon);
    out.line = line_number;
    out.column = column_number;
    rest = text.substr(after + 1);
    located = true;
    break;
  }
  if (!located) {
    rest = text;
    if (!starts_with(rest, "warning: ") && !starts_with(rest, "error: ") &&
        !starts_with(rest, "fatal error: ")) {
      // "clang: error: ..." from a compiler driver.
      const auto colon = rest.find(": ");
      if (colon == std::string_view::npos || !is_compiler_driver(rest.substr(0, colon))) return false;
      rest.remove_prefix(colon + 2);
    }
  }
  if (!take_severity(rest, out.severity)) return false;
  split_checks(rest, out);
  return true;
}

/// Normalised check names: "-warnings-as-errors" and "-Werror" dropped,
/// "-Werror=flag" read as "-Wflag", a trailing "=" dropped ("-Wimplicit-fallthrough=").
inline std::size_t normalise_checks(std::string_view checks, std::vector<std::string>& into) {
  std::size_t count = 0;
  while (!checks.empty()) {
    const auto comma = checks.find(',');
    std::string_view check = checks.substr(0, comma);
    checks = comma == std::string_view::npos ? std::string_view() : checks.substr(comma + 1);
    if (check.empty() || check == "-warnings-as-errors" || check == "-Werror") continue;
    if (count == into.size()) into.emplace_back();
    std::string& out = into[count];
    if (starts_with(check, "-Werror=")) {
      out.assign("-W");
      out.append(check.substr(8));
    } else {
      out.assign(check);
    }
    if (starts_with(out, "-W") && out.size() > 2 && out.back() == '=') out.pop_back();
    ++count;
  }
  return count;
}

/// The next line of `log` from `position` (without "\n" / "\r\n"); moves
/// `position` past it. False at the end of the log.
inline bool take_line(std::string_view log, std::size_t& position, std::string_view& line) {
  if (position >= log.size()) return false;
  const char* start = log.data() + position;
  const std::size_t remaining = log.size() - position;
  const void* newline = std::memchr(start, '\n', remaining);
  std::size_t length = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - start) : remaining;
  position += newline ? length + 1 : length;
  if (length > 0 && start[length - 1] == '\r') --length;
  line = std::string_view(start, length);
  return true;
}


}  // namespace hydra::parse::lint_detail
