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
/// stderr kept apart, `environment` added, `input` on stdin), blind to what a
/// repository could supply to make git run code or hide content: no system
/// or user configuration, and over the repository's own configuration no
/// hooks, fsmonitor, attribute or ignore files it names, line-ending
/// conversion, signing, or filter driver (each one it defines is emptied);
/// the diffs HydraScore prints pass --no-ext-diff --no-textconv. docs/threat-model.md, "The scorer's git". Throws
/// hydra::Error only when git cannot be started; the exit code is the caller's.
ProcessResult run_git(const std::filesystem::path& directory, const std::vector<std::string>& arguments,
                      const std::map<std::string, std::string>& environment = {},
                      const std::optional<std::string>& input = std::nullopt);

/// As run_git, but a non-zero exit throws hydra::Error naming the command
/// and git's stderr.
ProcessResult checked_git(const std::filesystem::path& directory, const std::vector<std::string>& arguments,
                          const std::map<std::string, std::string>& environment = {},
                          const std::optional<std::string>& input = std::nullopt);

/// True when `directory` is inside a git work tree.
bool is_git_work_tree(const std::filesystem::path& directory);

/// `git rev-parse --verify REF^{commit}` in `repository`; throws hydra::Error naming the ref.
std::string resolve_commit(const std::filesystem::path& repository, const std::string& ref);

/// The top-level directory of the work tree containing `directory`.
std::filesystem::path work_tree_root(const std::filesystem::path& directory);

/// While one lives on a thread, that thread's git commands read each
/// repository's filter drivers once per directory and environment (run_git
/// lists them before every command otherwise), and work_tree_root answers
/// once per directory. For the stretches of a capture where no code of the
/// tree runs (before its first step, after its last): nothing can change a
/// configuration there but HydraScore. Scopes nest; the memory goes with the
/// outermost.
class GitMemo {
 public:
  GitMemo();
  ~GitMemo();
  GitMemo(const GitMemo&) = delete;
  GitMemo& operator=(const GitMemo&) = delete;
};

/// The file a capture leaves in its build tree, so that a build tree inside
/// a repository is never read as part of a change (diff_against).
inline constexpr const char* kBuildTreeMarker = ".hydra-build-tree";

/// The full change of the work tree at `repository` against `base_commit`, as
/// `git diff --binary` prints it, including untracked (not ignored) files,
/// excluding every path under `excluded` (build trees inside the source) and
/// the untracked build trees and tool output found in it: folders holding a
/// CMakeCache.txt or kBuildTreeMarker, HydraScore run directories (their
/// manifest.json names the run schema) with their staging folders and locks.
/// Uses a temporary git directory and index of HydraScore's own (the
/// repository's objects through an alternate), so the user's index is never
/// touched and nothing the repository or tree supplies changes what is read:
/// not its configuration, hooks, filters, attributes or `.git/info/exclude`
/// (untracked files are left out only by the tree's own `.gitignore` files).
std::string diff_against(const std::filesystem::path& repository, const std::string& base_commit,
                         const std::vector<std::filesystem::path>& excluded);

/// The change from `base_commit` to `commit` in `repository`, as `git diff
/// --binary` prints it by content alone: read through a git directory of
/// HydraScore's own, so no attribute (`-diff`, a diff driver), text
/// conversion, external diff or setting of the repository changes it.
std::string diff_commits(const std::filesystem::path& repository, const std::string& base_commit,
                         const std::string& commit);

/// The files a change of the work tree at `repository` is made of (what
/// diff_against compares): tracked and untracked (not ignored) files outside
/// `excluded` and the build trees and tool output diff_against leaves out,
/// relative to the top level, sorted.
std::vector<std::string> change_files(const std::filesystem::path& repository,
                                      const std::vector<std::filesystem::path>& excluded);

/// What a build of the work tree at `repository` must not read because no
/// diff shows it (docs/threat-model.md, "The scorer's git"): the
/// repository's git directory (its common one, with every ref and object)
/// and the tree's `.git` entry, every file and folder the tree's own
/// `.gitignore` files ignore (as change_files leaves them out), every
/// nested repository, and every untracked build tree or tool output that
/// change_files leaves out (a folder with a CMakeCache.txt, a run
/// directory). Absolute, sorted.
std::vector<std::filesystem::path> paths_outside_change(const std::filesystem::path& repository);

/// Creates (or refreshes) a detached worktree of `commit` at `path`.
void checkout_worktree(const std::filesystem::path& repository, const std::string& commit,
                       const std::filesystem::path& path);

/// Removes the worktree at `path` (`git worktree remove --force`, then the
/// directory itself and `git worktree prune`). Never throws: a worktree that
/// cannot be removed is left for the next prune.
void remove_worktree(const std::filesystem::path& repository, const std::filesystem::path& path);

/// A ref a pattern named: its short name (`git for-each-ref`'s
/// `%(refname:short)`, or the pattern itself for a plain commit) and commit.
struct NamedRef {
  std::string name;
  std::string commit;
};

/// The refs of `repository` matching `patterns`, in pattern order, each once.
/// A pattern is a `git for-each-ref` pattern tried as given and under
/// refs/heads/, refs/tags/ and refs/remotes/ (so `agent/*` finds the branches
/// agent/...), else anything `git rev-parse --verify` takes (a tag, a commit).
/// Symbolic refs (origin/HEAD) are skipped. Throws hydra::Error (exit 2)
/// naming a pattern that matches nothing.
std::vector<NamedRef> resolve_refs(const std::filesystem::path& repository, const std::vector<std::string>& patterns);

}  // namespace hydra::util
