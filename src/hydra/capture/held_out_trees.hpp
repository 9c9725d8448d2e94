// The trees of the held-out runs (held_out.cpp; docs/threat-model.md,
// "Held-out evaluation"): a git worktree of the base commit with part of the
// change applied, built and tested where the candidate's own steps see its
// own tree (under the sandbox, the worktree is mounted at the candidate's
// source tree and its build tree at the candidate's build tree), so that
// code inspecting its paths cannot tell the runs apart.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/core/staging.hpp>

namespace hydra::capture {

/// One file's part of a `git diff` patch.
struct PatchSection {
  std::string text;
  std::string path;
  std::string old_path;
  bool created = false;
};

/// `diff` split per file. Throws hydra::InputError when it cannot be read.
std::vector<PatchSection> split_patch(const std::string& diff);

/// Makes every folder from `base` (exclusive) down to `folder` a real
/// directory: a symbolic link, file or anything else a step left at one of
/// them is removed (never followed) and the folder made afresh; a real
/// directory is kept.
void own_folders(const std::filesystem::path& base, const std::filesystem::path& folder);

/// Makes `root`/source a worktree at the base commit with `patch` applied,
/// `emptied` files (relative to the top level) written empty and the private
/// test patch applied; returns the tree's CMake source directory. Throws
/// hydra::Error when a patch does not apply (`what` names it). The folders
/// from the build tree down to `root`/build are made real first (own_folders).
std::filesystem::path prepare_tree(const Plan& plan, const std::filesystem::path& root, const std::string& patch,
                                   const std::vector<std::string>& emptied,
                                   const std::optional<std::filesystem::path>& private_patch);

/// Configures, builds (keeping going past failures) and tests the tree at
/// `source` (made by prepare_tree under `root`) in `root`/build, writing its
/// logs, JUnit, ctest list and build targets under `name`/ in the staging
/// directory (roles prefixed with `name`'s role prefix). Under the sandbox
/// the tree is shown at the candidate's own paths (tree_view_mounts); a
/// source file the run's steps wrote is a problem of the run. Private test
/// runs keep only their results (no logs, no test output). Returns the
/// manifest record of the run (with "roots": where its steps saw it).
nlohmann::json run_tree(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                        Progress& progress, const std::filesystem::path& root, const std::filesystem::path& source,
                        const std::string& name, bool private_tests = false);

}  // namespace hydra::capture
