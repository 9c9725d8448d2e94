// Lint findings from the tools of the rust, js-node and python capture
// profiles: cargo's JSON messages (rustc, clippy), ESLint's JSON, flake8's
// (and ruff's concise) text.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/model/lint.hpp>

namespace hydra::parse {

/// cargo clippy / cargo build --message-format=json: one JSON object per line; the
/// "compiler-message" entries become findings. tool "clippy" for codes "clippy::...", else "rustc".
/// Throws hydra::InputError naming the source and line for a line that is not a
/// JSON object or a compiler-message of the wrong shape.
/// `stopped_early` (when given) says why the messages are incomplete: cargo's
/// `build-finished` says `"success": false` (an error stopped the build, so
/// the targets that depend on the failing one were never checked; clippy
/// under `-D warnings` does this for any new finding) or never comes (cargo
/// was killed); empty when the build finished.
std::vector<model::LintFinding> parse_cargo_diagnostics(std::string_view text, const std::string& source_name,
                                                        std::string* stopped_early = nullptr);
/// Reads `file` (memory-mapped) and parses it with parse_cargo_diagnostics.
std::vector<model::LintFinding> parse_cargo_diagnostics_file(const std::filesystem::path& file,
                                                             std::string* stopped_early = nullptr);

/// ESLint --format json: an array of {filePath, messages[{ruleId, severity, message, line, column, fatal}], source?}; tool "eslint".
/// Throws hydra::InputError naming the source (and the JSON pointer of a value of the wrong shape).
std::vector<model::LintFinding> parse_eslint_json(std::string_view text, const std::string& source_name);
/// Reads `file` (memory-mapped) and parses it with parse_eslint_json.
std::vector<model::LintFinding> parse_eslint_json_file(const std::filesystem::path& file);

/// flake8's default format `path:line:col: CODE message` (ruff's concise format is the same),
/// optionally followed by the source line and a caret line (flake8 --show-source); tool given by the caller.
/// Other lines are skipped. Throws hydra::InputError for binary (NUL) or non-UTF-8 input.
std::vector<model::LintFinding> parse_flake8(std::string_view text, const std::string& source_name, std::string_view tool = "flake8");
/// Reads `file` (memory-mapped) and parses it with parse_flake8.
std::vector<model::LintFinding> parse_flake8_file(const std::filesystem::path& file, std::string_view tool = "flake8");

}  // namespace hydra::parse
