// The change step: the diff against the base commit, and the judge's grade
// of it when the judge dimension is on (sealed with the run, so scoring stays
// a pure function of stored artifacts).
#include <hydra/capture/change_step.hpp>

#include <hydra/eval/judge.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

std::string change_diff(const Plan& plan, const CaptureRequest& request) {
  if (plan.change) return *plan.change;
  // A checkout with a recorded patch applied (a baseline captured again)
  // differs from its commit by that patch.
  if (!request.checkout.empty() && request.checkout_patch) return util::read_file(*request.checkout_patch);
  if (!plan.in_git || plan.base_commit.empty()) return {};
  if (!request.checkout.empty()) {
    // A checked-out commit (a candidate ref): the commit against the base,
    // as `git diff --binary` prints it; empty for a baseline at its own base.
    if (plan.source_commit == plan.base_commit) return {};
    return util::diff_commits(plan.source, plan.base_commit, plan.source_commit);
  }
  return util::diff_against(plan.source, plan.base_commit, plan.excluded);
}

void record_change(const Plan& plan, const CaptureRequest& request, Staging& staging, Progress& progress) {
  if (plan.in_git && !plan.base_commit.empty()) {
    staging.write("diff.patch", change_diff(plan, request), "diff");
  } else {
    staging.manifest["diff_inactive_reason"] =
        plan.in_git ? "the repository has no commit to diff against" : "the source tree is not a git work tree";
  }

  // Judging never fails a capture: no grade is recorded with its reason.
  const eval::JudgeSettings& judge = plan.config.judge;
  if (plan.config.weights.judge <= 0 || !plan.config_file || judge.command.empty() ||
      !fs::is_regular_file(staging.directory / "diff.patch"))
    return;
  progress.start("judge");
  const eval::JudgeOutcome outcome = eval::run_judge(
      judge, {request.task.empty() ? request.agent : request.task, util::read_file(staging.directory / "diff.patch")});
  json answer = {{"rationale", outcome.rationale}};
  if (outcome.score0to1) answer["score0to1"] = *outcome.score0to1;
  else answer["failure"] = outcome.failure;
  staging.write("judge.json", answer.dump(2) + "\n", "judge");
  progress.finish(outcome.score0to1 ? "graded" : "no grade: " + outcome.failure);
}

}  // namespace hydra::capture
