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

/// Makes every file and link of `path` hold what `commit` holds, byte for
/// byte: a checkout applies the attributes of the repository's
/// `info/attributes` (ident, eol, working-tree-encoding, filters), which no
/// option switches off, so the files are compared with their blobs after
/// it (`hash-object --no-filters`) and any that differ are written from the
/// blob.
void restore_committed_bytes(const fs::path& repository, const std::string& commit, const fs::path& path) {
  const auto listed = checked_git(repository, {"ls-tree", "-r", "-z", "--full-tree", commit});
  struct Entry {
    std::string mode, blob, file;
  };
  std::vector<Entry> entries;
  for (const std::string_view record : split(listed.output, '\0')) {
    // "<mode> <type> <object>\t<path>"
    const std::size_t tab = record.find('\t');
    if (tab == std::string_view::npos) continue;
    const auto words = split(record.substr(0, tab), ' ');
    if (words.size() != 3 || words[1] != "blob") continue;
    const std::string file(record.substr(tab + 1));
    if (file.find('\n') != std::string::npos) continue;
    entries.push_back({std::string(words[0]), std::string(words[2]), file});
  }
  std::string paths;
  std::vector<const Entry*> files;
  for (const auto& entry : entries) {
    const fs::path on_disk = path / entry.file;
    std::error_code error;
    if (entry.mode == "120000") {
      const auto blob = checked_git(repository, {"cat-file", "blob", entry.blob});
      if (fs::read_symlink(on_disk, error).string() != blob.output) {
        fs::remove(on_disk, error);
        fs::create_symlink(blob.output, on_disk, error);
      }
      continue;
    }
    if (!fs::is_regular_file(fs::symlink_status(on_disk, error))) continue;
    files.push_back(&entry);
    paths += on_disk.string() + "\n";
  }
  if (files.empty()) return;
  const auto hashed = checked_git(repository, {"hash-object", "--no-filters", "--stdin-paths"}, {}, paths);
  const auto hashes = split(hashed.output, '\n');
  for (std::size_t index = 0; index < files.size(); ++index) {
    if (index < hashes.size() && trim(hashes[index]) == files[index]->blob) continue;
    const auto blob = checked_git(repository, {"cat-file", "blob", files[index]->blob});
    write_file_atomic(path / files[index]->file, blob.output);
    if (files[index]->mode == "100755")
      fs::permissions(path / files[index]->file, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add);
  }
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
      restore_committed_bytes(repository, commit, path);
      return;
    }
  }
  fs::remove_all(path, ec);  // a symbolic link itself, not what it names
  run_git(repository, {"worktree", "prune"});
  fs::create_directories(path.parent_path());
  auto added = run_git(repository, {"worktree", "add", "--detach", "--force", path.string(), commit});
  if (added.exit_code != 0)
    throw Error("git worktree add " + path.string() + " failed: " + added.output + added.error_output);
  restore_committed_bytes(repository, commit, path);
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
