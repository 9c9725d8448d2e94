#include <hydra/parse/diff.hpp>

#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include <hydra/parse/diff_lines.hpp>
#include <hydra/util/files.hpp>

namespace hydra::parse {
namespace {

/// Whitespace-only changes of one file: per hunk, each added line whose
/// whitespace-stripped text equals a not yet matched removed line's
/// (multiset matching); each match counts one on both sides.
std::uint64_t whitespace_only_matches(const FileLines& file) {
  using TextCounts = std::unordered_map<std::string, std::uint64_t>;
  std::map<std::uint32_t, TextCounts> removed_by_hunk;
  for (const ChangedLine& line : file.removed) ++removed_by_hunk[line.hunk][strip_whitespace(line.text)];
  std::uint64_t matches = 0;
  for (const ChangedLine& line : file.added) {
    const auto hunk = removed_by_hunk.find(line.hunk);
    if (hunk == removed_by_hunk.end()) continue;
    const auto found = hunk->second.find(strip_whitespace(line.text));
    if (found == hunk->second.end() || found->second == 0) continue;
    --found->second;
    ++matches;
  }
  return matches;
}

model::DiffFile summarize(FileLines&& file) {
  model::DiffFile summary;
  summary.added = file.added.size();
  summary.removed = file.removed.size();
  summary.whitespace_only_added = summary.whitespace_only_removed = whitespace_only_matches(file);
  summary.path = std::move(file.path);
  summary.old_path = std::move(file.old_path);
  summary.binary = file.binary;
  summary.created = file.created;
  summary.deleted = file.deleted;
  summary.renamed = file.renamed;
  return summary;
}

}  // namespace

model::DiffSummary parse_unified_diff(std::string_view diff, const std::string& source_name) {
  DiffLines lines = parse_diff_lines(diff, source_name);
  model::DiffSummary summary;
  summary.invalid_utf8_replaced = lines.invalid_utf8_replaced;
  summary.files.reserve(lines.files.size());
  for (FileLines& file : lines.files) summary.files.push_back(summarize(std::move(file)));
  return summary;
}

model::DiffSummary parse_unified_diff_file(const std::filesystem::path& file) {
  return parse_unified_diff(util::read_file(file), file.string());
}

}  // namespace hydra::parse
