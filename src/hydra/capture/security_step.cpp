// The security step: `[scoring.gates] security_command`, run in the tree
// being captured, under the sandbox (the source tree read-only, like every
// step that runs the tree's code; the build tree writable).
#include <hydra/capture/security_step.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>

namespace hydra::capture {

void run_security(const Plan& plan, const Sandbox& sandbox, Staging& staging, Progress& progress) {
  const std::string& command = plan.config.gates.security_command;
  if (command.empty()) return;
  const double timeout = plan.budget.seconds(plan.config.lint_timeout_seconds);
  // The source tree is read-only to it, like to every step that runs the tree's code.
  StepPolicy policy = tree_step_policy(plan, "security", {plan.build_dir}, plan.build_dir / ".hydra-tmp", {plan.source});
  policy.working_directory = plan.seen(plan.source);
  util::ProcessRequest process = sandbox.request(policy, {"/bin/sh", "-c", command});
  process.output_file = staging.directory / "security.log";
  process.timeout = std::chrono::duration<double>(timeout);
  progress.start("security");
  const auto checked = util::run_process(process);
  staging.add("security.log", "security_log");
  staging.step(step_record("security", {"/bin/sh", "-c", command}, checked, timeout, policy));
  staging.manifest["security"] = {
      {"ran", true},
      {"exit_code", checked.started ? checked.exit_code : 127},
      {"timed_out", checked.timed_out},
      {"detail", "`" + command + "` " + (checked.timed_out ? "timed out" : "exited " + std::to_string(checked.exit_code))}};
  progress.finish(checked.exit_code == 0 && !checked.timed_out ? "passed" : "FAILED");
}

}  // namespace hydra::capture
