// The copy of a source tree that the js-node, rust and python profiles run
// in: their tools write into the tree they run in (npm's build output,
// Cargo.lock, caches), and the user's tree is never modified.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

namespace hydra::capture {

struct TreeCopyStats {
  std::size_t files = 0;    ///< files in the copy
  std::size_t copied = 0;   ///< written because they were new or differed
  std::size_t removed = 0;  ///< files of an earlier copy no longer in the source
};

/// Makes `copy` hold exactly the project's files of `source`: in a git work
/// tree, the files git lists (tracked and untracked, not ignored); outside
/// git, every file. Trees in `excluded` (build trees, HydraScore's output)
/// and version-control folders are left out. A file whose size, content and
/// mode already match is left as it is (its timestamp too, so incremental
/// tools stay incremental); everything else in `copy` is removed, except
/// `node_modules`, which is a link to `dependencies` when that folder exists
/// (installed packages are not part of the change). Symbolic links are
/// copied as links. Throws hydra::Error when `copy` cannot be written.
TreeCopyStats copy_tree(const std::filesystem::path& source, const std::filesystem::path& copy, bool in_git,
                        const std::vector<std::filesystem::path>& excluded, const std::filesystem::path& dependencies);

}  // namespace hydra::capture
