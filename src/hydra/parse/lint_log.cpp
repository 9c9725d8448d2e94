#include <hydra/parse/lint_log.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <limits>
#include <system_error>
#include <thread>

#include <hydra/error.hpp>
#include <hydra/parse/lint_dedup.hpp>
#include <hydra/parse/lint_grammar.hpp>
#include <hydra/parse/lint_text.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/mapped_file.hpp>
#include <hydra/util/xxh64.hpp>

// The clang-tidy / compiler-warning log parser. Its parts: text checks
// (lint_text.hpp), lines and the diagnostic grammar (lint_grammar.hpp),
// de-duplication (lint_dedup.hpp); here, reading one part of a log, and
// splitting a large log into parts read in parallel and merging them.
namespace hydra::parse {
namespace {

using namespace lint_detail;
using model::LintFinding;
using model::Severity;

enum class LogKind { clang_tidy, compiler };

// --- Reading one part of a log -----------------------------------------------

/// A diagnostic read but not added yet. Its text is copied out of the line
/// buffers (which the next lines reuse) into buffers of its own, which are
/// reused from one diagnostic to the next.
struct PendingDiagnostic {
  std::string identity_bytes;  ///< `file 0x1F checks-joined-by-"," 0x1F message`
  std::size_t file_length = 0;
  std::size_t checks_length = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  Severity severity = Severity::warning;
  std::string source_line;  ///< whitespace removed
  std::uint64_t identity_hash = 0;

  std::string_view file() const { return std::string_view(identity_bytes).substr(0, file_length); }
  /// The normalised checks joined by "," (none holds a comma or is empty).
  std::string_view checks() const {
    return std::string_view(identity_bytes).substr(file_length + 1, checks_length);
  }
  std::string_view message() const {
    return std::string_view(identity_bytes).substr(file_length + checks_length + 2);
  }

  /// See same_identity.
  bool same_identity_as(const LintFinding& finding) const {
    return finding.line() == line && finding.column() == column && finding.file() == file() &&
           finding.message() == message() && finding.joined_checks() == checks();
  }
};

/// What reading one part of a log gives: its findings in log order, each
/// kept once within the part, with their identity hashes (same index).
struct PartResult {
  std::vector<LintFinding> findings;
  std::vector<std::uint64_t> identity_hashes;
  IdentityTable identities;
  TextProblems problems;
};

/// Reads the diagnostics on the lines that start in `log[begin, end)`; the
/// source and caret lines of the last one may lie after `end`. `begin` must
/// be a line where a serial parse is between diagnostics (see
/// part_boundaries), so that the parts read together give what a serial
/// parse gives.
class PartReader {
 public:
  PartReader(std::string_view log, LogKind kind, std::size_t begin, std::size_t end, PartResult& out)
      : log_(log), kind_(kind), begin_(begin), end_(end), checked_up_to_(begin), out_(out) {}

  void read() {
    std::size_t position = begin_;
    std::string_view line;
    DiagnosticLine diagnostic;
    while (position < end_ && next_line(position, line, scratch_[0])) {
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
      if (out_.problems.any()) break;
      add(diagnostic, check_count, source_line);
    }
    while (pending_ > 0) settle_oldest_pending();
    if (out_.problems.first_nul == npos && out_.problems.first_invalid_utf8 < end_) {
      // The findings are of no use now; what is left to know is whether the
      // rest of the part holds a NUL byte, the error reported first.
      const std::size_t from = out_.problems.first_invalid_utf8;
      if (const void* nul = std::memchr(log_.data() + from, '\0', end_ - from))
        out_.problems.first_nul = static_cast<std::size_t>(static_cast<const char*>(nul) - log_.data());
    }
  }

