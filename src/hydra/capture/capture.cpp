// capture(): the steps of steps.hpp, in order.
#include <hydra/capture/capture.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <cstdlib>
#include <functional>
#include <future>
#include <iostream>
#include <optional>
#include <set>

#include <hydra/capture/cmake/built_files.hpp>
#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/capture/cmake/linked_programs.hpp>
#include <hydra/capture/cmake/runtime_exports.hpp>
#include <hydra/capture/lint/archive_members.hpp>
#include <hydra/capture/lint/flag_suppressions.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/capture/cmake/own_cache.hpp>
#include <hydra/capture/sandbox/network_use.hpp>
#include <hydra/capture/run_summary.hpp>
#include <hydra/capture/steps.hpp>
#include <hydra/capture/trees/tree_snapshot.hpp>
#include <hydra/error.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// `--profile`, or a candidate's baseline's profile, over hydra.toml's (the
/// commands hydra.toml gives for that same profile stay).
void apply_profile(config::Config& config, const CaptureRequest& request, const Plan& plan) {
  std::string profile = request.profile;
  if (plan.baseline) {
    const std::string& baseline = plan.baseline->profile;
    if (!profile.empty() && profile != baseline)
      throw UsageError("--profile " + profile + ": the baseline run " + request.baseline_run->string() +
                      " was captured with the " + baseline + " profile; candidates are captured with their baseline's");
    profile = baseline;
  }
  if (profile.empty() || profile == config.profile) return;
  config.profile = profile;
  config.steps = config::find_profile(profile);
}

/// Throws hydra::Error (exit 2) when `diff` touches CMake files, unless
/// HYDRA_SCORE_ALLOW_CMAKE_CHANGES=1 (CaptureRequest::refuse_cmake_changes).
void refuse_cmake_changes(const std::string& diff) {
  const char* allowed = std::getenv("HYDRA_SCORE_ALLOW_CMAKE_CHANGES");
  if (allowed && std::string(allowed) != "" && std::string(allowed) != "0") return;
  std::vector<std::string> files;
  for (const auto& file : parse::parse_diff_lines(diff, "the change's diff").files) {
    for (const auto& path : {file.path, file.old_path}) {
      const fs::path name = fs::path(path).filename();
      if (name == "CMakeLists.txt" || name.extension() == ".cmake" || name == "CMakePresets.json" ||
          name == "CMakeUserPresets.json" || (name.extension() == ".in" && name.stem().extension() == ".cmake")) {
        if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
      }
    }
  }
  if (files.empty()) return;
  std::string list;
  for (const auto& file : files) list += (list.empty() ? "" : ", ") + file;
  throw UsageError("the working tree changes CMake files (" + list +
                  "): `cmake --build` has already run the project's configure with them outside the sandbox, so "
                  "this tree is not scored. Score it from a commit instead, where its CMake code runs only inside "
                  "the sandbox: commit it to a branch and run `cmake -DHYDRA_SCORE_CANDIDATES=<branch> <build> && "
                  "cmake --build <build> --target hydra_score` (or `hydra-score capture --ref <branch>`). To score "
                  "this tree anyway: -DHYDRA_SCORE_ALLOW_CMAKE_CHANGES=ON, or HYDRA_SCORE_ALLOW_CMAKE_CHANGES=1 in "
                  "the environment.");
}

/// A build that failed for want of the network it does not have says what
/// to do about it: an error for a baseline (exit 8: no candidate could
/// build either), a problem of a candidate (its new dependency).
void report_network_need(const CaptureRequest& request, const Sandbox& sandbox, Staging& staging, bool build_passed) {
  if (build_passed || !sandbox.confined() || sandbox.network) return;
  for (const char* log : {"configure.log", "build.log"}) {
    const fs::path file = staging.directory / log;
    if (!fs::is_regular_file(file)) continue;
    const std::string line = network_failure_line(util::read_file(file));
    if (line.empty()) continue;
    const std::string message = network_needed_message("the build", std::string(log) + ": " + line);
    if (!request.baseline_run) throw StepFailed(message);
    staging.problem(message);
    return;
  }
}

