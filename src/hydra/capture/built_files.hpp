// What is built is what is merged: the files the build's objects depend on
// (the Ninja deps log) that lie in the repository's work tree but are no
// file of the change's tree (util::change_files: tracked, or untracked and
// not ignored) — a header a `.gitignore` ignores and the code pulls in with
// `__has_include`, a file of a nested repository, a file of the user's build
// tree included by a relative path. `diff.patch` does not hold them, so
// what `hydra_apply` merges would not build to what was scored
// (docs/threat-model.md, "The scorer's git").
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace hydra::capture {

/// The dependencies among `dependencies` (paths as the compiler saw them:
/// absolute, or relative to the build tree `seen_build`) that lie under the
/// work tree's top `seen_top` but not under `seen_build`, and are not among
/// `change_files` (relative to the top); a dependency that is a symbolic
/// link (looked at through `seen_to_real`'s mapping of `seen_top` to
/// `real_top`) counts with the file it names. Sorted, relative to the top.
std::vector<std::string> built_outside_change(const std::set<std::string>& dependencies,
                                              const std::filesystem::path& seen_top,
                                              const std::filesystem::path& seen_build,
                                              const std::filesystem::path& real_top,
                                              const std::set<std::string>& change_files);

}  // namespace hydra::capture