 private:
  /// The next line (ANSI colour removed) from `position`; false at the end
  /// of the log or at the first text problem. The log is checked as text a
  /// block of lines at a time, ahead of the lines read.
  bool next_line(std::size_t& position, std::string_view& line, std::string& scratch) {
    if (out_.problems.any() || !take_line(log_, position, line)) return false;
    if (position > checked_up_to_) {
      // Lines are read in order, so checked_up_to_ is the start of this line.
      const std::size_t end = block_end(position);
      const bool escape = check_text(log_, checked_up_to_, end, out_.problems);
      checked_up_to_ = end;
      // A line read again (the two after a diagnostic) may lie in the block before.
      escape_in_last_two_blocks_ = escape_in_last_block_ || escape;
      escape_in_last_block_ = escape;
      if (out_.problems.any()) return false;
    }
    if (escape_in_last_two_blocks_ && std::memchr(line.data(), '\x1b', line.size()) != nullptr)
      line = strip_ansi(line, scratch);
    return true;
  }

  /// The end of the line about text_check_block bytes after `from` (a line start).
  std::size_t block_end(std::size_t from) const {
    const std::size_t target = std::min(from + text_check_block, log_.size());
    if (target == log_.size()) return target;
    const void* newline = std::memchr(log_.data() + target, '\n', log_.size() - target);
    return newline != nullptr ? static_cast<std::size_t>(static_cast<const char*>(newline) - log_.data()) + 1
                              : log_.size();
  }

  /// About how many bytes are checked as text at a time.
  static constexpr std::size_t text_check_block = 16 * 1024;

  bool has_warning_flag(std::size_t check_count) const {
    for (std::size_t i = 0; i < check_count; ++i)
      if (starts_with(checks_[i], "-W")) return true;
    return false;
  }

  /// Queues the diagnostic. Whether the same (file, line, column, checks,
  /// message) was seen before in this part is decided a few diagnostics
  /// later (see dedup_window), once its slot in the identity table is loaded.
  void add(const DiagnosticLine& diagnostic, std::size_t check_count, std::string_view source_line) {
    if (pending_ == dedup_window) settle_oldest_pending();
    PendingDiagnostic& pending = pending_ring_[(first_pending_ + pending_) % dedup_window];
    ++pending_;
    std::string& identity = pending.identity_bytes;
    identity.assign(diagnostic.file);
    pending.file_length = identity.size();
    identity += '\x1f';
    for (std::size_t i = 0; i < check_count; ++i) {
      if (i > 0) identity += ',';
      identity += checks_[i];
    }
    pending.checks_length = identity.size() - pending.file_length - 1;
    identity += '\x1f';
    identity.append(diagnostic.message);
    pending.line = diagnostic.line;
    pending.column = diagnostic.column;
    pending.severity = diagnostic.severity;
    assign_without_whitespace(pending.source_line, source_line);
    pending.identity_hash = util::xxh64(identity, (std::uint64_t{diagnostic.line} << 32) | diagnostic.column);
    out_.identities.prefetch(pending.identity_hash);
  }

  /// Adds the oldest pending diagnostic as a finding, unless it is the same
  /// as a finding already added.
  void settle_oldest_pending() {
    const PendingDiagnostic& pending = pending_ring_[first_pending_];
    first_pending_ = (first_pending_ + 1) % dedup_window;
    --pending_;
    std::vector<LintFinding>& findings = out_.findings;
    out_.identities.reserve(findings.size() + 1);
    const bool added = out_.identities.add_if_new(pending.identity_hash, findings.size(), [&](std::size_t other) {
      return pending.same_identity_as(findings[other]);
    });
    if (!added) return;

    LintFinding::Parts parts;
    parts.tool = kind_ == LogKind::compiler ? "compiler" : "clang-tidy";
    parts.file = pending.file();
    parts.line = pending.line;
    parts.column = pending.column;
    parts.severity = pending.severity;
    parts.message = pending.message();
    parts.checks = pending.checks();
    parts.source_line = pending.source_line;
    findings.emplace_back(parts);
    out_.identity_hashes.push_back(pending.identity_hash);
  }

  /// How many diagnostics are read between asking for a diagnostic's slot in
  /// the identity table and probing it: the table is far larger than the
  /// caches, and probing right after hashing stalled on the slot (about a
  /// fifth of the parse time in a profile).
  static constexpr std::size_t dedup_window = 16;

