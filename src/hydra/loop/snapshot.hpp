// Exact snapshots of a source tree as git objects in its own repository:
// one immutable tree (and a commit under refs/hydra/loop/<name>/) per kept
// state, so no copy of the tree is made per iteration. A private index
// (GIT_INDEX_FILE) is used throughout: the user's index, HEAD and branches
// are never touched.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace hydra::loop {

/// Which files a snapshot holds: every file under `paths` of `source` that
/// git does not ignore, except those under `excluded` (build trees, the
/// loop's own output).
struct SnapshotScope {
  std::filesystem::path source;             ///< the source tree; must be inside a git work tree
  std::vector<std::string> paths;           ///< relative to `source`; empty: all of `source`
  std::vector<std::filesystem::path> excluded;  ///< absolute or relative to the current directory
};

class SnapshotStore {
 public:
  /// Binds to the repository holding `scope.source`; snapshots are recorded
  /// under refs/hydra/loop/`name`/. Throws hydra::Error when the source is not
  /// in a git work tree or `name` is not a valid ref component.
  SnapshotStore(SnapshotScope scope, std::string name);

  /// Stores the current content of the scope as git objects and returns the
  /// tree's id. Nothing is recorded under refs (see `keep`).
  std::string capture_tree() const;

  /// Records `tree` as the snapshot of iteration `iteration`: a commit (whose
  /// parent is the previous kept snapshot, if any) referenced by
  /// refs/hydra/loop/<name>/<iteration>, and refs/hydra/loop/<name>/best.
  /// Returns the commit id.
  std::string keep(const std::string& tree, int iteration);

  /// Makes the scope exactly `tree`: files that differ or are missing are
  /// written back from the snapshot (content and mode) and files that are not
  /// in it are removed (with the directories this empties). Ignored files and
  /// excluded trees are never touched. Verifies the result and throws
  /// hydra::Error if the scope still differs. Returns how many paths changed.
  std::size_t restore(const std::string& tree) const;

  /// The repository's top-level directory.
  const std::filesystem::path& root() const { return root_; }
  /// The ref namespace, "refs/hydra/loop/<name>".
  const std::string& ref_prefix() const { return ref_prefix_; }

 private:
  std::vector<std::string> pathspec() const;
  /// `git diff-tree --name-status -z` fields (status, path, ...) from `from` to `to` within the scope.
  std::vector<std::string> differences(const std::string& from, const std::string& to) const;

  std::filesystem::path root_;
  std::vector<std::string> included_;  ///< root-relative
  std::vector<std::string> excluded_;  ///< root-relative
  std::string ref_prefix_;
  std::string last_kept_commit_;
};

}  // namespace hydra::loop
