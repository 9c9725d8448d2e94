// capture(): the steps of steps.hpp, in order.
#include <hydra/capture/capture.hpp>

#include <iostream>

#include <hydra/capture/steps.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

CaptureOutcome capture(const CaptureRequest& request) {
  Progress progress(request.progress, request.agent);
  Plan plan = make_plan(request);
  std::string why_not_reused;
  if (auto reused = reusable_run(plan, request, why_not_reused)) {
    if (request.progress) std::cerr << "hydra[" << request.agent << "]: " << reused->summary << "\n";
    return *reused;
  }
  if (!request.checkout.empty()) check_out(plan, request, progress);
  plan.config = plan.config_file ? config::load(*plan.config_file) : config::Config{};
  if (plan.config.profile != "cmake")
    throw Error("capture drives the \"cmake\" profile; for the \"" + plan.config.profile +
                    "\" profile run its commands yourself and use `hydra-score record`",
                ExitCode::usage);
  resolve_cache_dir(plan, request);

  Sandbox sandbox = find_sandbox(request.sandbox);
  // The staging directory is removed with `staging` unless it was published.
  Staging staging = start_staging(plan, request, sandbox);
  plan.excluded.push_back(staging.directory);
  // Evidence the tree's code must not write (docs/threat-model.md): this
  // run, the runs and reports beside it, the baseline.
  sandbox.evidence = {staging.directory, plan.out, plan.out.parent_path()};
  if (request.baseline_run) {
    const fs::path baseline = util::absolute_clean(*request.baseline_run);
    sandbox.evidence.push_back(baseline);
    sandbox.evidence.push_back(baseline.parent_path());
  }
  const BuildResult build = run_build(plan, request, sandbox, staging, progress);
  if (build.passed) run_tests(plan, request, sandbox, staging, progress);
  run_held_out(plan, request, sandbox, staging, progress);
  run_lint(plan, request, build.passed, staging, progress);
  run_security(plan, sandbox, staging, progress);
  record_change(plan, request, staging, progress);
  publish(plan, plan.config, staging);
  CaptureOutcome outcome;
  outcome.build_passed = build.passed;
  outcome.summary = plan.out.string() + ": build " + (build.passed ? "passed" : "FAILED");
  return outcome;
}

}  // namespace hydra::capture
