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

StepPolicy tree_step_policy(const Plan& plan, std::string step, const std::vector<fs::path>& writable,
                            const fs::path& temporary) {
  StepPolicy policy;
  policy.step = std::move(step);
  policy.temporary = temporary;
  for (const auto& path : writable) policy.add(Mount::Access::read_write, path);
  // Evidence inside a writable tree is mounted read-only over it, then the
  // writable paths inside the evidence are mounted writable again (mounts
  // apply in order).
  std::vector<fs::path> protected_paths;
  for (const auto& path : plan.evidence) {
    std::error_code error;
    if (!fs::exists(path, error)) continue;
    const bool inside_writable =
        std::any_of(writable.begin(), writable.end(), [&](const auto& tree) { return util::is_within(path, tree); });
    if (!inside_writable) continue;  // read-only already
    protected_paths.push_back(path);
    policy.add(Mount::Access::read_only, path);
  }
  for (const auto& path : writable) {
    const bool inside_evidence = std::any_of(protected_paths.begin(), protected_paths.end(),
                                             [&](const auto& tree) { return util::is_within(path, tree); });
    if (inside_evidence) policy.add(Mount::Access::read_write, path);
  }
  policy.mounts.insert(policy.mounts.end(), plan.tree_mounts.begin(), plan.tree_mounts.end());
  return policy;
}

}  // namespace hydra::capture
