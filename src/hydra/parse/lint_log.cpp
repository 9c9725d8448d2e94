#include <hydra/parse/lint_log.hpp>

#include <array>
#include <cstring>
#include <functional>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::parse {
namespace {

using model::LintFinding;
using model::Severity;

enum class LogKind { clang_tidy, compiler };

constexpr std::uint64_t fnv_offset_basis = 14695981039346656037ULL;
constexpr std::uint64_t fnv_prime = 1099511628211ULL;

void fnv1a(std::uint64_t& hash, std::string_view bytes) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= fnv_prime;
  }
}

/// Fields are separated by a byte that cannot occur in any of them (0x1F,
/// "unit separator"), so ("ab", "c") and ("a", "bc") hash differently.
void fnv1a_field(std::uint64_t& hash, std::string_view bytes) {
  fnv1a(hash, bytes);
  fnv1a(hash, "\x1f");
}

std::string to_hex(std::uint64_t value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = digits[value & 0xF];
    value >>= 4;
  }
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && std::memcmp(text.data(), prefix.data(), prefix.size()) == 0;
}

/// Removes ANSI escape sequences (`ESC [ params letter`, or ESC and one
/// character) from `line` into `scratch`.
std::string_view strip_ansi(std::string_view line, std::string& scratch) {
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
    } else {
      ++i;  // ESC and the one character after it
    }
  }
  return scratch;
}

/// A caret line ("   ^~~~", or GCC's "      |   ~~^~~") under a quoted source
/// line. Sets `gcc_gutter` when it has GCC's "|" gutter.
bool is_caret_line(std::string_view line, bool& gcc_gutter) {
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
std::string_view without_gcc_gutter(std::string_view line) {
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

std::string without_whitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text)
    if (!is_space(c) && c != '\n') out += c;
  return out;
}

