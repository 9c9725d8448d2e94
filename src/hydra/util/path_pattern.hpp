// Path patterns, one syntax for every key that takes them
// (`scoring.diff_scope.protected_paths`, `scoring.lint.exclude`,
// `anti_gaming.test_file_globs`, `anti_gaming.protected_config_files`).
// The rules are .gitignore's; reference: docs/config.md ("Path patterns").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hydra::util {

/// Whether the relative path `path` (with "/" separators) matches `pattern`.
/// Glob characters: `*` (any characters but "/"), `?` (one character but
/// "/"), `**` (any characters, "/" included). As in .gitignore:
/// - "dir/" (ends in "/"): `path` lies under a folder matching "dir"; without
///   another "/" in it the folder may sit at any depth ("tests/" matches
///   "tests/a.cpp" and "lib/tests/b.cpp").
/// - a pattern with a "/" elsewhere is anchored at the root and matches the
///   path or a folder that contains it ("cmake/HydraScore*.cmake",
///   "src/gen/*" matches "src/gen/a/b.cpp").
/// - a pattern without "/" matches the file name or a folder name at any
///   depth (".clang-tidy" matches "src/.clang-tidy"; "*_test.*" matches
///   "src/io_test.cpp"; "third_party" matches "third_party/x/y.c").
/// A leading "./" on either side, and a leading "/" on the pattern, are ignored.
bool path_matches(std::string_view pattern, std::string_view path);

/// The first of `patterns` that `path` matches, or nullptr.
const std::string* first_match(const std::vector<std::string>& patterns, std::string_view path);

/// Whether `text` matches the glob `pattern` as a whole (`*`, `?`, `**` as
/// for path_matches). Time O(|pattern| * |text|), whatever the pattern.
bool glob_matches(std::string_view pattern, std::string_view text);

/// The non-empty '/'-separated parts of `path` ("/a//b/" -> {"a", "b"}).
std::vector<std::string_view> path_components(std::string_view path);

}  // namespace hydra::util
