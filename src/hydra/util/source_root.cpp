#include <hydra/util/source_root.hpp>

#include <set>

namespace hydra::util {

namespace {

std::string_view first_part(std::string_view path) {
  const auto slash = path.find('/');
  return slash == std::string_view::npos ? path : path.substr(0, slash);
}

std::string without_dot_slash(std::string_view path) {
  while (path.rfind("./", 0) == 0) path.remove_prefix(2);
  return std::string(path);
}

}  // namespace

std::optional<std::string> infer_source_root(const std::vector<std::string>& files,
                                             const std::vector<std::string>& diff_paths) {
  std::vector<std::string_view> absolute;
  for (const auto& file : files)
    if (!file.empty() && file.front() == '/') absolute.push_back(file);
  if (absolute.empty() || diff_paths.empty()) return std::nullopt;

  // The common folder of every absolute file ("/ci/cand/src").
  std::string_view common = absolute.front().substr(0, absolute.front().rfind('/'));
  for (const auto file : absolute) {
    std::size_t same = 0;
    while (same < common.size() && same < file.size() && common[same] == file[same]) ++same;
    // Cut back to a folder boundary shared by both.
    if (same < common.size() || (same < file.size() && file[same] != '/')) {
      const auto slash = common.substr(0, same).rfind('/');
      common = common.substr(0, slash == std::string_view::npos ? 0 : slash);
    }
  }

  std::set<std::string> paths;
  std::set<std::string> first_parts;
  for (const auto& path : diff_paths) {
    const std::string clean = without_dot_slash(path);
    if (clean.empty()) continue;
    paths.insert(clean);
    first_parts.insert(std::string(first_part(clean)));
  }

  // Candidate roots, deepest first: the common folder, then its ancestors.
  std::vector<std::string_view> roots;
  for (std::string_view root = common;; root = root.substr(0, root.rfind('/'))) {
    roots.push_back(root);
    if (root.empty()) break;
  }
  for (const bool exact : {true, false}) {
    for (const auto root : roots) {
      for (const auto file : absolute) {
        const std::string_view relative = file.substr(root.size() + 1);
        if (exact ? paths.count(std::string(relative)) > 0
                  : first_parts.count(std::string(first_part(relative))) > 0)
          return std::string(root.empty() ? "/" : root);
      }
    }
  }
  return std::nullopt;
}

std::string strip_source_root(std::string_view file, const std::vector<std::string>& roots) {
  std::size_t best = 0;
  bool found = false;
  for (const auto& root : roots) {
    if (root.empty()) continue;
    const std::string prefix = root.back() == '/' ? root : root + "/";
    if (file.size() > prefix.size() && file.compare(0, prefix.size(), prefix) == 0 &&
        (!found || prefix.size() > best)) {
      best = prefix.size();
      found = true;
    }
  }
  return std::string(found ? file.substr(best) : file);
}

}  // namespace hydra::util
