// Step policies (step_policy.hpp).
#include <hydra/capture/step_policy.hpp>

#include <algorithm>
#include <system_error>

#include <hydra/capture/steps.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* access_name(Mount::Access access) {
  switch (access) {
    case Mount::Access::read_write: return "read-write";
    case Mount::Access::read_only: return "read-only";
    case Mount::Access::hidden: return "hidden";
  }
  return "read-only";
}

}  // namespace

json StepPolicy::to_json() const {
  json mounts_json = json::array();
  for (const auto& mount : mounts) {
    json entry = {{"path", mount.path.string()}, {"access", access_name(mount.access)}};
    if (!mount.source.empty() && mount.source != mount.path) entry["source"] = mount.source.string();
    mounts_json.push_back(std::move(entry));
  }
  json record = {{"step", step}, {"mounts", std::move(mounts_json)}, {"temporary", temporary.string()},
                 {"network", network}};
  json limits_json = json::object();
  if (limits.cpu_seconds) limits_json["cpu_seconds"] = *limits.cpu_seconds;
  if (limits.memory_bytes) limits_json["memory_bytes"] = *limits.memory_bytes;
  if (limits.processes) limits_json["processes"] = *limits.processes;
  record["limits"] = std::move(limits_json);
  json names = json::array();
  for (const auto& [name, value] : environment) names.push_back(name);
  record["environment_added"] = std::move(names);
  return record;
}

fs::path seen_path(const std::vector<Mount>& tree_mounts, const fs::path& path) {
  for (auto mount = tree_mounts.rbegin(); mount != tree_mounts.rend(); ++mount) {
    if (mount->source.empty() || mount->access == Mount::Access::hidden) continue;
    if (!util::is_within(path, mount->source)) continue;
    const fs::path inside = path.lexically_relative(mount->source);
    return inside.empty() || inside == "." ? mount->path : mount->path / inside;
  }
  return path;
}

std::vector<Mount> tree_view_mounts(const fs::path& top, const fs::path& top_origin, const fs::path& build,
                                    const fs::path& build_origin, const std::vector<fs::path>& kept) {
  std::vector<Mount> mounts = {{Mount::Access::read_only, top, top_origin}};
  std::vector<fs::path> again;
  for (const auto& path : kept) {
    if (!util::is_within(path, top) || path == top) continue;
    // A folder inside another kept one comes with it.
    if (std::find(again.begin(), again.end(), path) != again.end()) continue;
    again.push_back(path);
  }
  std::sort(again.begin(), again.end());
  for (std::size_t index = 0; index < again.size(); ++index) {
    const bool inside_earlier = std::any_of(again.begin(), again.begin() + static_cast<std::ptrdiff_t>(index),
                                            [&](const fs::path& outer) { return util::is_within(again[index], outer); });
    if (!inside_earlier) mounts.push_back({Mount::Access::read_only, again[index], {}});
  }
  mounts.push_back({Mount::Access::read_write, build, build_origin});
  return mounts;
}

namespace {

/// Makes the place each mount needs inside the origin of an earlier mount
/// that shows another folder there (bubblewrap mounts over an existing
/// folder or file only, and the earlier one may be read-only).
void make_mount_points(const std::vector<Mount>& mounts) {
  for (std::size_t later = 1; later < mounts.size(); ++later) {
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

}  // namespace

StepPolicy tree_step_policy(const Plan& plan, std::string step, const std::vector<fs::path>& writable_paths,
                            const fs::path& temporary) {
  StepPolicy policy;
  policy.step = std::move(step);
  policy.temporary = seen_path(plan.tree_mounts, temporary);
  policy.mounts = plan.tree_mounts;
  // The writable trees as the step sees them (with their origins).
  struct Writable {
    fs::path seen, origin;
  };
  std::vector<Writable> writable;
  for (const auto& path : writable_paths) writable.push_back({seen_path(plan.tree_mounts, path), path});
  const auto covered = [&](const Writable& tree) {
    // Writable already through a tree mount.
    return std::any_of(plan.tree_mounts.begin(), plan.tree_mounts.end(), [&](const Mount& mount) {
      return mount.access == Mount::Access::read_write && tree.seen == mount.path && tree.origin == mount.origin();
    });
  };
  for (const auto& tree : writable)
    if (!covered(tree)) policy.add(Mount::Access::read_write, tree.seen, tree.origin == tree.seen ? fs::path() : tree.origin);
  // Evidence inside a writable tree is mounted read-only over it, then the
  // writable paths inside the evidence are mounted writable again (mounts
  // apply in order).
  std::vector<fs::path> protected_paths;
  for (const auto& path : plan.evidence) {
    std::error_code error;
    if (!fs::exists(path, error)) continue;
    const bool inside_writable =
        std::any_of(writable.begin(), writable.end(), [&](const auto& tree) { return util::is_within(path, tree.seen); });
    if (!inside_writable) continue;  // read-only already
    protected_paths.push_back(path);
    policy.add(Mount::Access::read_only, path);
  }
  for (const auto& tree : writable) {
    const bool inside_evidence = std::any_of(protected_paths.begin(), protected_paths.end(),
                                             [&](const auto& path) { return util::is_within(tree.seen, path); });
    if (inside_evidence) policy.add(Mount::Access::read_write, tree.seen, tree.origin == tree.seen ? fs::path() : tree.origin);
  }
  make_mount_points(policy.mounts);
  return policy;
}

}  // namespace hydra::capture
