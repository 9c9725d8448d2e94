// The code under test as the held-out run builds it (held_out_build.hpp).
#include <hydra/capture/held_out_build.hpp>

#include <set>

#include <hydra/capture/cmake/configure_differential.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {

namespace {

/// Whether every source of `target` that lies in its source tree (not the
/// build tree: unity and generated sources) is code; and it has one.
bool compiles_code_only(const model::BuildTarget& target, const model::BuildTargets& targets,
                        const std::function<bool(const std::string&)>& is_test_source) {
  const std::string root = targets.source_root;
  const std::string build = targets.build_root;
  bool any = false;
  for (const auto& source : target.sources) {
    std::string path = source.path;
    if (!build.empty() && util::starts_with(path, build + "/")) continue;
    if (!root.empty() && util::starts_with(path, root + "/")) path = path.substr(root.size() + 1);
    else if (!path.empty() && path.front() == '/') continue;  // outside both trees
    if (is_test_source(path)) return false;
    any = true;
  }
  return any;
}

/// The names of `targets`' targets that compile code only.
std::set<std::string> code_target_names(const model::BuildTargets& targets,
                                        const std::function<bool(const std::string&)>& is_test_source) {
  std::set<std::string> names;
  for (const auto& target : targets.targets)
    if (compiles_code_only(target, targets, is_test_source)) names.insert(target.name);
  return names;
}

/// `from` with only the targets named in `names`.
model::BuildTargets only(const model::BuildTargets& from, const std::set<std::string>& names) {
  model::BuildTargets kept = from;
  kept.targets.clear();
  for (const auto& target : from.targets)
    if (names.count(target.name)) kept.targets.push_back(target);
  return kept;
}

}  // namespace

std::vector<model::ConfigureDifference> held_out_build_differences(
    const model::BuildTargets& candidate, const model::BuildTargets& held_out,
    const std::function<bool(const std::string&)>& is_test_source) {
  // The targets of code on both sides.
  const std::set<std::string> mine = code_target_names(candidate, is_test_source);
  std::set<std::string> both;
  for (const auto& name : code_target_names(held_out, is_test_source))
    if (mine.count(name)) both.insert(name);
  const ConfigureOutputs left{only(candidate, both), candidate.build_root, {}};
  const ConfigureOutputs right{only(held_out, both), held_out.build_root, {}};
  return compare_configures(left, right,
                            {" only in the candidate's own build", " only in the held-out build (the baseline's test files)"});
}

}  // namespace hydra::capture
