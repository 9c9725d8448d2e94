#include <hydra/eval/verdict.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hydra::eval {
namespace {

std::string format_number(double value) {
  std::ostringstream text;
  text.precision(6);
  text << std::fixed << value;
  std::string result = text.str();
  if (result.find('.') != std::string::npos) {
    result.erase(result.find_last_not_of('0') + 1);
    if (result.back() == '.') result.pop_back();
  }
  return result;
}

/// Names of the parts of `score` that are not finite.
std::vector<std::string> non_finite_parts(const TaskScore& score) {
  std::vector<std::string> parts;
  const eval::Composite& composite = score.composite;
  if (!std::isfinite(composite.objective01)) parts.emplace_back("objective");
  if (composite.judge01 && !std::isfinite(*composite.judge01)) parts.emplace_back("judge");
  if (!std::isfinite(composite.cost_adjustment)) parts.emplace_back("cost adjustment");
  if (!std::isfinite(composite.base)) parts.emplace_back("base");
  if (!std::isfinite(composite.composite)) parts.emplace_back("composite");
  return parts;
}

std::string join(const std::vector<std::string>& parts) {
  std::string joined;
  for (const std::string& part : parts) joined += (joined.empty() ? "" : ", ") + part;
  return joined;
}

}  // namespace

std::string_view to_string(Verdict verdict) noexcept {
  switch (verdict) {
    case Verdict::improved: return "improved";
    case Verdict::neutral: return "neutral";
    case Verdict::regressed: return "regressed";
  }
  return "regressed";
}

ExitCode exit_code_of(Verdict verdict) noexcept {
  switch (verdict) {
    case Verdict::improved: return ExitCode::success;
    case Verdict::neutral: return ExitCode::neutral;
    case Verdict::regressed: return ExitCode::regressed;
  }
  return ExitCode::regressed;
}

std::string_view to_string(Pairing pairing) noexcept {
  switch (pairing) {
    case Pairing::paired: return "paired";
    case Pairing::dropped: return "dropped";
    case Pairing::added: return "added";
  }
  return "paired";
}

double round6(double value) {
  if (!std::isfinite(value)) return value;
  const double rounded = std::round(value * 1e6) / 1e6;
  return rounded == 0.0 ? 0.0 : rounded;  // no "-0"
}

TaskScore score_task(const TaskResult& task, const TaskResult* reference,
                     const eval::EvalSettings& settings) {
  TaskScore score;
  score.source = task.source;
  score.judge_rationale = task.judge_rationale;
  score.judge_failure = task.judge_failure;

  std::optional<std::uint64_t> reference_total;
  if (reference != nullptr) {
    reference_total = eval::resolve_objective(reference->checks, std::nullopt).total;
    score.cost = eval::cost_adjustment(task.cost, reference->cost, settings.cost_weight);
  }
  const eval::ObjectiveCounts objective = eval::resolve_objective(task.checks, reference_total);
  eval::Composite composite =
      eval::composite(objective, task.judge_score, score.cost.adjustment, settings);
  composite.objective01 = round6(composite.objective01);
  if (composite.judge01) composite.judge01 = round6(*composite.judge01);
  composite.base = round6(composite.base);
  composite.cost_adjustment = round6(composite.cost_adjustment);
  composite.composite = round6(composite.composite);
  score.composite = composite;
  return score;
}

Comparison compare_sets(const TaskSet& reference, const TaskSet& candidate,
                        const Thresholds& thresholds, const eval::EvalSettings& settings) {
  Comparison comparison;
  comparison.thresholds = thresholds;
  comparison.eval = settings;
  comparison.reference_source = reference.source;
  comparison.candidate_source = candidate.source;
  const double min_gain = round6(thresholds.min_composite_gain);
  const double max_drop = round6(thresholds.regression_composite_drop);

  // Every id of either set, in order (both sets are sorted by id).
  std::vector<std::string> ids;
  for (const TaskResult& task : reference.tasks) ids.push_back(task.id);
  for (const TaskResult& task : candidate.tasks) {
    if (reference.find(task.id) == nullptr) ids.push_back(task.id);
  }
  std::sort(ids.begin(), ids.end());

  double delta_sum = 0.0;
  for (const std::string& id : ids) {
    const TaskResult* reference_task = reference.find(id);
    const TaskResult* candidate_task = candidate.find(id);
    TaskComparison task;
    task.id = id;
    if (reference_task != nullptr) task.reference = score_task(*reference_task, nullptr, settings);
    if (candidate_task != nullptr) task.candidate = score_task(*candidate_task, reference_task, settings);

    for (const TaskResult* side : {reference_task, candidate_task}) {
      if (side == nullptr) continue;
      const char* which = side == reference_task ? "reference" : "candidate";
      for (const std::string& problem : side->integrity_problems)
        task.regressions.push_back(std::string(which) + " run has an integrity problem: " + problem);
    }
    for (const auto& [score, which] : {std::pair{&task.reference, "reference"}, std::pair{&task.candidate, "candidate"}}) {
      if (!*score) continue;
      const std::vector<std::string> parts = non_finite_parts(**score);
      if (!parts.empty())
        task.regressions.push_back(std::string("non-finite value in the ") + which + ": " + join(parts));
    }

    if (reference_task == nullptr) {
      task.pairing = Pairing::added;
      comparison.added_tasks.push_back(id);
    } else if (candidate_task == nullptr) {
      task.pairing = Pairing::dropped;
      task.regressions.push_back("task missing from the candidate set");
    } else {
      task.pairing = Pairing::paired;
      const eval::Composite& before = task.reference->composite;
      const eval::Composite& after = task.candidate->composite;
      task.composite_delta = round6(after.composite - before.composite);
      task.objective_delta = round6(after.objective01 - before.objective01);
      task.passed_delta = static_cast<long long>(after.objective.passed) -
                          static_cast<long long>(before.objective.passed);
      if (before.judge01 && after.judge01) task.judge_delta = round6(*after.judge01 - *before.judge01);
      task.cost_adjustment_delta = round6(after.cost_adjustment - before.cost_adjustment);
      if (!std::isfinite(*task.composite_delta))
        task.regressions.push_back("non-finite composite delta");

      if (thresholds.objective_drop_is_regression) {
        if (*task.objective_delta < 0.0)
          task.regressions.push_back("objective pass rate dropped from " + format_number(before.objective01) +
                                     " to " + format_number(after.objective01));
        if (*task.passed_delta < 0)
          task.regressions.push_back("passed checks dropped from " + std::to_string(before.objective.passed) +
                                     " to " + std::to_string(after.objective.passed));
      }
      if (*task.composite_delta < -max_drop)
        task.regressions.push_back("composite dropped by " + format_number(-*task.composite_delta) +
                                   " (more than regression_composite_drop " + format_number(max_drop) + ")");
      delta_sum += *task.composite_delta;
    }
    for (const std::string& reason : task.regressions) comparison.hard_regressions.push_back({id, reason});
    comparison.tasks.push_back(std::move(task));
  }

  comparison.composite_delta_sum = round6(delta_sum);
  const double sum = comparison.composite_delta_sum;
  if (!comparison.hard_regressions.empty() || !std::isfinite(sum) || sum <= -min_gain) {
    comparison.verdict = Verdict::regressed;
  } else if (sum > min_gain) {
    comparison.verdict = Verdict::improved;
  } else {
    comparison.verdict = Verdict::neutral;
  }
  comparison.promote = comparison.verdict == Verdict::improved && comparison.hard_regressions.empty();
  return comparison;
}

}  // namespace hydra::eval
