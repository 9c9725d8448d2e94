// The compiler's view made parseable by clang (lint/compiler_view.hpp): GCC's
// `-E` text holds the standard library as GCC expanded it, with GCC's
// builtins and attributes, which clang does not parse. Each outermost region
// that comes from a system header (a line marker with flag 3 entered from a
// file that is not one) becomes one `#include <name>`, the header named
// relative to the folder of the compiler's search list that holds it, so
// clang reads its own view of the system headers; the project's regions stay
// as GCC expanded them, with their line markers. Pure functions.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::capture {

/// The folders of a compiler's `#include <...>` search, in order, from its
/// `-v` report (the lines between "#include <...> search starts here:" and
/// "End of search list."), as written. Pure.
std::vector<std::string> include_search_list(std::string_view verbose);

/// `text` with its outermost system-header regions replaced.
struct SystemRegions {
  std::string text;
  std::size_t replaced = 0;            ///< regions replaced by an #include
  std::vector<std::string> unresolved;  ///< system headers no search folder holds (left as expanded)
};

/// The name `header` (a line marker's file, relative to `directory` when not
/// absolute) is found by under the folders `search` (relative to
/// `directory` when not absolute): its path relative to the deepest folder
/// holding it, or empty. Pure (lexical).
std::string header_include_name(const std::string& header, const std::vector<std::string>& search,
                                const std::filesystem::path& directory);

/// Replaces each outermost system-header region of `text` (GCC's `-E`
/// output) by `#include <name>` on the line of the directive that entered
/// it, and strips the flags of the marker that returns from it (clang checks
/// that a marker with flag 2 pops an include it saw pushed). Regions whose
/// header no folder of `search` holds stay as they are. Pure.
SystemRegions include_system_headers(std::string_view text, const std::vector<std::string>& search,
                                     const std::filesystem::path& directory);

}  // namespace hydra::capture
