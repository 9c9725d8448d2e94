// A CMake cache as typed entries, read from either of its two forms: the
// initial-cache script a capture hands to `cmake -C` (`set(NAME "value"
// CACHE TYPE "doc" FORCE)`, as cmake/HydraScore.cmake writes it) and the
// CMakeCache.txt of a configured build tree (`NAME:TYPE=value`). The -D
// options of a configure command line read into the same entries. Pure but
// for read_cmake_cache.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::parse {

/// One cache entry.
struct CacheEntry {
  std::string name;
  std::string type;   ///< "STRING", "PATH", "FILEPATH", "BOOL", "INTERNAL", ...; empty when not given
  std::string value;  ///< as CMake reads it (escapes of a quoted script value resolved)
};

/// The entries of one cache, in the order they were read.
struct CMakeCache {
  std::vector<CacheEntry> entries;

  /// The entry named `name` (the last one, as CMake keeps it); nullptr when none.
  const CacheEntry* find(std::string_view name) const;
  /// The value of the entry named `name`; nullopt when none.
  std::optional<std::string> value(std::string_view name) const;
  /// `value(name)`, or empty text.
  std::string value_or_empty(std::string_view name) const { return value(name).value_or(std::string()); }
  /// Whether an entry named `name` is there.
  bool has(std::string_view name) const { return find(name) != nullptr; }
};

/// The entries of CMakeCache.txt text: `NAME:TYPE=value` lines (a quoted
/// `"NAME":TYPE=value` too); comments (`#`, `//`) and blank lines skipped.
CMakeCache parse_cmake_cache(std::string_view text);

/// The entries an initial-cache script sets: `set(NAME value ...)` lines,
/// the value quoted (backslash escapes resolved) or a bare word, the type the
/// word after CACHE (empty without CACHE).
CMakeCache parse_initial_cache(std::string_view script);

/// The entries the -D options of a cmake command line set ("-DNAME=v",
/// "-DNAME:TYPE=v", "-D" "NAME=v").
CMakeCache parse_cache_definitions(const std::vector<std::string>& arguments);

/// The CMakeCache.txt of the build tree `build_dir`; nullopt when it has none.
std::optional<CMakeCache> read_cmake_cache(const std::filesystem::path& build_dir);

}  // namespace hydra::parse