  std::string_view log_;
  LogKind kind_;
  std::size_t begin_;
  std::size_t end_;
  std::size_t checked_up_to_;  ///< the log is checked as text up to here (the start of a line)
  bool escape_in_last_block_ = false;       ///< whether the last block checked holds an ESC byte
  bool escape_in_last_two_blocks_ = false;  ///< ... or the block before it
  PartResult& out_;
  std::array<std::string, 3> scratch_;
  std::vector<std::string> checks_;  ///< normalised checks of the current line (reused)
  std::array<PendingDiagnostic, dedup_window> pending_ring_;  ///< diagnostics not added yet, oldest first from first_pending_
  std::size_t first_pending_ = 0;
  std::size_t pending_ = 0;
};

// --- Splitting, and putting the parts together ---------------------------------

/// How many parts to read `log` in.
std::size_t part_count(std::size_t log_size, const LintParseOptions& options) {
  // One part per hardware thread: the findings of every part after the first
  // are moved into the result on one thread (merge_parts), so parts beyond
  // the cores only add work.
  std::size_t count = options.threads;
  if (count == 0) count = std::max<std::size_t>(std::thread::hardware_concurrency(), 1);
  if (options.min_bytes_per_thread > 0) count = std::min(count, std::max<std::size_t>(1, log_size / options.min_bytes_per_thread));
  return count;
}

/// Whether the line at `position` is a caret line (so a serial parse may
/// read it as the last line of a diagnostic).
bool caret_line_at(std::string_view log, std::size_t position, std::string& scratch) {
  std::string_view line;
  if (!take_line(log, position, line)) return false;
  if (std::memchr(line.data(), '\x1b', line.size()) != nullptr) line = strip_ansi(line, scratch);
  bool gcc_gutter = false;
  return is_caret_line(line, gcc_gutter);
}

/// Where each part starts (then the log's size): about `count` equal parts,
/// each starting at a line that a serial parse reads as a new line, never as
/// a diagnostic's source or caret line. A diagnostic takes the two lines
/// after it only when the second is a caret line, so a line qualifies when
/// neither it nor the line after it is a caret line, whatever came before.
/// Fewer parts when no such line is found.
std::vector<std::size_t> part_boundaries(std::string_view log, std::size_t count) {
  std::vector<std::size_t> boundaries{0};
  std::string scratch;
  for (std::size_t part = 1; part < count; ++part) {
    std::size_t position = std::max(log.size() / count * part, boundaries.back() + 1);
    if (position >= log.size()) break;
    // The start of the next line.
    const void* newline = std::memchr(log.data() + position - 1, '\n', log.size() - position + 1);
    if (newline == nullptr) break;
    position = static_cast<std::size_t>(static_cast<const char*>(newline) - log.data()) + 1;
    std::string_view line;
    std::size_t after = position;
    while (take_line(log, after, line)) {
      if (!caret_line_at(log, position, scratch) && !caret_line_at(log, after, scratch)) break;
      position = after;
    }
    if (position >= log.size()) break;
    boundaries.push_back(position);
  }
  boundaries.push_back(log.size());
  return boundaries;
}

/// Throws the InputError for the first problem of the whole log: a NUL byte
/// anywhere comes before invalid UTF-8 (as in hydra::util::require_text).
void throw_if_not_text(const std::vector<PartResult>& parts, std::string_view log, const std::string& source_name) {
  TextProblems first;
  for (const PartResult& part : parts) {
    first.first_nul = std::min(first.first_nul, part.problems.first_nul);
    first.first_invalid_utf8 = std::min(first.first_invalid_utf8, part.problems.first_invalid_utf8);
  }
  if (first.first_nul != npos) {
    const auto at = util::position_of(log, first.first_nul);
    throw InputError(source_name, "binary data (NUL byte), expected a text file", at.line, at.column);
  }
  if (first.first_invalid_utf8 != npos) {
    const auto at = util::position_of(log, first.first_invalid_utf8);
    throw InputError(source_name, "invalid UTF-8", at.line, at.column);
  }
}

/// The parts' findings in log order, each finding kept once: a finding of a
/// later part is dropped when an earlier part has the same identity (each
/// part has already kept only the first of its own duplicates).
std::vector<LintFinding> merge_parts(std::vector<PartResult>& parts) {
  std::vector<std::vector<bool>> keep(parts.size());
  for (std::size_t later = 1; later < parts.size(); ++later) {
    const PartResult& part = parts[later];
    keep[later].assign(part.findings.size(), true);
    constexpr std::size_t prefetch_distance = 16;
    for (std::size_t i = 0; i < part.findings.size(); ++i) {
      if (i + prefetch_distance < part.findings.size())
        for (std::size_t earlier = 0; earlier < later; ++earlier)
          parts[earlier].identities.prefetch(part.identity_hashes[i + prefetch_distance]);
      for (std::size_t earlier = 0; earlier < later && keep[later][i]; ++earlier) {
        const std::vector<LintFinding>& earlier_findings = parts[earlier].findings;
        keep[later][i] = !parts[earlier].identities.contains(
            part.identity_hashes[i],
            [&](std::size_t index) { return same_identity(earlier_findings[index], part.findings[i]); });
      }
    }
  }
  std::vector<LintFinding> findings = std::move(parts[0].findings);
  for (std::size_t later = 1; later < parts.size(); ++later)
    for (std::size_t i = 0; i < parts[later].findings.size(); ++i)
      if (keep[later][i]) findings.push_back(std::move(parts[later].findings[i]));
  return findings;
}

std::vector<LintFinding> parse_log(std::string_view log, const std::string& source_name, LogKind kind,
                                   const LintParseOptions& options) {
  const std::vector<std::size_t> boundaries = part_boundaries(log, part_count(log.size(), options));
  std::vector<PartResult> parts(boundaries.size() - 1);
  // Room for every finding the log is likely to hold (a clang-tidy diagnostic
  // takes more than 64 bytes with its source and caret lines), so the vectors
  // are rarely moved while they grow; pages never written cost nothing. The
  // first part's vector becomes the result.
  parts[0].findings.reserve(log.size() / 64 + 16);
  for (std::size_t i = 1; i < parts.size(); ++i)
    parts[i].findings.reserve((boundaries[i + 1] - boundaries[i]) / 64 + 16);

  std::vector<std::exception_ptr> failures(parts.size());
  const auto read_part = [&](std::size_t i) {
    try {
      PartReader(log, kind, boundaries[i], boundaries[i + 1], parts[i]).read();
    } catch (...) {
      failures[i] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  std::size_t next_part = 1;
  try {
    for (; next_part < parts.size(); ++next_part) threads.emplace_back(read_part, next_part);
  } catch (const std::system_error&) {
    // No more threads to be had: the calling thread reads the rest.
  }
  read_part(0);
  for (; next_part < parts.size(); ++next_part) read_part(next_part);
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);

  throw_if_not_text(parts, log, source_name);
  return merge_parts(parts);
}

}  // namespace

std::vector<model::LintFinding> parse_clang_tidy(std::string_view log, const std::string& source_name) {
  return parse_log(log, source_name, LogKind::clang_tidy, LintParseOptions{});
}

std::vector<model::LintFinding> parse_clang_tidy(std::string_view log, const std::string& source_name,
                                                 const LintParseOptions& options) {
  return parse_log(log, source_name, LogKind::clang_tidy, options);
}

std::vector<model::LintFinding> parse_clang_tidy_file(const std::filesystem::path& file) {
  const util::MappedFile log(file);
  return parse_clang_tidy(log.text(), file.string());
}

std::vector<model::LintFinding> parse_compiler_warnings(std::string_view log, const std::string& source_name) {
  return parse_log(log, source_name, LogKind::compiler, LintParseOptions{});
}

std::vector<model::LintFinding> parse_compiler_warnings(std::string_view log, const std::string& source_name,
                                                        const LintParseOptions& options) {
  return parse_log(log, source_name, LogKind::compiler, options);
}

std::vector<model::LintFinding> parse_compiler_warnings_file(const std::filesystem::path& file) {
  const util::MappedFile log(file);
  return parse_compiler_warnings(log.text(), file.string());
}

}  // namespace hydra::parse
