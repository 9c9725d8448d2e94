#include <hydra/guard/path_match.hpp>

namespace hydra::guard {
namespace {

std::string_view without_dot_slash(std::string_view text) {
  while (text.size() >= 2 && text[0] == '.' && text[1] == '/') text.remove_prefix(2);
  return text;
}


}  // namespace

bool glob_matches(std::string_view pattern, std::string_view text) {
  // Backtracking over the last `*` (and separately the last `**`) keeps this
  // linear in practice for the short patterns of a config file.
  if (pattern.empty()) return text.empty();
  if (pattern.size() >= 2 && pattern[0] == '*' && pattern[1] == '*') {
    std::string_view rest = pattern.substr(2);
    for (std::size_t skip = 0; skip <= text.size(); ++skip)
      if (glob_matches(rest, text.substr(skip))) return true;
    return false;
  }
  if (pattern[0] == '*') {
    std::string_view rest = pattern.substr(1);
    for (std::size_t skip = 0; skip <= text.size(); ++skip) {
      if (glob_matches(rest, text.substr(skip))) return true;
      if (skip < text.size() && text[skip] == '/') return false;
    }
    return false;
  }
  if (text.empty()) return false;
  if (pattern[0] == '?') return text[0] != '/' && glob_matches(pattern.substr(1), text.substr(1));
  return pattern[0] == text[0] && glob_matches(pattern.substr(1), text.substr(1));
}

bool path_matches(std::string_view pattern, std::string_view path) {
  pattern = without_dot_slash(pattern);
  path = without_dot_slash(path);
  if (pattern.empty() || path.empty()) return false;

  if (pattern.back() == '/') {
    const std::string_view folder = pattern.substr(0, pattern.size() - 1);
    if (folder.find('/') != std::string_view::npos) {
      // Anchored: some leading run of components must match `folder` as a whole.
      for (std::size_t slash = path.find('/'); slash != std::string_view::npos;
           slash = path.find('/', slash + 1))
        if (glob_matches(folder, path.substr(0, slash))) return true;
      return false;
    }
    const auto parts = path_components(path);
    for (std::size_t i = 0; i + 1 < parts.size(); ++i)  // folders only, not the file name
      if (glob_matches(folder, parts[i])) return true;
    return false;
  }
  if (pattern.find('/') != std::string_view::npos) return glob_matches(pattern, path);
  for (const std::string_view part : path_components(path))
    if (glob_matches(pattern, part)) return true;
  return false;
}

const std::string* first_match(const std::vector<std::string>& patterns, std::string_view path) {
  for (const std::string& pattern : patterns)
    if (path_matches(pattern, path)) return &pattern;
  return nullptr;
}

std::vector<std::string_view> path_components(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
    if (end > start) parts.push_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

}  // namespace hydra::guard
