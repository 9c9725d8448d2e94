// What a step of a plan may read, write and reach: the plan's trees and
// what it hides, turned into a step policy (sandbox/step_policy.hpp).
#include <hydra/capture/core/tree_step_policy.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <system_error>

#include <hydra/util/files.hpp>

namespace hydra::capture {

namespace fs = std::filesystem;

namespace {

std::uint64_t machine_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

}  // namespace

namespace {

/// Makes the place each mount needs inside the origin of an enclosing mount
/// that shows another folder there (bubblewrap mounts over an existing
/// folder or file only, and the enclosing one may be read-only). Mounts are
/// made as Sandbox::wrap makes them: shallowest path first, in their order
/// at one depth.
void make_mount_points(std::vector<Mount> mounts) {
  std::stable_sort(mounts.begin(), mounts.end(), [](const Mount& left, const Mount& right) {
    return std::distance(left.path.begin(), left.path.end()) < std::distance(right.path.begin(), right.path.end());
  });
  for (std::size_t later = 1; later < mounts.size(); ++later) {
    if (mounts[later].access == Mount::Access::symlink) continue;  // bubblewrap makes the link itself
    for (std::size_t earlier = later; earlier-- > 0;) {
      const Mount& outer = mounts[earlier];
      if (!util::is_within(mounts[later].path, outer.path) || mounts[later].path == outer.path) continue;
      // The innermost mount holding it decides: one at its own place has it.
      if (outer.source.empty() || outer.source == outer.path || outer.access == Mount::Access::hidden) break;
      const fs::path point = outer.source / mounts[later].path.lexically_relative(outer.path);
      std::error_code error;
      if (fs::exists(fs::symlink_status(point, error))) break;
      if (fs::is_directory(mounts[later].origin(), error)) {
        fs::create_directories(point, error);
      } else {
        fs::create_directories(point.parent_path(), error);
        util::write_file_atomic(point, "");
      }
      break;
    }
  }
}

/// What a step sees at `path` comes from: the folder of the innermost of
/// `mounts` that shows another folder around it, else `path` itself.
fs::path shown_origin(const std::vector<Mount>& mounts, const fs::path& path) {
  const Mount* innermost = nullptr;
  for (const auto& mount : mounts) {
    if (mount.access == Mount::Access::hidden || mount.access == Mount::Access::symlink ||
        !util::is_within(path, mount.path))
      continue;
    if (!innermost || util::is_within(mount.path, innermost->path)) innermost = &mount;
  }
  if (!innermost || innermost->origin() == innermost->path) return path;
  return innermost->origin() / path.lexically_relative(innermost->path);
}

}  // namespace

StepPolicy tree_step_policy(const Plan& plan, std::string step, const std::vector<fs::path>& writable_paths,
                            const fs::path& temporary, const std::vector<fs::path>& readable) {
  const config::SandboxSettings& settings = plan.config.sandbox;
  const std::map<std::string, std::string> inherited = current_environment();
  StepPolicy policy;
  policy.step = std::move(step);
  std::error_code ignored;
  fs::create_directories(temporary, ignored);
  fs::create_directories(home_folder_of(temporary), ignored);
  policy.temporary = seen_path(plan.tree_mounts, temporary);
  policy.home = seen_path(plan.tree_mounts, home_folder_of(temporary));
  // A tree shown at another path than its own comes first: what follows at
  // the same path (a hidden run directory) replaces it.
  policy.mounts = plan.tree_mounts;
  // The writable trees as the step sees them (with their origins).
  struct Writable {
    fs::path seen, origin;
  };
  std::vector<Writable> writable;
  for (const auto& path : writable_paths) writable.push_back({seen_path(plan.tree_mounts, path), path});
  for (const auto& tree : writable) {
    const bool covered = std::any_of(plan.tree_mounts.begin(), plan.tree_mounts.end(), [&](const Mount& mount) {
      return mount.access == Mount::Access::read_write && tree.seen == mount.path && tree.origin == mount.origin();
    });
    if (!covered)
      policy.add(Mount::Access::read_write, tree.seen, tree.origin == tree.seen ? fs::path() : tree.origin);
  }
  for (const auto& path : readable) {
    const fs::path seen = seen_path(plan.tree_mounts, path);
    policy.add(Mount::Access::read_only, seen, seen == path ? fs::path() : path);
  }
  // Hidden: HydraScore's evidence and what the plan hides (the private
  // tests, the other runs and trees), then the system's user data. The
  // step's own trees inside them stay visible (deeper paths win); one that
  // is itself such a path is not hidden.
  std::vector<fs::path> hidden;
  std::vector<fs::path> candidates = plan.evidence;
  candidates.insert(candidates.end(), plan.hidden.begin(), plan.hidden.end());
  // Lint's own folder (kLintFolder): no other step reads or writes it.
  if (policy.step != "lint") candidates.push_back(plan.build_dir / kLintFolder);
  const std::vector<fs::path> system = hidden_system_paths(settings, inherited);
  candidates.insert(candidates.end(), system.begin(), system.end());
  for (const auto& candidate : candidates) {
    const fs::path path = util::absolute_clean(candidate);
    if (is_system_root(path) || !fs::exists(path, ignored)) continue;
    const bool is_tree =
        std::any_of(writable.begin(), writable.end(), [&](const Writable& tree) { return tree.seen == path; }) ||
        std::find(readable.begin(), readable.end(), path) != readable.end();
    if (is_tree || std::find(hidden.begin(), hidden.end(), path) != hidden.end()) continue;
    // Inside a tree shown from another folder (a held-out tree at the
    // candidate's paths), what the step would see there is that folder's
    // file: hidden as what it is, and nothing to hide where it has none.
    const fs::path shown = shown_origin(plan.tree_mounts, path);
    if (shown != path && !fs::exists(fs::symlink_status(shown, ignored))) continue;
    hidden.push_back(path);
    policy.add(Mount::Access::hidden, path, shown == path ? fs::path() : shown);
  }
  // What the user's cache entries point at (a Qt6_DIR, a toolchain file).
  for (auto& mount : tool_mounts(settings, inherited, policy.home, hidden, initial_cache_paths(plan.initial_cache)))
    policy.mounts.push_back(std::move(mount));
  policy.environment = step_environment(settings, inherited, policy.home, policy.temporary);
  policy.network = settings.network;
  policy.limits = step_limits(settings, machine_memory_bytes());
  make_mount_points(policy.mounts);
  return policy;
}

}  // namespace hydra::capture
