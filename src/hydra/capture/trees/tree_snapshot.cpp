// Snapshots of a source tree (tree_snapshot.hpp).
#include <hydra/capture/trees/tree_snapshot.hpp>

#include <sys/stat.h>

#include <algorithm>

#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

bool stamp_of(const fs::path& path, FileStamp& stamp) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return false;
  stamp.size = static_cast<std::uintmax_t>(status.st_size);
  stamp.modified_ns = static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1000000000 + status.st_mtim.tv_nsec;
  stamp.changed_ns = static_cast<std::int64_t>(status.st_ctim.tv_sec) * 1000000000 + status.st_ctim.tv_nsec;
  stamp.inode = static_cast<std::uint64_t>(status.st_ino);
  return true;
}

TreeSnapshot snapshot_tree(const fs::path& source, bool in_git, const std::vector<fs::path>& excluded) {
  TreeSnapshot snapshot;
  std::vector<std::string> names;
  if (in_git) {
    snapshot.root = fs::canonical(util::work_tree_root(source));
    names = util::change_files(source, excluded);
  } else {
    snapshot.root = util::absolute_clean(source);
    std::error_code error;
    for (fs::recursive_directory_iterator it(snapshot.root, fs::directory_options::skip_permission_denied, error), end;
         !error && it != end; it.increment(error)) {
      const fs::path path = it->path();
      std::error_code ignored;
      if (it->is_directory(ignored) && !it->is_symlink(ignored)) {
        if (std::any_of(excluded.begin(), excluded.end(), [&](const fs::path& tree) { return util::is_within(path, tree); }))
          it.disable_recursion_pending();
        continue;
      }
      names.push_back(path.lexically_relative(snapshot.root).generic_string());
    }
  }
  for (const auto& name : names) {
    FileStamp stamp;
    if (stamp_of(snapshot.root / name, stamp)) snapshot.files.emplace(name, stamp);
  }
  return snapshot;
}

std::vector<std::string> tree_changes(const TreeSnapshot& before, const TreeSnapshot& after) {
  std::vector<std::string> changes;
  for (const auto& [name, stamp] : before.files) {
    const auto found = after.files.find(name);
    if (found == after.files.end()) changes.push_back(name + ": deleted");
    else if (found->second != stamp) changes.push_back(name + ": written");
  }
  for (const auto& [name, stamp] : after.files)
    if (!before.files.count(name)) changes.push_back(name + ": created");
  std::sort(changes.begin(), changes.end());
  return changes;
}

}  // namespace hydra::capture
