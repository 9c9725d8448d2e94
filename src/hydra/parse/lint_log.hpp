// clang-tidy output and GCC/Clang compiler warnings in a build log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/model/lint.hpp>

namespace hydra::parse {

/// How a large log is split for parsing. The result never depends on it:
/// findings, their order and de-duplication are those of a serial parse.
struct LintParseOptions {
  /// How many parts the log is parsed in, each on its own thread; 0 means
  /// one per hardware thread (see docs/parsers.md).
  std::size_t threads = 0;
  /// Logs smaller than this are parsed on the calling thread only.
  std::size_t min_bytes_per_thread = std::size_t{1} << 20;
};

/// Parses clang-tidy output (`path:line:col: warning|error: message [checks]`,
/// location-less `error: ...` lines). Notes, code snippets, carets,
/// "N warnings generated." and "Suppressed ..." lines are skipped; ANSI colour
/// is stripped. Duplicates of the same finding (a header seen from several
/// translation units: same file, line, column, checks and message) are kept
/// once. Throws hydra::InputError for a binary (NUL-containing) or non-UTF-8 log.
std::vector<model::LintFinding> parse_clang_tidy(std::string_view log, const std::string& source_name);
/// The same, with the work split as `options` say.
std::vector<model::LintFinding> parse_clang_tidy(std::string_view log, const std::string& source_name,
                                                 const LintParseOptions& options);
/// Reads `file` (memory-mapped) and parses it with parse_clang_tidy.
std::vector<model::LintFinding> parse_clang_tidy_file(const std::filesystem::path& file);

/// Parses GCC/Clang warnings (`path:line:col: warning: message [-Wflag]`) out
/// of a build log; tool = "compiler". Same de-duplication as above.
std::vector<model::LintFinding> parse_compiler_warnings(std::string_view log, const std::string& source_name);
/// The same, with the work split as `options` say.
std::vector<model::LintFinding> parse_compiler_warnings(std::string_view log, const std::string& source_name,
                                                        const LintParseOptions& options);
/// Reads `file` (memory-mapped) and parses it with parse_compiler_warnings.
std::vector<model::LintFinding> parse_compiler_warnings_file(const std::filesystem::path& file);

}  // namespace hydra::parse
