// Files built but not in the change (built_files.hpp).
#include <hydra/capture/built_files.hpp>

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

}  // namespace hydra::capture
