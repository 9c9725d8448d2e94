// capture(): the steps of steps.hpp, in order.
#include <hydra/capture/capture.hpp>

#include <iostream>

#include <hydra/capture/run_summary.hpp>
#include <hydra/capture/steps.hpp>
#include <hydra/error.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// `--profile`, or a candidate's baseline's profile, over hydra.toml's (the
/// commands hydra.toml gives for that same profile stay).
void apply_profile(config::Config& config, const CaptureRequest& request) {
  std::string profile = request.profile;
  if (request.baseline_run) {
    const std::string baseline = pipeline::read_run_manifest(*request.baseline_run).profile;
    if (!profile.empty() && profile != baseline)
      throw Error("--profile " + profile + ": the baseline run " + request.baseline_run->string() +
                      " was captured with the " + baseline + " profile; candidates are captured with their baseline's",
                  ExitCode::usage);
    profile = baseline;
  }
  if (profile.empty() || profile == config.profile) return;
  config.profile = profile;
  config.steps = config::find_profile(profile);
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

}  // namespace

CaptureOutcome capture(const CaptureRequest& request) {
  recapture_baseline(request);
  Progress progress(request.progress, request.agent);
  Plan plan = make_plan(request);
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
  apply_profile(plan.config, request);
  if (plan.config.profile == "cmake" && (plan.cmake.empty() || plan.ctest.empty()))
    throw Error("the cmake profile's capture needs cmake and ctest on PATH", ExitCode::step_failed);
  resolve_cache_dir(plan, request);

  // Marked, so that a later capture never reads this build tree as part of
  // a change when it lies inside the repository.
  fs::create_directories(plan.build_dir);
  util::write_file_atomic(plan.build_dir / util::kBuildTreeMarker, "HydraScore capture tree\n");
  if (!plan.checkout_folder.empty())
    util::write_file_atomic(plan.checkout_folder / util::kBuildTreeMarker, "HydraScore capture tree\n");

  Sandbox sandbox = find_sandbox(request.sandbox);
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
  }
  bool build_passed = false;
  if (plan.config.profile == "cmake") {
    const BuildResult build = run_build(plan, request, sandbox, staging, progress);
    build_passed = build.passed;
    if (build.passed) run_tests(plan, request, sandbox, staging, progress);
    run_held_out(plan, request, sandbox, staging, progress);
    run_lint(plan, request, build.passed, staging, progress);
  } else {
    run_profile_steps(plan, request, sandbox, staging, progress);
    run_held_out(plan, request, sandbox, staging, progress);
    const auto& built = staging.manifest.value("build", json::object());
    build_passed = !built.contains("exit_code") || (built["exit_code"] == 0 && !built.value("timed_out", false));
  }
  run_security(plan, sandbox, staging, progress);
  record_change(plan, request, staging, progress);
  // The baseline's seal held when this capture began: broken now, it was
  // this tree's code that wrote it (the sandbox was not in force).
  std::string baseline_broken;
  if (request.baseline_run) {
    try {
      pipeline::verify_seal(util::absolute_clean(*request.baseline_run));
    } catch (const TamperError& error) {
      baseline_broken = error.what();
      staging.problem("the baseline run was modified while this candidate's code ran: " + baseline_broken);
    }
  }
  CaptureOutcome outcome;
  collect_timed_out_steps(staging.manifest, "", outcome.timed_out_steps);
  publish(plan, plan.config, staging);
  if (!baseline_broken.empty()) recapture_baseline(request);
  outcome.build_passed = build_passed;
  outcome.summary = plan.out.string() + ": " + run_summary(plan.out);
  return outcome;
}

}  // namespace hydra::capture
