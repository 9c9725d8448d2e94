// The configure differential's step (configure_differential_step.hpp).
#include <hydra/capture/configure_differential_step.hpp>

#include <algorithm>
#include <chrono>

#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/capture/cmake/configure_differential.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/capture/plain_git.hpp>
#include <hydra/capture/trees/tree_copy.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Where the plain configure keeps its temporary files and its build tree,
/// and where its HOME is: the user's own places (each an empty folder of
/// the scratch shown there).
struct PlainPlaces {
  fs::path temporary = "/tmp";
  fs::path build = "/tmp/build";  ///< inside the source tree, see run_configure_differential
  fs::path home;
  fs::path top;  ///< the tree's top, where a user clones it: HOME/<the repository's folder name>
  std::string user;
};

/// The folder name a user's clone of the tree has: the repository's (the
/// work tree's top the capture was asked for), else the tree's own.
std::string clone_name(const Plan& plan, const CaptureRequest& request) {
  fs::path top = util::absolute_clean(request.source);
  if (plan.in_git) {
    try {
      top = util::work_tree_root(top);
    } catch (const Error&) {
    }
  }
  std::string name = top.filename().string();
  if (name.empty() || name == "." || name == "..") name = plan.source.filename().string();
  return name.empty() || name == "." || name == ".." ? std::string("project") : name;
}

PlainPlaces plain_places(const std::map<std::string, std::string>& inherited) {
  PlainPlaces places;
  const auto value = [&](const char* name) {
    const auto found = inherited.find(name);
    return found == inherited.end() ? std::string() : found->second;
  };
  places.user = value("USER").empty() ? std::string("user") : value("USER");
  const fs::path home = value("HOME");
  places.home = home.is_absolute() && !is_system_root(home) && home != "/tmp" ? home : fs::path("/home") / places.user;
  return places;
}

/// The sandbox policy of the plain configure: `plan`'s, with a writable
/// copy of the tree's top (`view`, its clone's git directory in it and the
/// repository's objects read-only there) at `places.top`, HOME and TMPDIR at
/// `places` from the scratch folders, and a neutral environment.
StepPolicy plain_policy(const Plan& plan, const fs::path& view, const fs::path& objects, const fs::path& scratch,
                        const PlainPlaces& places, const CapturedConfigure& captured) {
  std::vector<fs::path> readable = captured.readable;
  StepPolicy policy = tree_step_policy(plan, "configure differential", {}, scratch / "unused", readable);
  // Its own HOME and TMPDIR replace whatever hid those places.
  policy.mounts.erase(std::remove_if(policy.mounts.begin(), policy.mounts.end(),
                                     [&](const Mount& mount) {
                                       return mount.path == places.temporary || mount.path == places.home ||
                                              util::is_within(mount.path, places.top) ||
                                              util::is_within(mount.path, scratch);
                                     }),
                      policy.mounts.end());
  policy.add(Mount::Access::read_write, places.temporary, scratch / "tmp");
  policy.add(Mount::Access::read_write, places.home, scratch / "home");
  // After HOME, which holds it: the tree where a user's clone is, writable.
  policy.add(Mount::Access::read_write, places.top, view);
  policy.add(Mount::Access::read_write, places.build, scratch / "tmp" / "build");
  if (!objects.empty()) policy.add(Mount::Access::read_only, places.top / ".git" / "objects", objects);
  policy.temporary = places.temporary;
  policy.home = places.home;
  std::map<std::string, std::string> environment = step_environment(
      plan.config.sandbox, current_environment(), places.home, places.temporary);
  environment["USER"] = places.user;
  environment["LOGNAME"] = places.user;
  environment["SHELL"] = "/bin/sh";
  policy.environment = std::move(environment);
  return policy;
}

}  // namespace

