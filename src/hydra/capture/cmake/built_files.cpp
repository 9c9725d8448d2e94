// Files built but not in the change (built_files.hpp).
#include <hydra/capture/cmake/built_files.hpp>

#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

std::vector<std::string> built_outside_change(const std::set<std::string>& dependencies, const fs::path& seen_top,
                                              const fs::path& seen_build, const fs::path& real_top,
                                              const std::set<std::string>& change_files) {
  std::set<std::string> outside;
  const auto check = [&](const fs::path& seen) {
    if (!util::is_within(seen, seen_top) || util::is_within(seen, seen_build)) return;
    const std::string relative = seen.lexically_relative(seen_top).generic_string();
    if (relative.empty() || relative == ".") return;
    if (!change_files.count(relative)) outside.insert(relative);
  };
  for (const auto& dependency : dependencies) {
    fs::path seen = dependency;
    if (seen.is_relative()) seen = seen_build / seen;
    seen = seen.lexically_normal();
    check(seen);
    // A file of the change that is a symbolic link stands for what it names.
    if (!util::is_within(seen, seen_top)) continue;
    const fs::path real = real_top / seen.lexically_relative(seen_top);
    std::error_code error;
    if (!fs::is_symlink(real, error)) continue;
    const fs::path target = fs::weakly_canonical(real, error);
    const fs::path canonical_top = fs::weakly_canonical(real_top, error);
    if (!error && util::is_within(target, canonical_top)) check(seen_top / target.lexically_relative(canonical_top));
  }
  return {outside.begin(), outside.end()};
}

std::vector<std::string> inputs_outside_trees(const std::set<std::string>& inputs, const fs::path& seen_top,
                                              const fs::path& seen_build, const std::vector<fs::path>& own) {
  static const char* const kSystem[] = {"/usr", "/lib",  "/lib32", "/lib64", "/libx32", "/bin",
                                        "/sbin", "/etc", "/opt",   "/dev",   "/proc",   "/sys"};
  std::set<std::string> outside;
  for (const auto& input : inputs) {
    fs::path seen = input;
    if (seen.is_relative()) seen = seen_build / seen;
    seen = seen.lexically_normal();
    if (util::is_within(seen, seen_top) || util::is_within(seen, seen_build)) continue;
    bool skip = false;
    for (const char* system : kSystem) skip = skip || util::is_within(seen, system);
    for (const auto& folder : own) skip = skip || util::is_within(seen, folder);
    if (!skip) outside.insert(seen.string());
  }
  return {outside.begin(), outside.end()};
}

std::vector<std::string> links_out_of_tree(const std::set<std::string>& change_files, const fs::path& real_top) {
  std::vector<std::string> links;
  std::error_code error;
  const fs::path top = fs::weakly_canonical(real_top, error);
  for (const auto& file : change_files) {
    const fs::path path = real_top / file;
    if (!fs::is_symlink(path, error)) continue;
    // What the link names, followed even when it does not exist here.
    const fs::path named = fs::read_symlink(path, error);
    const fs::path target =
        fs::weakly_canonical(named.is_absolute() ? named : fs::weakly_canonical(path.parent_path(), error) / named, error);
    if (error || !util::is_within(target, top)) links.push_back(file + " -> " + named.string());
  }
  return links;
}

}  // namespace hydra::capture