/// A candidate's build that read files of the work tree that are no file
/// of its change (built_files.hpp), files outside both trees that the
/// baseline's build did not read, or a file of the change that is a symbolic
/// link out of the tree, was built from more than `hydra_apply` would merge:
/// a problem of the run, naming them. Every capture records what its build
/// read outside the trees, so that a candidate's can be compared.
void report_built_outside_change(const Plan& plan, const CaptureRequest& request, const TreeSnapshot& tree,
                                 Staging& staging) {
  const auto listed = [](const std::vector<std::string>& items) {
    std::string list;
    for (std::size_t index = 0; index < items.size() && index < 20; ++index)
      list += (index ? "; " : "") + items[index];
    if (items.size() > 20) list += "; and " + std::to_string(items.size() - 20) + " more";
    return list;
  };
  std::set<std::string> dependencies, files;
  for (const auto& [header, targets] : header_users(plan.build_dir)) dependencies.insert(header);
  std::set<std::string> inputs = dependencies;
  for (auto& input : configure_inputs(plan.build_dir)) inputs.insert(input);
  std::vector<fs::path> own = plan.evidence;
  if (plan.cache_dir) own.push_back(*plan.cache_dir);
  if (request.initial_cache) own.push_back(util::absolute_clean(*request.initial_cache));
  const std::vector<std::string> read_outside =
      inputs_outside_trees(inputs, plan.seen(plan.source), plan.seen(plan.build_dir), own);
  staging.manifest["build_inputs_outside_trees"] = read_outside;
  if (!plan.baseline || !plan.in_git) return;
  for (const auto& [file, stamp] : tree.files) files.insert(file);
  const auto outside =
      built_outside_change(dependencies, plan.seen(tree.root), plan.seen(plan.build_dir), tree.root, files);
  if (!outside.empty()) {
    staging.problem("the build read files of the work tree that are not part of the change (ignored, in a nested "
                    "repository or in another build tree; diff.patch does not hold them): " + listed(outside));
    staging.manifest["built_outside_change"] = outside;
  }
  const std::set<std::string> baseline_read(plan.baseline->build_inputs_outside_trees.begin(),
                                            plan.baseline->build_inputs_outside_trees.end());
  std::vector<std::string> new_outside;
  for (const auto& input : read_outside)
    if (!baseline_read.count(input)) new_outside.push_back(input);
  if (!new_outside.empty())
    staging.problem("the build read files outside the source and build trees that the baseline's build did not "
                    "(no diff holds them): " + listed(new_outside));
  // Links the change adds or edits (the diff names them); a link the base
  // commit already holds is the project's own. A name git would quote in
  // the diff is always looked at.
  std::set<std::string> changed;
  for (const auto& file : files) {
    const bool plain = std::all_of(file.begin(), file.end(), [](unsigned char c) {
      return std::isalnum(c) || std::strchr("._/+-@", c) != nullptr;
    });
    if (!plain || !plan.change || plan.change->find(" b/" + file + "\n") != std::string::npos) changed.insert(file);
  }
  const auto links = links_out_of_tree(changed, tree.root);
  if (!links.empty())
    staging.problem("files of the change are symbolic links out of the tree (what they name is in no diff): " +
                    listed(links));
}

/// The compilers the toolchains of the configured tree name (build-targets.json).
std::vector<std::string> toolchain_compilers(const Staging& staging) {
  std::vector<std::string> compilers;
  try {
    const fs::path file = staging.directory / "build-targets.json";
    if (!fs::is_regular_file(file)) return compilers;
    for (const auto& [language, compiler] : parse::parse_build_targets_file(file).compilers) compilers.push_back(compiler);
  } catch (const Error&) {
  }
  return compilers;
}

/// What no step of `plan` may read besides the evidence (Plan::hidden).
std::vector<fs::path> hidden_from_steps(const Plan& plan, const CaptureRequest& request) {
  std::vector<fs::path> hidden = plan.hidden;
  // The private tests (the held-out runs apply the patch; the steps never see it).
  if (const std::string& patch = plan.config.anti_gaming.private_test_patch; !patch.empty()) {
    const fs::path path = fs::path(patch).is_relative() ? plan.source / patch : fs::path(patch);
    hidden.push_back(util::absolute_clean(path));
  }
  // This capture's held-out trees: compiled private tests stay there.
  hidden.push_back(plan.build_dir / ".hydra");
  for (const auto& tree : request.hidden_trees) hidden.push_back(util::absolute_clean(tree));
  return hidden;
}

