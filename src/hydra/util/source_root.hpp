// The checkout folder of a log's absolute paths, so that the same finding
// reported under two checkouts (/ci/base/src/x.cpp, /ci/cand/src/x.cpp) has
// one repository-relative path (src/x.cpp). Reference: docs/record.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::util {

/// The folder of the checkout that `files` (paths as a log prints them; only
/// the absolute ones count) were reported from, found by matching against
/// `diff_paths` (repository-relative paths of the change): among the common
/// folder of the absolute files and its ancestors, the deepest folder R such
/// that some file, taken relative to R, is one of `diff_paths`; failing that,
/// the deepest R such that some file's first part relative to R is the first
/// part of one of `diff_paths` (a top-level folder of the change). nullopt
/// when there is no absolute file or nothing matches.
std::optional<std::string> infer_source_root(const std::vector<std::string>& files,
                                             const std::vector<std::string>& diff_paths);

/// `file` relative to the longest of `roots` that contains it (roots end
/// without "/"); `file` unchanged when none does.
std::string strip_source_root(std::string_view file, const std::vector<std::string>& roots);

}  // namespace hydra::util
