// What the plain runs show of git (plain_git.hpp).
#include <hydra/capture/plain_git.hpp>

#include <algorithm>
#include <system_error>
#include <vector>

#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

fs::path make_clone_git(const fs::path& repository, const std::string& commit, const fs::path& git) {
  const auto common = util::run_git(repository, {"rev-parse", "--path-format=absolute", "--git-common-dir"});
  if (common.exit_code != 0) return {};
  const fs::path objects = fs::path(std::string(util::trim(common.output))) / "objects";
  std::error_code error;
  if (!fs::is_directory(objects, error)) return {};
  for (const char* folder : {"objects/info", "refs/heads", "refs/tags", "info"}) fs::create_directories(git / folder);
  util::write_file_atomic(git / "HEAD", "ref: refs/heads/main\n");
  util::write_file_atomic(git / "refs" / "heads" / "main", commit + "\n");
  util::write_file_atomic(git / "config", "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
                                          "\tlogallrefupdates = true\n");
  util::write_file_atomic(git / "objects" / "info" / "alternates", objects.string() + "\n");
  const auto tags = util::run_git(repository, {"for-each-ref", "--format=%(objectname) %(refname)", "refs/tags"});
  if (tags.exit_code == 0)
    util::write_file_atomic(git / "packed-refs", "# pack-refs with: peeled fully-peeled sorted \n" + tags.output);
  // The index of the commit, read in the made folder itself: no file of the
  // tree is read.
  util::run_git(git, {"read-tree", commit}, {{"GIT_DIR", git.string()}, {"GIT_INDEX_FILE", (git / "index").string()}});
  return objects;
}

bool show_clone_git(StepPolicy& policy, const Plan& plan, const fs::path& scratch) {
  if (!plan.in_git || plan.source_commit.empty()) return false;
  const fs::path top = util::work_tree_root(plan.source);
  const fs::path git = scratch / "git";
  const fs::path objects = make_clone_git(top, plan.source_commit, git);
  if (objects.empty()) return false;
  const fs::path seen_top = plan.seen(top);
  // Each entry of the top bound back, before every mount the policy has:
  // one of those at the same path (a hidden ignored file, a build tree)
  // replaces it, deeper ones go over it.
  std::vector<Mount> entries;
  std::error_code error;
  for (fs::directory_iterator it(top, error), end; !error && it != end; it.increment(error)) {
    const fs::path name = it->path().filename();
    if (name == ".git") continue;
    const fs::path seen = seen_top / name;
    if (it->is_symlink(error)) {
      const fs::path target = fs::read_symlink(it->path(), error);
      if (!error) entries.push_back({Mount::Access::symlink, seen, target});
      error.clear();
      continue;
    }
    entries.push_back({Mount::Access::read_only, seen, it->path() == seen ? fs::path() : it->path()});
  }
  std::sort(entries.begin(), entries.end(), [](const Mount& left, const Mount& right) { return left.path < right.path; });
  policy.mounts.insert(policy.mounts.begin(), entries.begin(), entries.end());
  // The top an empty read-only folder (after whatever showed another tree
  // there), the made repository in it, the repository's objects in that.
  policy.add(Mount::Access::hidden, seen_top, top);
  policy.add(Mount::Access::read_only, seen_top / ".git", git);
  policy.add(Mount::Access::read_only, seen_top / ".git" / "objects", objects);
  return true;
}

}  // namespace hydra::capture