/// Hides from every step what no diff shows (util::paths_outside_change):
/// the repository's git directory, the tree's ignored files and nested
/// repositories. The capture's own trees inside them (a build tree in an
/// ignored `build/`, the compiler cache) stay visible to the steps that
/// have them: deeper mounts win. Recorded as
/// manifest.json's `hidden_outside_change` (how many, the first 50).
void hide_outside_change(Plan& plan, Staging& staging) {
  constexpr std::size_t kMost = 2000;  // bubblewrap mounts each one
  const std::vector<fs::path> paths = util::paths_outside_change(plan.source);
  json shown = json::array();
  std::size_t count = 0;
  for (const auto& path : paths) {
    if (count == kMost) break;
    if (util::is_within(plan.source, path)) continue;  // around the tree itself: never
    plan.hidden.push_back(path);
    if (count++ < 50) shown.push_back(path.string());
  }
  staging.manifest["hidden_outside_change"] = {{"count", count}, {"paths", shown}, {"truncated", paths.size() > count && count == kMost}};
}

/// A capture of a work tree: its HEAD must still be the commit the capture
/// recorded (source and base commit). A `git checkout` in the repository
/// while the capture ran makes the tree captured another commit's: fails
/// the capture rather than record the wrong base.
void require_head_unmoved(const Plan& plan, const CaptureRequest& request) {
  if (!request.checkout.empty() || !plan.in_git || plan.source_commit.empty()) return;
  const auto head = util::run_git(plan.source, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
  const std::string now = head.exit_code == 0 ? std::string(util::trim(head.output)) : std::string("(none)");
  if (now != plan.source_commit)
    throw StepFailed("HEAD of " + plan.source.string() + " moved from " + plan.source_commit.substr(0, 12) + " to " +
                     now.substr(0, 12) + " while the capture ran (a checkout in the repository?): the tree captured "
                     "is not the commit it would record; capture again once the repository is still");
}

/// The names of the steps in `record`'s "steps" lists (the capture's own,
/// and the held-out runs' inside it, named "<where> <step>") that ran out of time.
void collect_timed_out_steps(const json& record, const std::string& where, std::vector<std::string>& into) {
  if (!record.is_object()) return;
  for (const auto& [key, value] : record.items()) {
    if (key == "steps" && value.is_array()) {
      for (const auto& step : value)
        if (step.is_object() && step.value("timed_out", false))
          into.push_back((where.empty() ? "" : where + " ") + step.value("name", std::string("step")));
    } else if (value.is_object()) {
      std::string inner = key == "run" ? std::string() : key;  // held_out.run -> "held-out"
      for (char& c : inner)
        if (c == '_') c = '-';
      const std::string path = inner.empty() ? where : where.empty() ? inner : where + " " + inner;
      collect_timed_out_steps(value, path, into);
    }
  }
}

/// `later`'s changes to a copy of `earlier` (a manifest), made on `into`:
/// lists grown are grown by what was appended, objects merged key by key,
/// other values replaced.
void merge_changes(json& into, const json& later, const json& earlier) {
  for (const auto& [key, value] : later.items()) {
    const bool had = earlier.is_object() && earlier.contains(key);
    if (had && earlier[key] == value) continue;
    if (had && value.is_array() && earlier[key].is_array() && into.contains(key) && into[key].is_array()) {
      for (std::size_t index = earlier[key].size(); index < value.size(); ++index) into[key].push_back(value[index]);
    } else if (had && value.is_object() && earlier[key].is_object() && into.contains(key) && into[key].is_object()) {
      merge_changes(into[key], value, earlier[key]);
    } else {
      into[key] = value;
    }
  }
}

/// Lint beside the tests and held-out runs (lint_step.hpp, LintBeside): on
/// two processors, clang-tidy's unit and the tests no longer wait for each
/// other. They start once lint has made its folder, which they see hidden;
/// lint records into a staging of its own, merged when both are done.
void run_beside_lint(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, bool build_passed,
                     Staging& staging, Progress& progress, const std::function<void()>& others,
                     LintWarmUp* warm_up) {
  Staging lint_staging;
  lint_staging.owner = staging.owner;
  lint_staging.directory = staging.directory;
  lint_staging.manifest = staging.manifest;
  const json earlier = staging.manifest;
  Progress lint_progress(progress.enabled(), request.agent, false);
  std::promise<void> others_done;
  LintBeside beside;
  beside.others_done = others_done.get_future().share();
  beside.warm_up = warm_up;
  std::future<void> folder_ready = beside.folder_ready.get_future();
  std::future<LintResult> lint = std::async(std::launch::async, [&] {
    return run_lint(plan, request, sandbox, build_passed, lint_staging, lint_progress, &beside);
  });
  {
    // Lint waits for the others to end: said however they end, before
    // `lint` is waited for.
    struct Done {
      std::promise<void>& done;
      ~Done() { done.set_value(); }
    } done{others_done};
    folder_ready.wait();
    others();
  }
  lint.get();
  merge_changes(staging.manifest, lint_staging.manifest, earlier);
  for (const auto& [relative, role] : lint_staging.roles.items()) staging.roles[relative] = role;
}

/// The cmake profile's steps: build, its checks, tests, held-out runs and
/// lint. A candidate's own compiler cache (cmake/own_cache.hpp) is written
/// by its build step only, read by its held-out builds only, and removed
/// before lint. Returns whether the build passed.
bool run_cmake_steps(Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                     Progress& progress, const TreeSnapshot& source_before) {
  // Only where the sandbox hides it from every step but those.
  if (request.baseline_run && sandbox.confined()) {
    plan.own_cache = own_cache_folder(staging.directory);
    plan.own_cache_writes = true;
  }
  struct OwnCacheCleanup {
    fs::path folder;
    ~OwnCacheCleanup() {
      std::error_code ignored;
      if (!folder.empty()) fs::remove_all(folder, ignored);
    }
  } own_cache_cleanup{plan.own_cache};
  // The lint cache's warm-up beside the build (lint_step.hpp, LintWarmUp):
  // where a sandbox keeps the build out of lint's folder, and the tree was
  // built before (an incremental capture; a first build makes what lint reads).
  LintWarmUp warm_up;
  // What the runtime libraries export, for the object scan (runtime_exports.hpp).
  std::future<void> exports;
  const std::string compiler = user_compiler(plan.initial_cache);
  const auto configured = [&] {
    std::error_code ignored;
    if (fs::exists(plan.build_dir / "build.ninja", ignored))
      exports = std::async(std::launch::async, [&] { read_runtime_exports(compiler, plan.cache_dir); });
    if (!sandbox.confined() || !fs::exists(plan.build_dir / ".ninja_deps", ignored)) return;
    fs::create_directories(plan.build_dir / kLintFolder, ignored);
    warm_up.done = std::async(std::launch::async, [&, copy = staging] {
                     warm_lint_cache(plan, request, sandbox, copy, warm_up);
                   }).share();
  };
  const BuildResult build = run_build(plan, request, sandbox, staging, progress, configured);
  // Read by the held-out builds only when this build filled it.
  plan.own_cache_writes = false;
  const json& caches = staging.manifest.contains("caches") ? staging.manifest["caches"] : json::object();
  const json own = caches.is_object() && caches.contains("compiler") && caches["compiler"].is_object()
                       ? caches["compiler"].value("own", json::object())
                       : json::object();
  if (!own.is_object() || own.value("role", std::string()) != "writer") plan.own_cache.clear();
  report_built_outside_change(plan, request, source_before, staging);
  record_flag_suppressions(plan, request, toolchain_compilers(staging), staging);
  report_network_need(request, sandbox, staging, build.passed);
  const auto tests_and_held_out = [&] {
    if (build.passed)
      check_linked_programs(plan, request, sandbox, staging, plan.budget.seconds(plan.config.build_timeout_seconds));
    // What the test programs were linked with holds only code lint knows (lint/archive_members.hpp).
    if (build.passed) check_archive_members(plan, staging);
    if (build.passed) run_tests(plan, request, sandbox, staging, progress);
    run_held_out(plan, request, sandbox, staging, progress);
    std::error_code ignored;
    fs::remove_all(own_cache_cleanup.folder, ignored);  // no later step reads it
  };
  if (!sandbox.confined()) {
    // Nothing would keep the tests out of what lint reads: one after the other.
    tests_and_held_out();
    run_lint(plan, request, sandbox, build.passed, staging, progress);
    return build.passed;
  }
  run_beside_lint(plan, request, sandbox, build.passed, staging, progress, tests_and_held_out,
                  warm_up.done.valid() ? &warm_up : nullptr);
  return build.passed;
}

/// What went to the shared cache (docs/caches.md): never part of a result,
/// only of how long the capture took.
void record_shared_cache(const Plan& plan, Staging& staging) {
  if (!plan.shared_cache) return;
  const auto stats = plan.shared_cache->stats();
  json shared = {{"address", plan.shared_cache->address().url},
                 {"role", plan.shared_cache->role() == remote::Role::writer ? "writer" : "reader"},
                 {"lookups", stats.lookups},
                 {"hits", stats.hits},
                 {"corrupt", stats.corrupt},
                 {"writes", stats.writes}};
  if (!stats.unavailable.empty()) shared["unavailable"] = stats.unavailable;
  staging.manifest["caches"]["shared"] = shared;
}

}  // namespace

