#include <hydra/util/path_pattern.hpp>

namespace hydra::util {
namespace {

std::string_view without_dot_slash(std::string_view text) {
  while (text.size() >= 2 && text[0] == '.' && text[1] == '/') text.remove_prefix(2);
  return text;
}

/// Whether some leading run of whole components of `path` (the path itself
/// included) matches `pattern`.
bool leading_components_match(std::string_view pattern, std::string_view path, bool folders_only) {
  for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1))
    if (glob_matches(pattern, path.substr(0, slash))) return true;
  return !folders_only && glob_matches(pattern, path);
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view text) {
  // Dynamic programming over pattern positions: `reachable[j]` is whether
  // pattern[0, i) can match text[0, j). One row per pattern character.
  std::vector<char> reachable(text.size() + 1, 0);
  reachable[0] = 1;
  std::size_t i = 0;
  while (i < pattern.size()) {
    std::vector<char> next(text.size() + 1, 0);
    if (pattern[i] == '*') {
      const bool crosses = i + 1 < pattern.size() && pattern[i + 1] == '*';
      bool open = false;  // some earlier position reaches here through the star
      for (std::size_t j = 0; j <= text.size(); ++j) {
        if (reachable[j]) open = true;
        next[j] = open;
        if (!crosses && j < text.size() && text[j] == '/') open = false;
      }
      i += crosses ? 2 : 1;
    } else {
      for (std::size_t j = 0; j < text.size(); ++j)
        if (reachable[j] && (pattern[i] == '?' ? text[j] != '/' : pattern[i] == text[j])) next[j + 1] = 1;
      ++i;
    }
    reachable.swap(next);
  }
  return reachable[text.size()] != 0;
}

bool path_matches(std::string_view pattern, std::string_view path) {
  pattern = without_dot_slash(pattern);
  while (!pattern.empty() && pattern.front() == '/') pattern.remove_prefix(1);
  path = without_dot_slash(path);
  if (pattern.empty() || path.empty()) return false;

  if (pattern.back() == '/') {
    const std::string_view folder = pattern.substr(0, pattern.size() - 1);
    if (folder.find('/') != std::string_view::npos) return leading_components_match(folder, path, true);
    const auto parts = path_components(path);
    for (std::size_t i = 0; i + 1 < parts.size(); ++i)  // folders only, not the file name
      if (glob_matches(folder, parts[i])) return true;
    return false;
  }
  if (pattern.find('/') != std::string_view::npos) return leading_components_match(pattern, path, false);
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

}  // namespace hydra::util
