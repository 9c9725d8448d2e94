// Plain data: what a unified diff (as `git diff` prints it) changes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hydra::model {

struct DiffFile {
  std::string path;      ///< new path (old path for a deletion)
  std::string old_path;  ///< differs from `path` only for renames/copies
  std::uint64_t added = 0;
  std::uint64_t removed = 0;
  /// Added/removed lines that only change whitespace: an added line whose
  /// whitespace-stripped text equals that of a removed line in the same hunk.
  std::uint64_t whitespace_only_added = 0;
  std::uint64_t whitespace_only_removed = 0;
  bool binary = false;
  bool created = false;  ///< new file (includes untracked files added with intent-to-add)
  bool deleted = false;
  bool renamed = false;
};

struct DiffSummary {
  std::vector<DiffFile> files;  ///< in the order the diff lists them
  /// Invalid UTF-8 sequences in the diff's paths and lines, replaced by U+FFFD.
  std::uint64_t invalid_utf8_replaced = 0;

  std::uint64_t lines_added() const;
  std::uint64_t lines_removed() const;
  std::uint64_t churn() const { return lines_added() + lines_removed(); }
  std::uint64_t whitespace_only_churn() const;
  std::uint64_t files_touched() const { return files.size(); }
  std::uint64_t files_created() const;
};

}  // namespace hydra::model