bool parse_number(std::string_view digits, std::uint32_t& value) {
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
bool is_compiler_driver(std::string_view program) {
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
bool take_severity(std::string_view& rest, Severity& severity) {
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
void split_checks(std::string_view rest, DiagnosticLine& out) {
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
bool parse_diagnostic_line(std::string_view text, DiagnosticLine& out) {
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
std::size_t normalise_checks(std::string_view checks, std::vector<std::string>& into) {
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

class LintLogReader {
 public:
  LintLogReader(std::string_view log, LogKind kind) : log_(log), kind_(kind) {}

  std::vector<LintFinding> read() {
    // Room for every finding the log can hold (a diagnostic line takes more
    // than 64 bytes with its source and caret lines), so the vector is never
    // moved while it grows; pages that are never written cost nothing.
    findings_.reserve(log_.size() / 64 + 16);
    std::size_t position = 0;
    std::string_view line;
    DiagnosticLine diagnostic;
    while (next_line(position, line, scratch_[0])) {
      if (line.empty() || !parse_diagnostic_line(line, diagnostic)) continue;
      const std::size_t check_count = normalise_checks(diagnostic.checks, checks_);
      if (kind_ == LogKind::compiler && diagnostic.severity == Severity::warning &&
          !has_warning_flag(check_count))
        continue;
      // The quoted source line, confirmed by the caret line under it.
      std::string_view source_line;
      std::size_t lookahead = position;
      std::string_view quoted;
      std::string_view caret;
      bool gcc_gutter = false;
      if (next_line(lookahead, quoted, scratch_[1]) && next_line(lookahead, caret, scratch_[2]) &&
          is_caret_line(caret, gcc_gutter)) {
        source_line = gcc_gutter ? without_gcc_gutter(quoted) : quoted;
        position = lookahead;
      }
      add(diagnostic, check_count, source_line);
    }
    return std::move(findings_);
  }

 private:
  /// The next line (without "\n" / "\r\n", ANSI colour removed) from
  /// `position`; false at the end of the log.
  bool next_line(std::size_t& position, std::string_view& line, std::string& scratch) const {
    if (position >= log_.size()) return false;
    const char* start = log_.data() + position;
    const std::size_t remaining = log_.size() - position;
    const void* newline = std::memchr(start, '\n', remaining);
    std::size_t length = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - start) : remaining;
    position += newline ? length + 1 : length;
    if (length > 0 && start[length - 1] == '\r') --length;
    line = std::string_view(start, length);
    if (std::memchr(start, '\x1b', length) != nullptr) line = strip_ansi(line, scratch);
    return true;
  }

  bool has_warning_flag(std::size_t check_count) const {
    for (std::size_t i = 0; i < check_count; ++i)
      if (starts_with(checks_[i], "-W")) return true;
    return false;
  }

  std::uint64_t identity_hash(const DiagnosticLine& diagnostic, std::size_t check_count) const {
    const std::hash<std::string_view> hash;
    std::uint64_t value = hash(diagnostic.file);
    const auto mix = [&value](std::uint64_t more) {
      value ^= more + 0x9e3779b97f4a7c15ULL + (value << 6) + (value >> 2);
    };
    mix((static_cast<std::uint64_t>(diagnostic.line) << 32) | diagnostic.column);
    mix(hash(diagnostic.message));
    for (std::size_t i = 0; i < check_count; ++i) mix(hash(checks_[i]));
    // MurmurHash3's finaliser: spreads the bits so that linear probing on the
    // low bits does not cluster.
    value ^= value >> 33;
    value *= 0xff51afd7ed558ccdULL;
    value ^= value >> 33;
    value *= 0xc4ceb9fe1a85ec53ULL;
    value ^= value >> 33;
    return value;
  }

  bool same_identity(const LintFinding& finding, const DiagnosticLine& diagnostic,
                     std::size_t check_count) const {
    if (finding.line != diagnostic.line || finding.column != diagnostic.column ||
        finding.file != diagnostic.file || finding.message != diagnostic.message ||
        finding.checks.size() != check_count)
      return false;
    for (std::size_t i = 0; i < check_count; ++i)
      if (finding.checks[i] != checks_[i]) return false;
    return true;
  }

  /// Adds the finding unless the same (file, line, column, checks, message)
  /// was seen before: an open-addressing table of finding indices. The
  /// finding is built before the table is probed (duplicates are rare), so
  /// that the memory access to the slot overlaps with that work.
  void add(const DiagnosticLine& diagnostic, std::size_t check_count, std::string_view source_line) {
    if ((findings_.size() + 1) * 2 > slots_.size()) grow();
    const std::uint64_t hash = identity_hash(diagnostic, check_count);
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = static_cast<std::size_t>(hash) & mask;
    __builtin_prefetch(&slots_[slot]);

    LintFinding& finding = findings_.emplace_back();
    finding.tool = kind_ == LogKind::compiler ? "compiler" : "clang-tidy";
    finding.file.assign(diagnostic.file);
    finding.line = diagnostic.line;
    finding.column = diagnostic.column;
    finding.severity = diagnostic.severity;
    finding.message.assign(diagnostic.message);
    finding.checks.assign(checks_.begin(), checks_.begin() + static_cast<std::ptrdiff_t>(check_count));
    finding.source_line = without_whitespace(source_line);
    finding.fingerprint = fingerprint(finding);

    while (slots_[slot].index != 0) {
      if (slots_[slot].hash == hash &&
          same_identity(findings_[slots_[slot].index - 1], diagnostic, check_count)) {
        findings_.pop_back();
        return;
      }
      slot = (slot + 1) & mask;
    }
    slots_[slot] = Slot{hash, findings_.size()};
  }

  void grow() {
    std::vector<Slot> larger(slots_.empty() ? 1024 : slots_.size() * 2);
    const std::size_t mask = larger.size() - 1;
    for (const Slot& used : slots_) {
      if (used.index == 0) continue;
      std::size_t slot = static_cast<std::size_t>(used.hash) & mask;
      while (larger[slot].index != 0) slot = (slot + 1) & mask;
      larger[slot] = used;
    }
    slots_.swap(larger);
  }

  std::string_view log_;
  LogKind kind_;
  std::array<std::string, 3> scratch_;
  std::vector<std::string> checks_;  ///< normalised checks of the current line (reused)
  /// One entry of the de-duplication table: a finding's identity hash and
  /// its index + 1 in findings_ (0 = empty slot).
  struct Slot {
    std::uint64_t hash = 0;
    std::size_t index = 0;
  };
  std::vector<LintFinding> findings_;
  std::vector<Slot> slots_;
};

std::vector<LintFinding> parse_log(std::string_view log, const std::string& source_name, LogKind kind) {
  util::require_text(log, source_name);
  return LintLogReader(log, kind).read();
}

}  // namespace

std::string fingerprint(const model::LintFinding& finding) {
  std::uint64_t hash = fnv_offset_basis;
  fnv1a_field(hash, finding.tool);
  fnv1a_field(hash, finding.file);
  for (std::size_t i = 0; i < finding.checks.size(); ++i) {
    if (i > 0) fnv1a(hash, ",");
    fnv1a(hash, finding.checks[i]);
  }
  fnv1a(hash, "\x1f");
  fnv1a_field(hash, finding.message);
  fnv1a(hash, finding.source_line);
  return to_hex(hash);
}

std::vector<model::LintFinding> parse_clang_tidy(std::string_view log, const std::string& source_name) {
  return parse_log(log, source_name, LogKind::clang_tidy);
}

std::vector<model::LintFinding> parse_clang_tidy_file(const std::filesystem::path& file) {
  return parse_clang_tidy(util::read_file(file), file.string());
}

std::vector<model::LintFinding> parse_compiler_warnings(std::string_view log,
                                                        const std::string& source_name) {
  return parse_log(log, source_name, LogKind::compiler);
}

std::vector<model::LintFinding> parse_compiler_warnings_file(const std::filesystem::path& file) {
  return parse_compiler_warnings(util::read_file(file), file.string());
}

}  // namespace hydra::parse
