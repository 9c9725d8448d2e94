// capture(): the steps of steps.hpp, in order.
#include <hydra/capture/capture.hpp>

#include <iostream>

#include <hydra/capture/steps.hpp>
#include <hydra/error.hpp>

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

  const Sandbox sandbox = find_sandbox(request.sandbox);
  // The staging directory is removed with `staging` unless it was published.
  Staging staging = start_staging(plan, request, sandbox);
  plan.excluded.push_back(staging.directory);
  const BuildResult build = run_build(plan, request, sandbox, staging, progress);
  if (build.passed) run_tests(plan, request, sandbox, staging, progress);
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