CaptureOutcome capture(const CaptureRequest& request) {
  // Until the first step runs no code of the tree has run: git's view of
  // the repository's configuration and top is read once (util::GitMemo).
  std::optional<util::GitMemo> before_code(std::in_place);
  Progress progress(request.progress, request.agent);
  Plan plan = make_plan(request, verified_baseline(request));
  std::string why_not_reused;
  if (auto reused = reusable_run(plan, request, why_not_reused)) {
    reused->summary += ": " + run_summary(plan.out);
    if (request.progress) std::cerr << "hydra[" << request.agent << "]: " << reused->summary << "\n";
    return *reused;
  }
  if (request.only_if_changed && request.checkout.empty() && plan.in_git && !plan.base_commit.empty() &&
      change_diff(plan, request).empty()) {
    CaptureOutcome outcome;
    outcome.skipped = true;
    outcome.summary = plan.source.string() + " equals the base commit " + plan.base_commit.substr(0, 12) +
                      ": not captured";
    if (request.progress) std::cerr << "hydra[" << request.agent << "]: " << outcome.summary << "\n";
    return outcome;
  }
  // A candidate ref's worktree goes when the capture ends, however it ends.
  struct WorktreeCleanup {
    fs::path repository, worktree;
    ~WorktreeCleanup() {
      if (!worktree.empty()) util::remove_worktree(repository, worktree);
    }
  } cleanup;
  if (!request.checkout.empty()) {
    const fs::path repository = plan.source;
    check_out(plan, request, progress);
    if (request.temporary_worktree) {
      cleanup.repository = repository;
      cleanup.worktree = plan.worktree;
    }
  }
  plan.config = plan.config_file ? config::load(*plan.config_file) : config::Config{};
  apply_profile(plan.config, request, plan);
  if (plan.config.profile == "cmake" && (plan.cmake.empty() || plan.ctest.empty()))
    throw StepFailed("the cmake profile's capture needs cmake and ctest on PATH");
  resolve_cache_dir(plan, request);

  // Marked, so that a later capture never reads this build tree as part of
  // a change when it lies inside the repository.
  fs::create_directories(plan.build_dir);
  util::write_file_atomic(plan.build_dir / util::kBuildTreeMarker, "HydraScore capture tree\n");
  if (!plan.checkout_folder.empty())
    util::write_file_atomic(plan.checkout_folder / util::kBuildTreeMarker, "HydraScore capture tree\n");

  config::SandboxSettings sandbox_settings = plan.config.sandbox;
  sandbox_settings.require = sandbox_settings.require || request.require_sandbox;
  Sandbox sandbox = find_sandbox(request.sandbox, sandbox_settings, request.step_runner);
  // The staging directory is removed with `staging` unless it was published.
  Staging staging = start_staging(plan, request, sandbox);
  plan.excluded.push_back(staging.directory);
  // Evidence the tree's code must not write (docs/threat-model.md): this
  // run, the runs and reports beside it, the baseline.
  plan.evidence = {staging.directory, plan.out, plan.out.parent_path()};
  if (request.baseline_run) {
    const fs::path baseline = util::absolute_clean(*request.baseline_run);
    plan.evidence.push_back(baseline);
    plan.evidence.push_back(baseline.parent_path());
    // The baseline's build tree holds its held-out tree (the private tests).
    const std::string& baseline_build = plan.baseline->build_dir;
    if (!baseline_build.empty()) plan.hidden.push_back(util::absolute_clean(baseline_build));
  }
  plan.hidden = hidden_from_steps(plan, request);
  if (plan.in_git) hide_outside_change(plan, staging);
  // The change is fixed before any of the tree's code runs: its diff, and
  // what the tree's files are, to catch a step that writes one (the source
  // tree is read-only to every step under the sandbox).
  if (plan.in_git && !plan.base_commit.empty()) plan.change = change_diff(plan, request);
  if (request.refuse_cmake_changes && request.checkout.empty() && plan.change) refuse_cmake_changes(*plan.change);
  std::vector<fs::path> unsnapshotted = plan.excluded;
  unsnapshotted.push_back(plan.out.parent_path() / "worktrees");
  if (plan.cache_dir) unsnapshotted.push_back(*plan.cache_dir);
  const TreeSnapshot source_before = snapshot_tree(plan.source, plan.in_git, unsnapshotted);
  bool build_passed = false;
  before_code.reset();
  if (plan.config.profile == "cmake") {
    build_passed = run_cmake_steps(plan, request, sandbox, staging, progress, source_before);
  } else {
    run_profile_steps(plan, request, sandbox, staging, progress);
    run_held_out(plan, request, sandbox, staging, progress);
    const auto& built = staging.manifest.value("build", json::object());
    build_passed = !built.contains("exit_code") || (built["exit_code"] == 0 && !built.value("timed_out", false));
    report_network_need(request, sandbox, staging, build_passed);
  }
  run_security(plan, sandbox, staging, progress);
  // The tree's code has run its last: git reads the configuration afresh, once.
  std::optional<util::GitMemo> after_code(std::in_place);
  require_head_unmoved(plan, request);
  // Still the change that was taken: a tree whose files the steps wrote
  // (and perhaps restored) is not the tree that was scored.
  const std::vector<std::string> written =
      tree_changes(source_before, snapshot_tree(plan.source, plan.in_git, unsnapshotted));
  if (!written.empty()) {
    std::string list;
    for (std::size_t index = 0; index < written.size() && index < 20; ++index)
      list += (index ? "; " : "") + written[index];
    if (written.size() > 20) list += "; and " + std::to_string(written.size() - 20) + " more";
    staging.problem("the source tree changed while its code ran (" + list + ")");
  }
  staging.manifest["source_tree"] = {{"files", source_before.files.size()}, {"changed_while_code_ran", written}};
  record_change(plan, request, staging, progress);
  record_shared_cache(plan, staging);
  // The baseline's seal held when this capture began: broken now, it was
  // this tree's code that wrote it (the sandbox was not in force).
  std::string baseline_broken;
  if (request.baseline_run) {
    try {
      pipeline::verify_seal(util::absolute_clean(*request.baseline_run));
    } catch (const Tampered& error) {
      baseline_broken = error.what();
      staging.problem("the baseline run was modified while this candidate's code ran: " + baseline_broken);
    }
  }
  CaptureOutcome outcome;
  collect_timed_out_steps(staging.manifest, "", outcome.timed_out_steps);
  publish(plan, plan.config, staging);
  after_code.reset();  // a baseline captured again runs its own steps
  if (!baseline_broken.empty()) recapture_baseline(request);
  outcome.build_passed = build_passed;
  outcome.summary = plan.out.string() + ": " + run_summary(plan.out);
  return outcome;
}

}  // namespace hydra::capture
