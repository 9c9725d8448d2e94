// The linked worktrees captures check refs out into (git.hpp): created
// and removed one at a time, git never run in a folder a step could have
// made unless it is the repository's own worktree.
#include <hydra/util/git.hpp>

#include <mutex>
#include <optional>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::util {
namespace fs = std::filesystem;

namespace {

/// One worktree change at a time in this process: captures run in parallel
/// threads, and a `git worktree prune` of one removes the entry another's
/// `git worktree add` has made and not yet filled.
std::mutex& worktree_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

namespace {

/// The administrative folder of `repository`'s linked worktree at `path`
/// when `path` is one: its `.git` file names a folder under the repository's
/// worktrees/ whose `gitdir` names that `.git` file back. Anything else at
/// `path` (a repository of its own, a `.git` file pointing elsewhere, a
/// symbolic link) is not.
std::optional<fs::path> registered_worktree(const fs::path& repository, const fs::path& path) {
  std::error_code error;
  if (!fs::is_directory(fs::symlink_status(path, error)) || !fs::is_regular_file(fs::symlink_status(path / ".git", error)))
    return std::nullopt;
  const auto common = run_git(repository, {"rev-parse", "--path-format=absolute", "--git-common-dir"});
  if (common.exit_code != 0) return std::nullopt;
  const fs::path worktrees = fs::weakly_canonical(fs::path(trim(common.output)) / "worktrees", error);
  const std::string link(trim(read_file(path / ".git")));
  if (link.rfind("gitdir: ", 0) != 0) return std::nullopt;
  const fs::path admin = fs::weakly_canonical(link.substr(8), error);
  if (error || admin.parent_path() != worktrees || !fs::is_directory(fs::symlink_status(admin, error)))
    return std::nullopt;
  if (!fs::is_regular_file(admin / "gitdir", error)) return std::nullopt;
  const fs::path back = fs::weakly_canonical(fs::path(trim(read_file(admin / "gitdir"))), error);
  if (error || back != fs::weakly_canonical(path / ".git", error)) return std::nullopt;
  return admin;
}

}  // namespace

void checkout_worktree(const fs::path& repository, const std::string& commit, const fs::path& path) {
  const std::lock_guard lock(worktree_mutex());
  std::error_code ec;
  // git runs in `path` only when it is the repository's own worktree, and
  // then with its git directory named (never found by looking in `path`,
  // which a step may have written): a folder a candidate's code made there
  // (a repository with hooks and settings of its own) is removed unread.
  if (const auto admin = registered_worktree(repository, path)) {
    const std::map<std::string, std::string> environment = {{"GIT_DIR", admin->string()},
                                                            {"GIT_WORK_TREE", path.string()}};
    auto checkout = run_git(path, {"checkout", "--detach", "--force", commit}, environment);
    if (checkout.exit_code == 0) {
      // Untracked and ignored files, nested repositories included, are gone.
      run_git(path, {"clean", "-ffdx", "--quiet"}, environment);
      return;
    }
  }
  fs::remove_all(path, ec);  // a symbolic link itself, not what it names
  run_git(repository, {"worktree", "prune"});
  fs::create_directories(path.parent_path());
  auto added = run_git(repository, {"worktree", "add", "--detach", "--force", path.string(), commit});
  if (added.exit_code != 0)
    throw Error("git worktree add " + path.string() + " failed: " + added.output + added.error_output);
}

void remove_worktree(const fs::path& repository, const fs::path& path) {
  const std::lock_guard lock(worktree_mutex());
  try {
    run_git(repository, {"worktree", "remove", "--force", path.string()});
    std::error_code ec;
    fs::remove_all(path, ec);
    run_git(repository, {"worktree", "prune"});
  } catch (const Error&) {
    // git could not start: the directory stays for the next prune.
  }
}

}  // namespace hydra::util