void run_configure_differential(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                Staging& staging, const CapturedConfigure& captured) {
  json record = {{"ran", false}};
  if (!sandbox.confined()) {
    record["reason"] = "no sandbox: the plain configure runs only confined";
    staging.manifest["configure_differential"] = std::move(record);
    return;
  }
  const auto started = std::chrono::steady_clock::now();
  // A neutral name: what a configure finds in /proc/self/mountinfo.
  util::TempDir scratch("cmake");
  const fs::path top = plan.in_git ? util::work_tree_root(plan.source) : plan.source;
  const fs::path view = scratch.path() / "src";
  std::vector<fs::path> excluded = plan.excluded;
  excluded.push_back(plan.build_dir);
  copy_tree(top, view, plan.in_git, excluded, {});
  fs::path objects;
  if (plan.in_git && !plan.source_commit.empty()) objects = make_clone_git(top, plan.source_commit, view / ".git");
  PlainPlaces places = plain_places(current_environment());
  // The tree where a user clones it, at the repository's own name in HOME
  // (the capture's worktree has another name, and is read-only).
  places.top = places.home / clone_name(plan, request);
  const fs::path inside = plan.source.lexically_relative(top);
  const fs::path source = inside.empty() || inside == "." ? places.top : places.top / inside;
  // The build tree inside the source tree, where a user's `cmake -B build`
  // puts it (the capture's own lies outside): a folder the tree lacks.
  const fs::path in_view = view / plan.source.lexically_relative(top);
  std::string name = "build";
  for (int suffix = 2; fs::exists(in_view / name); ++suffix) name = "build-" + std::to_string(suffix);
  fs::create_directories(in_view / name);
  places.build = source / name;
  fs::create_directories(scratch.path() / "tmp" / "build");
  fs::create_directories(scratch.path() / "home");
  const fs::path build = scratch.path() / "tmp" / "build";
  write_file_api_queries(build);
  const StepPolicy policy = plain_policy(plan, view, objects, scratch.path(), places, captured);

  // The user's configure: the generator, cache script and arguments the
  // capture's had, none of HydraScore's own.
  std::vector<std::string> configure = {plan.cmake.string(), "-S", source.string(), "-B", places.build.string()};
  if (!plan.generator.empty()) configure.insert(configure.end(), {"-G", plan.generator});
  if (request.initial_cache)
    configure.insert(configure.end(), {"-C", util::absolute_clean(*request.initial_cache).string()});
  if (!plan.ninja.empty()) configure.push_back("-DCMAKE_MAKE_PROGRAM=" + plan.ninja.string());
  configure.insert(configure.end(), request.cmake_arguments.begin(), request.cmake_arguments.end());
  util::ProcessRequest process = sandbox.request(policy, configure);
  process.output_file = scratch.path() / "configure.log";
  process.timeout = std::chrono::duration<double>(std::max(1.0, captured.timeout));
  const util::ProcessResult result = util::run_process(process);
  staging.step(step_record("configure differential", configure, result, captured.timeout, policy));
  record["ran"] = true;
  record["exit_code"] = result.started ? result.exit_code : 127;
  record["environment"] = {{"home", places.home.string()},
                           {"source", source.string()},
                           {"temporary", places.temporary.string()},
                           {"build", places.build.string()},
                           {"git", objects.empty() ? "none" : "a clone's repository at the tree's top"}};
  std::vector<ConfigureDifference> differences;
  if (!result.started || result.exit_code != 0 || result.timed_out) {
    const std::string log = util::read_file(scratch.path() / "configure.log");
    differences.push_back({"configure", "the configure failed outside HydraScore's capture (" +
                                            (result.timed_out ? std::string("timed out") : "exit " +
                                             std::to_string(result.exit_code)) + "): " +
                                            log.substr(log.size() > 400 ? log.size() - 400 : 0)});
  } else {
    ConfigureOutputs plain{read_build_targets(build, request.build_config), places.build,
                           read_generated_files(build, places.build, std::nullopt, {})};
    std::set<std::string> named;
    for (const auto& [path, content] : plain.generated) named.insert(path);
    ConfigureOutputs ours{captured.targets, captured.seen_build,
                          read_generated_files(captured.build_dir, captured.seen_build, captured.started, named)};
    differences = compare_configures(ours, plain);
  }
  json listed = json::array();
  for (const auto& difference : differences) listed.push_back({{"key", difference.key}, {"detail", difference.detail}});
  record["differences"] = std::move(listed);
  record["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  staging.manifest["configure_differential"] = std::move(record);
}

}  // namespace hydra::capture
