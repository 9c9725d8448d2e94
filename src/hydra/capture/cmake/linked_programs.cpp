// Test programs checked against their link steps (cmake/linked_programs.hpp).
#include <hydra/capture/cmake/linked_programs.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/error.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/parse/cmake_cache.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Digests = std::vector<std::pair<std::string, std::string>>;

/// The digests of `programs` (relative to `build_dir`) that exist.
Digests digests_of(const fs::path& build_dir, const std::vector<std::string>& programs) {
  Digests digests;
  for (const auto& program : programs) {
    std::error_code error;
    if (fs::is_regular_file(build_dir / program, error)) digests.emplace_back(program, util::sha256_file(build_dir / program));
  }
  return digests;
}

/// The executables of the configured tree, relative to its build tree, that
/// the build made; `why` says why none can be checked.
std::vector<std::string> built_executables(const Plan& plan, const Staging& staging, std::string& why) {
  model::BuildTargets targets;
  try {
    targets = parse::parse_build_targets_file(staging.directory / "build-targets.json");
  } catch (const Error& error) {
    why = error.what();
    return {};
  }
  if (!targets.problem.empty()) why = targets.problem;
  std::set<std::string> programs;
  for (const auto& target : targets.targets) {
    if (target.type != "EXECUTABLE") continue;
    for (const auto& artifact : target.artifacts) {
      const fs::path seen = util::absolute_clean(artifact);
      const fs::path root = util::absolute_clean(targets.build_root);
      if (!util::is_within(seen, root)) continue;
      const std::string relative = seen.lexically_relative(root).generic_string();
      std::error_code error;
      if (fs::is_regular_file(plan.build_dir / relative, error)) programs.insert(relative);
    }
  }
  return {programs.begin(), programs.end()};
}

/// The programs the baseline run's `linked_programs` found differing
/// (its link step is not reproducible: the project's own).
std::set<std::string> baseline_differing(const CaptureRequest& request) {
  std::set<std::string> differ;
  if (!request.baseline_run) return differ;
  const fs::path file = util::absolute_clean(*request.baseline_run) / "manifest.json";
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return differ;
  const json manifest = json::parse(util::read_file(file), nullptr, false);
  if (!manifest.is_object()) return differ;
  const json record = manifest.value("linked_programs", json::object());
  for (const auto& program : record.value("differ", json::array()))
    if (program.is_string()) differ.insert(program.get<std::string>());
  return differ;
}

}  // namespace

std::vector<std::string> differing_programs(const Digests& before, const Digests& after) {
  const std::map<std::string, std::string> now(after.begin(), after.end());
  std::set<std::string> differ;
  for (const auto& [program, digest] : before) {
    const auto found = now.find(program);
    if (found == now.end() || found->second != digest) differ.insert(program);
  }
  return {differ.begin(), differ.end()};
}

void check_linked_programs(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                           double timeout_seconds) {
  const parse::CMakeCache cache = parse::read_cmake_cache(plan.build_dir).value_or(parse::CMakeCache{});
  const std::string ninja = cache.value_or_empty("CMAKE_MAKE_PROGRAM");
  if (cache.value_or_empty("CMAKE_GENERATOR") != "Ninja" || ninja.empty()) {
    staging.manifest["linked_programs"] = {{"problem", "not a Ninja build tree"}};
    return;
  }
  std::string why;
  const std::vector<std::string> programs = built_executables(plan, staging, why);
  if (programs.empty()) {
    staging.manifest["linked_programs"] = {{"checked", 0}, {"differ", json::array()}};
    if (!why.empty()) staging.manifest["linked_programs"]["problem"] = why;
    return;
  }
  const Digests before = digests_of(plan.build_dir, programs);
  for (const auto& program : programs) {
    std::error_code ignored;
    fs::remove(plan.build_dir / program, ignored);
  }
  std::vector<std::string> argv = {ninja, "-C", plan.seen(plan.build_dir).string()};
  argv.insert(argv.end(), programs.begin(), programs.end());
  const fs::path temporary = plan.build_dir / ".hydra-tmp";
  StepPolicy policy = tree_step_policy(plan, "relink", {plan.build_dir}, temporary, {plan.source});
  util::ProcessRequest process = sandbox.request(policy, argv);
  process.output_file = plan.build_dir / ".hydra-relink.log";
  process.timeout = std::chrono::duration<double>(std::max(1.0, timeout_seconds));
  const util::ProcessResult result = util::run_process(process);
  staging.step(step_record("relink", argv, result, timeout_seconds, policy));
  const std::vector<std::string> differ = differing_programs(before, digests_of(plan.build_dir, programs));
  staging.manifest["linked_programs"] = {{"checked", programs.size()}, {"differ", differ}};
  if (!plan.baseline) return;  // a baseline's record says what its own link steps reproduce
  if (!result.started || result.exit_code != 0 || result.timed_out) {
    staging.problem("the build's programs could not be linked again alone (`ninja " + programs.front() +
                    " ...` failed): what the tests run is not known to be what its link step produced");
    return;
  }
  const std::set<std::string> theirs = baseline_differing(request);
  std::string list;
  for (const auto& program : differ)
    if (!theirs.count(program)) list += (list.empty() ? "" : ", ") + program;
  if (!list.empty())
    staging.problem("programs of the build are not the files their link steps produce (a step of the build wrote "
                    "over them after they were linked): " + list);
}

}  // namespace hydra::capture
