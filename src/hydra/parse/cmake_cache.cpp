// Reading a CMake cache into typed entries (cmake_cache.hpp).
#include <hydra/parse/cmake_cache.hpp>

#include <system_error>

#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::parse {
namespace fs = std::filesystem;

namespace {

/// The bare word at the start of `text` (up to white space or ')'), taken off `text`.
std::string_view take_word(std::string_view& text) {
  std::size_t end = 0;
  while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != ')') ++end;
  const std::string_view word = text.substr(0, end);
  text.remove_prefix(end);
  return word;
}

/// A set() argument at the start of `text`: a quoted one (escapes resolved)
/// or a bare word; taken off `text`.
std::string take_argument(std::string_view& text) {
  if (text.empty() || text.front() != '"') return std::string(take_word(text));
  std::string value;
  std::size_t at = 1;
  for (; at < text.size() && text[at] != '"'; ++at) {
    if (text[at] == '\\' && at + 1 < text.size()) ++at;
    value.push_back(text[at]);
  }
  text.remove_prefix(at < text.size() ? at + 1 : text.size());
  return value;
}

/// "NAME:TYPE=value" (NAME perhaps quoted) into `into`; false when `line` is none.
bool read_definition(std::string_view line, CacheEntry& into) {
  std::string_view name;
  std::string_view rest;
  if (!line.empty() && line.front() == '"') {
    const std::size_t close = line.find('"', 1);
    if (close == std::string_view::npos) return false;
    name = line.substr(1, close - 1);
    rest = line.substr(close + 1);
  } else {
    const std::size_t end = line.find_first_of(":=");
    if (end == std::string_view::npos) return false;
    name = line.substr(0, end);
    rest = line.substr(end);
  }
  const std::size_t equals = rest.find('=');
  if (name.empty() || equals == std::string_view::npos) return false;
  into.name = std::string(name);
  into.type = rest.front() == ':' ? std::string(rest.substr(1, equals - 1)) : std::string();
  into.value = std::string(rest.substr(equals + 1));
  return true;
}

}  // namespace

const CacheEntry* CMakeCache::find(std::string_view name) const {
  for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry)
    if (entry->name == name) return &*entry;
  return nullptr;
}

std::optional<std::string> CMakeCache::value(std::string_view name) const {
  if (const CacheEntry* entry = find(name)) return entry->value;
  return std::nullopt;
}

CMakeCache parse_cmake_cache(std::string_view text) {
  CMakeCache cache;
  for (std::string_view line : util::split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#' || util::starts_with(line, "//")) continue;
    CacheEntry entry;
    if (read_definition(line, entry)) cache.entries.push_back(std::move(entry));
  }
  return cache;
}

CMakeCache parse_initial_cache(std::string_view script) {
  CMakeCache cache;
  for (std::string_view line : util::split(script, '\n')) {
    line = util::trim(line, " \t\r");
    if (!util::starts_with(line, "set(")) continue;
    line.remove_prefix(4);
    line = util::trim(line, " \t");
    CacheEntry entry;
    entry.name = std::string(take_word(line));
    if (entry.name.empty()) continue;
    line = util::trim(line, " \t");
    entry.value = take_argument(line);
    line = util::trim(line, " \t");
    if (util::starts_with(line, "CACHE ")) {
      line.remove_prefix(6);
      line = util::trim(line, " \t");
      entry.type = std::string(take_word(line));
    }
    cache.entries.push_back(std::move(entry));
  }
  return cache;
}

CMakeCache parse_cache_definitions(const std::vector<std::string>& arguments) {
  CMakeCache cache;
  for (std::size_t index = 0; index < arguments.size(); ++index) {
    std::string_view definition = arguments[index];
    if (!util::starts_with(definition, "-D")) continue;
    definition.remove_prefix(2);
    if (definition.empty() && index + 1 < arguments.size()) definition = arguments[++index];
    CacheEntry entry;
    if (read_definition(definition, entry)) cache.entries.push_back(std::move(entry));
  }
  return cache;
}

std::optional<CMakeCache> read_cmake_cache(const fs::path& build_dir) {
  const fs::path file = build_dir / "CMakeCache.txt";
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return std::nullopt;
  return parse_cmake_cache(util::read_file(file));
}

}  // namespace hydra::parse
