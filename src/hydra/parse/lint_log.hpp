// clang-tidy output and GCC/Clang compiler warnings in a build log.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/model/lint.hpp>

namespace hydra::parse {

/// Parses clang-tidy output (`path:line:col: warning|error: message [checks]`,
/// location-less `error: ...` lines). Notes, code snippets, carets,
/// "N warnings generated." and "Suppressed ..." lines are skipped; ANSI colour
/// is stripped. Duplicates of the same finding (a header seen from several
/// translation units: same file, line, column, checks and message) are kept
/// once. Throws hydra::InputError for a binary (NUL-containing) or non-UTF-8 log.
std::vector<model::LintFinding> parse_clang_tidy(std::string_view log, const std::string& source_name);
std::vector<model::LintFinding> parse_clang_tidy_file(const std::filesystem::path& file);

/// Parses GCC/Clang warnings (`path:line:col: warning: message [-Wflag]`) out
/// of a build log; tool = "compiler". Same de-duplication as above.
std::vector<model::LintFinding> parse_compiler_warnings(std::string_view log,
                                                        const std::string& source_name);
std::vector<model::LintFinding> parse_compiler_warnings_file(const std::filesystem::path& file);

/// The fingerprint of a finding: 16 hex digits of a hash of tool, file,
/// checks, message and `source_line` (never the line number).
std::string fingerprint(const model::LintFinding& finding);

}  // namespace hydra::parse
