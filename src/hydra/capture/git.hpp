// The git operations capture needs, run through the real `git`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hydra::capture {

/// True when `directory` is inside a git work tree.
bool is_git_work_tree(const std::filesystem::path& directory);

/// `git rev-parse --verify REF^{commit}` in `repository`; throws hydra::Error naming the ref.
std::string resolve_commit(const std::filesystem::path& repository, const std::string& ref);

/// The top-level directory of the work tree containing `directory`.
std::filesystem::path work_tree_root(const std::filesystem::path& directory);

/// The full change of the work tree at `repository` against `base_commit`, as
/// `git diff --binary` prints it, including untracked (not ignored) files,
/// excluding every path under `excluded` (build trees inside the source).
/// Uses a temporary index, so the user's index is never touched.
std::string diff_against(const std::filesystem::path& repository, const std::string& base_commit,
                         const std::vector<std::filesystem::path>& excluded);

/// Creates (or refreshes) a detached worktree of `commit` at `path`.
void checkout_worktree(const std::filesystem::path& repository, const std::string& commit,
                       const std::filesystem::path& path);

}  // namespace hydra::capture
