// Plain data: lint findings from clang-tidy and from compiler warnings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::model {

enum class Severity { warning, error };

/// "warning" or "error".
std::string_view to_string(Severity severity) noexcept;

/// One diagnostic. Identified across runs by `fingerprint`, which hashes the
/// tool, file, checks, message and the whitespace-stripped source line, never
/// the line number (so moved code is not "new").
struct LintFinding {
  std::string tool;        ///< "clang-tidy" or "compiler"
  std::string file;        ///< as printed (made relative to the source root by the caller if wanted); empty when location-less
  std::uint32_t line = 0;  ///< 1-based; 0 when location-less
  std::uint32_t column = 0;
  Severity severity = Severity::warning;
  std::string message;
  std::vector<std::string> checks;  ///< e.g. {"bugprone-branch-clone"} or {"-Wunused-variable"}; "-warnings-as-errors" is dropped
  std::string source_line;          ///< the quoted source line with all whitespace removed; empty if none printed
  std::string fingerprint;          ///< 16 lower-case hex digits, stable across runs and machines
};

}  // namespace hydra::model
