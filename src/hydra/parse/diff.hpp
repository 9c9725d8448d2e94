// Unified diffs as `git diff` prints them (also with --binary, -M renames,
// and new files added with intent-to-add).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <hydra/model/diff.hpp>

namespace hydra::parse {

/// The added, removed and whitespace-only line counts per file of `diff`, a
/// summary of what parse_diff_lines (diff_lines.hpp) reads. Throws
/// hydra::InputError (`source_name`, line) for text that is not a unified
/// diff. An empty input is an empty diff.
model::DiffSummary parse_unified_diff(std::string_view diff, const std::string& source_name);
model::DiffSummary parse_unified_diff_file(const std::filesystem::path& file);

}  // namespace hydra::parse
