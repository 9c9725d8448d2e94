// The one unified-diff parser: the text of the lines a diff adds and removes,
// per file, with their line numbers and hunks. The anti-gaming detectors look
// at what changed (a new lint suppression, a removed `CHECK(...)`);
// hydra::parse::parse_unified_diff (diff.hpp) summarizes the same result into
// counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::parse {

/// One added or removed line, without its leading '+'/'-' (and without a
/// trailing '\r').
struct ChangedLine {
  std::uint64_t number = 0;  ///< 1-based: in the new file for added lines, the old file for removed ones
  std::string text;
  std::uint32_t hunk = 0;    ///< 0-based index of the hunk within its file
};

/// What the diff changes in one file.
struct FileLines {
  std::string path;      ///< new path (old path for a deletion)
  std::string old_path;  ///< equals `path` unless renamed or copied
  bool created = false;  ///< new file (includes untracked files added with intent-to-add, and copies)
  bool deleted = false;
  bool renamed = false;
  bool binary = false;   ///< a binary file: no lines
  std::vector<ChangedLine> added;    ///< in diff order
  std::vector<ChangedLine> removed;  ///< in diff order
};

struct DiffLines {
  std::vector<FileLines> files;  ///< in the order the diff lists them
  /// Invalid UTF-8 sequences in paths and line texts, replaced by U+FFFD
  /// (a candidate's diff may hold any bytes; reports need UTF-8).
  std::uint64_t invalid_utf8_replaced = 0;
};

/// Reads a unified diff line by line (as `git diff --binary -M` prints it;
/// plain `diff -u` output too), so a caller can feed it from a stream. It
/// reads git's extended headers, quoted paths, renames and copies, "GIT
/// binary patch" data, "\ No newline at end of file", and hunk lines that
/// look like file headers ("--- x" inside a hunk is a removed line, since
/// hunk lines are counted against the hunk header).
class DiffLinesReader {
 public:
  /// `source_name` names the diff in errors.
  explicit DiffLinesReader(std::string source_name);

  /// Feeds the next line (`line` without its '\n'; a trailing '\r' is
  /// dropped). Throws hydra::InputError (source, line number) for text that
  /// is not a unified diff.
  void read_line(std::string_view line);

  /// Ends the input and returns the result. Throws hydra::InputError when
  /// the diff ends inside a hunk.
  DiffLines finish();

 private:
  enum class State { start, header, hunk, after_hunk, binary_patch };

  [[noreturn]] void fail(const std::string& message) const;
  bool read_extended_header(std::string_view line);
  void start_file(bool git);
  void finish_file();
  void read_git_header_paths(std::string_view rest);
  std::string header_path(std::string_view rest) const;
  std::string maybe_quoted(std::string_view text) const;
  std::string unquote(std::string_view text, std::size_t& consumed) const;
  std::string strip_prefix(const std::string& path, char side) const;
  void start_hunk(std::string_view line);
  void read_hunk_line(std::string_view line);
  std::string utf8_text(std::string_view text);  ///< `text`, invalid UTF-8 replaced (and counted)

  std::string source_name_;
  std::uint64_t line_number_ = 0;
  State state_ = State::start;
  std::optional<FileLines> file_;
  bool git_file_ = false;
  bool copied_ = false;
  bool seen_old_header_ = false;
  std::uint64_t old_remaining_ = 0;
  std::uint64_t new_remaining_ = 0;
  std::uint64_t old_line_ = 0;  ///< number of the next old-file line in the hunk
  std::uint64_t new_line_ = 0;  ///< number of the next new-file line in the hunk
  std::uint32_t hunks_in_file_ = 0;  ///< hunks started in the current file
  DiffLines result_;
};

/// Parses a whole diff held in memory. An empty input is an empty diff.
/// Throws hydra::InputError (`source_name`, line) for text that is not a
/// unified diff.
DiffLines parse_diff_lines(std::string_view diff, const std::string& source_name);

/// `text` with every space, tab, '\r', '\v' and '\f' removed: two lines
/// with the same stripped text differ only in whitespace.
std::string strip_whitespace(std::string_view text);

}  // namespace hydra::parse
