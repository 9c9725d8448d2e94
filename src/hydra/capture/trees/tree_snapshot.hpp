// What a source tree is on disk before and after the steps that run its
// code (docs/threat-model.md, "The change is fixed before the tree's code
// runs"): the change is taken before configure and the source tree is
// read-only to those steps under the sandbox; without one, a step that
// writes a file of the tree (even one that restores it afterwards, as
// `git checkout` does) is caught by comparing two snapshots.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace hydra::capture {

/// What identifies one version of a file without reading it: a write changes
/// its size, modification time or status-change time (which no process can
/// set back), a replacement its inode.
struct FileStamp {
  std::uintmax_t size = 0;
  std::int64_t modified_ns = 0;
  std::int64_t changed_ns = 0;
  std::uint64_t inode = 0;

  bool operator==(const FileStamp& other) const {
    return size == other.size && modified_ns == other.modified_ns && changed_ns == other.changed_ns &&
           inode == other.inode;
  }
  bool operator!=(const FileStamp& other) const { return !(*this == other); }
};

/// The stamp of `path` (a symbolic link as itself); false when it is gone.
bool stamp_of(const std::filesystem::path& path, FileStamp& stamp);

/// The files of a tree (relative path -> stamp).
struct TreeSnapshot {
  std::filesystem::path root;  ///< absolute: the work tree's top level, or the tree outside git
  std::map<std::string, FileStamp> files;
};

/// The files of the change's universe of the tree at `source`: in git, the
/// work tree's tracked and untracked (not ignored) files (util::change_files);
/// outside git every file under `source`. Both without the `excluded` trees.
/// Throws hydra::Error when git fails.
TreeSnapshot snapshot_tree(const std::filesystem::path& source, bool in_git,
                           const std::vector<std::filesystem::path>& excluded);

/// What differs from `before` to `after`: one line per file, sorted
/// ("tests/test_count.cpp: written", "src/new.cpp: created",
/// "src/old.cpp: deleted"). Pure.
std::vector<std::string> tree_changes(const TreeSnapshot& before, const TreeSnapshot& after);

}  // namespace hydra::capture
