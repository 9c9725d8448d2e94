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

/// The files among `inputs` (absolute as the build saw them, or relative to
/// `seen_build`) that lie outside `seen_top`, `seen_build` and the system's
/// folders (/usr, /lib*, /bin, /sbin, /etc, /opt, /dev, /proc, /sys), and
/// under none of `own` (HydraScore's own files: its module, the initial
/// cache, the run directories). A candidate's build that reads one the
/// baseline's did not (a CMake file `include()`d by absolute path from the
/// clone's `.git`, a header from an include directory outside both trees)
/// was built from what `hydra_apply` does not merge. Sorted, absolute.
std::vector<std::string> inputs_outside_trees(const std::set<std::string>& inputs,
                                              const std::filesystem::path& seen_top,
                                              const std::filesystem::path& seen_build,
                                              const std::vector<std::filesystem::path>& own);

/// The files of the change (`change_files`, relative to `real_top`) that are
/// symbolic links naming a file outside `real_top`: what they name is in no
/// diff. Sorted, "link -> target".
std::vector<std::string> links_out_of_tree(const std::set<std::string>& change_files,
                                           const std::filesystem::path& real_top);

}  // namespace hydra::capture
