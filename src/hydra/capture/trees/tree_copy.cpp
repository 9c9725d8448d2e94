#include <hydra/capture/trees/tree_copy.hpp>

#include <set>
#include <string>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// The project's files of `source`, relative to it (generic form).
std::set<std::string> project_files(const fs::path& source, bool in_git, const std::vector<fs::path>& excluded) {
  std::set<std::string> files;
  const auto keep = [&](const fs::path& absolute) {
    for (const auto& tree : excluded)
      if (util::is_within(absolute, tree)) return false;
    return true;
  };
  if (in_git) {
    // Run in `source`: git lists the files below it, relative to it.
    const auto listed =
        util::checked_git(source, {"ls-files", "-z", "--cached", "--others", "--exclude-standard"});
    for (const std::string_view entry : util::split(listed.output, '\0')) {
      if (entry.empty()) continue;
      const fs::path absolute = source / std::string(entry);
      std::error_code error;
      const auto status = fs::symlink_status(absolute, error);
      // Deleted files are still listed; submodules are folders.
      if (error || !(fs::is_regular_file(status) || fs::is_symlink(status))) continue;
      if (keep(absolute)) files.insert(std::string(entry));
    }
    return files;
  }
  fs::recursive_directory_iterator it(source, fs::directory_options::none), end;
  for (; it != end; ++it) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    if (it->is_directory() && !it->is_symlink()) {
      if (name == ".git" || name == ".hg" || name == ".svn" || !keep(path)) it.disable_recursion_pending();
      continue;
    }
    if (keep(path)) files.insert(path.lexically_relative(source).generic_string());
  }
  return files;
}

bool same_file(const fs::path& from, const fs::path& to) {
  std::error_code error;
  const auto from_status = fs::symlink_status(from, error);
  const auto to_status = fs::symlink_status(to, error);
  if (error || from_status.type() != to_status.type()) return false;
  if (fs::is_symlink(from_status)) return fs::read_symlink(from, error) == fs::read_symlink(to, error);
  if (from_status.permissions() != to_status.permissions()) return false;
  if (fs::file_size(from, error) != fs::file_size(to, error) || error) return false;
  return util::read_file(from) == util::read_file(to);
}

void copy_one(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::create_directories(to.parent_path(), error);
  if (fs::is_symlink(fs::symlink_status(to, error)) || fs::is_directory(fs::symlink_status(to, error)))
    fs::remove_all(to, error);
  if (fs::is_symlink(fs::symlink_status(from, error))) {
    fs::remove(to, error);
    fs::create_symlink(fs::read_symlink(from), to, error);
  } else {
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
    if (!error) fs::permissions(to, fs::status(from).permissions(), error);
  }
  if (error) throw Error("cannot copy " + from.string() + " to " + to.string() + ": " + error.message());
}

}  // namespace

TreeCopyStats copy_tree(const fs::path& source, const fs::path& copy, bool in_git, const std::vector<fs::path>& excluded,
                        const fs::path& dependencies) {
  TreeCopyStats stats;
  std::vector<fs::path> left_out = excluded;
  left_out.push_back(copy);
  const std::set<std::string> files = project_files(source, in_git, left_out);
  stats.files = files.size();
  std::error_code error;
  fs::create_directories(copy, error);
  if (error) throw Error("cannot create " + copy.string() + ": " + error.message());

  // node_modules: the installed packages, linked, unless the project keeps
  // them in version control (then they are files like any other).
  const fs::path link = copy / "node_modules";
  const bool tracked_modules = files.lower_bound("node_modules/") != files.end() &&
                               files.lower_bound("node_modules/")->rfind("node_modules/", 0) == 0;
  const bool link_wanted = !tracked_modules && !dependencies.empty() && fs::is_directory(dependencies, error);
  if (fs::is_symlink(fs::symlink_status(link, error)) &&
      (!link_wanted || fs::read_symlink(link, error) != dependencies))
    fs::remove(link, error);

  // Remove what the source no longer has (and whatever the last run wrote).
  std::vector<fs::path> stale;
  for (fs::recursive_directory_iterator it(copy), end; it != end; ++it) {
    if (it->is_symlink() && it->path() == link) continue;
    if (it->is_directory() && !it->is_symlink()) continue;
    if (!files.count(it->path().lexically_relative(copy).generic_string())) stale.push_back(it->path());
  }
  for (const auto& path : stale) {
    fs::remove(path, error);
    ++stats.removed;
  }
  // Folders left empty go too (deepest first).
  std::vector<fs::path> folders;
  for (fs::recursive_directory_iterator it(copy), end; it != end; ++it)
    if (it->is_directory() && !it->is_symlink()) folders.push_back(it->path());
  for (auto it = folders.rbegin(); it != folders.rend(); ++it)
    if (fs::is_empty(*it, error)) fs::remove(*it, error);

  for (const auto& relative : files) {
    const fs::path from = source / relative;
    const fs::path to = copy / relative;
    if (same_file(from, to)) continue;
    copy_one(from, to);
    ++stats.copied;
  }
  if (link_wanted && !fs::is_symlink(fs::symlink_status(link, error))) {
    fs::remove_all(link, error);
    fs::create_directory_symlink(dependencies, link, error);
    if (error) throw Error("cannot link " + link.string() + " to " + dependencies.string() + ": " + error.message());
  }
  return stats;
}

}  // namespace hydra::capture
