// Running the real `git`: the one runner every git call goes through (same
// environment, same timeout), and the operations capture and the loop need.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <hydra/util/process.hpp>

namespace hydra::util {

/// How long one git command may take before its process group is killed.
inline constexpr std::chrono::seconds git_timeout{600};

/// Runs `git -C directory arguments...` (no terminal prompt, C locale,
/// stderr kept apart, `environment` added, `input` on stdin). Throws
/// hydra::Error only when git cannot be started; the exit code is the caller's.
ProcessResult run_git(const std::filesystem::path& directory, const std::vector<std::string>& arguments,
                      const std::map<std::string, std::string>& environment = {},
                      const std::optional<std::string>& input = std::nullopt);

/// As run_git, but a non-zero exit throws hydra::Error naming the command
/// and git's stderr.
ProcessResult checked_git(const std::filesystem::path& directory, const std::vector<std::string>& arguments,
                          const std::map<std::string, std::string>& environment = {},
                          const std::optional<std::string>& input = std::nullopt);

/// `text` without trailing line breaks and spaces (git's one-line answers).
std::string trim(std::string text);

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

}  // namespace hydra::util
