// Code the build compiles and clang-tidy does not see (docs/threat-model.md,
// "Lint sees every line the candidate added"): clang-tidy preprocesses with
// clang's macros (`__clang__`, `__GNUC__` 4, ...), the build with its own
// compiler's, so a change can put code in a branch only the compiler takes
// (`#if defined(__GNUC__) && !defined(__clang__)`). For each unit the change
// touches, both preprocess it (the compiler with the unit's command, clang
// with what clang-tidy is given); an added line in a conditional branch that
// the compiler takes and clang does not, or whose tokens the two expand
// differently (a macro pasted from `__GNUC__`), is linted in the compiler's
// view: clang-tidy runs over the compiler's preprocessed text (its system
// headers included as clang reads them: lint/system_regions.hpp), and its
// findings on those lines join the lint log at their real places. Pure
// functions here; the runs in compiler_view_run.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::capture {

/// Where each line of a preprocessor's output (`-E`, with line markers)
/// comes from, and which source lines gave it tokens.
struct PreprocessedText {
  /// The files the line markers name, as written (escapes undone).
  std::vector<std::string> files;
  /// Per output line (0-based): index into `files` and 1-based source line;
  /// a marker line and a line before any marker have line 0.
  std::vector<std::pair<std::size_t, std::uint64_t>> origin;
  /// Per file (index into `files`): the source lines that gave the output a
  /// line with anything but white space.
  std::map<std::size_t, std::set<std::uint64_t>> token_lines;
};

/// A line marker of preprocessed text: `# 12 "file" 1 3` (GCC's flags: 1
/// enters an include, 2 returns from one, 3 system header, 4 extern "C") or
/// `#line 12 "file"`.
struct LineMarker {
  std::uint64_t line = 0;
  std::string file;  ///< escapes undone
  std::set<int> flags;
};

/// The marker on `line`, or nothing. Pure.
std::optional<LineMarker> read_line_marker(std::string_view line);

/// Reads GCC's and clang's `-E` output: `# 12 "file" 1 3` and `#line 12
/// "file"` set the next line's origin, every other line counts on. Pure.
PreprocessedText read_preprocessed(std::string_view text);

/// The conditional structure of one source file: every line's innermost
/// branch (`#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` up to the next directive
/// of the same group), read from the directives' text (continuation lines
/// joined; directives inside comments are not told apart).
struct ConditionalBranches {
  /// Per line (index = 1-based line; index 0 unused): its innermost branch,
  /// 0 for lines outside every conditional and for the directives' own lines.
  std::vector<std::size_t> innermost;
  /// Per branch (index = branch, 1-based; index 0 unused): its own lines (not
  /// those of nested groups), and the lines of the directives that open and
  /// close it.
  std::vector<std::vector<std::uint64_t>> own_lines;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> delimiters;
  /// Per branch: the branch its group lies in (0: none).
  std::vector<std::size_t> parent;
};

/// The branches of `source` (a file's text). Pure.
ConditionalBranches conditional_branches(std::string_view source);

/// Which lines of one file one side's preprocessing compiled or saw
/// (token_lines of every command compared, united).
struct LinesBySide {
  std::set<std::uint64_t> compiled;  ///< the build's compiler
  std::set<std::uint64_t> linted;    ///< clang as clang-tidy runs it
};

/// The lines of one file the compiler compiles in branches clang does not
/// take, and the reverse.
struct HiddenLines {
  /// Judged in the compiler's view: the added lines with the compiler's
  /// tokens in a branch where clang has none, and every line with the
  /// compiler's tokens of such a branch that the change opened or closed
  /// (its delimiting directive, or an enclosing branch's, is an added line:
  /// existing code wrapped in it).
  std::set<std::uint64_t> compiled_not_linted;
  /// Evidence only: added lines with clang's tokens in a branch where the
  /// compiler has none (linted, never built).
  std::set<std::uint64_t> linted_not_compiled;
};

/// A branch is taken by a side when one of its own lines has that side's
/// tokens; lines outside every conditional are seen by both. Pure.
HiddenLines hidden_lines(const ConditionalBranches& branches, const std::set<std::uint64_t>& added,
                         const LinesBySide& sides);

/// Per source line of the files `files` (indices into `read.files`, read
/// from `text`): the text of the output lines that come from it,
/// concatenated, white space removed (GCC and clang space tokens apart
/// differently). Pure.
std::map<std::uint64_t, std::string> line_tokens(std::string_view text, const PreprocessedText& read,
                                                 const std::set<std::size_t>& files);

/// The added lines whose tokens in the compiler's output (`compiler`, as
/// line_tokens gives them) differ from those in clang's (`clang`): a macro
/// that expands by compiler (`CAT(BODY_, __GNUC__)`, `__VERSION__`,
/// `__clang_major__`) with no conditional around it. A line the compiler
/// gives no tokens has nothing to lint and is left out. Lines whose tokens
/// differ only in how the two spread a construct over its lines (a macro
/// call over several lines) are not different: a run of at most `window`
/// lines whose tokens are the same together counts as the same. Pure.
std::set<std::uint64_t> expanded_differently(const std::map<std::uint64_t, std::string>& compiler,
                                             const std::map<std::uint64_t, std::string>& clang,
                                             const std::set<std::uint64_t>& added, std::uint64_t window = 8);

/// `lines` grouped into runs [first, last]: consecutive members with no line
/// of `seen` between them are one run. Pure.
std::vector<std::pair<std::uint64_t, std::uint64_t>> line_runs(const std::set<std::uint64_t>& lines,
                                                               const std::set<std::uint64_t>& seen);

/// Where a finding of the compiler's view may land: marker file name (as
/// PreprocessedText::files holds it) -> what the log calls it and the lines
/// judged there, with their source text.
struct JudgedFile {
  std::string shown;  ///< the path the lint log names (absolute)
  std::map<std::uint64_t, std::string> lines;  ///< judged line -> its source text
};

/// The diagnostics of clang-tidy's `output` on the compiler's view file
/// `view_file` (its preprocessed text read as `view`) that land on a judged
/// line, rewritten to name the real file and line, each with its source line
/// and a caret; notes, `clang-diagnostic-error` (clang not parsing what the
/// compiler accepted) and every other file's diagnostics are left out.
/// `count` (optional) receives how many were kept. Pure.
std::string compiler_view_findings(std::string_view output, const std::string& view_file,
                                   const PreprocessedText& view, const std::map<std::string, JudgedFile>& judged,
                                   std::size_t* count = nullptr);

}  // namespace hydra::capture
