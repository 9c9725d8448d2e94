#include <hydra/eval/verdict.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace hydra::eval {
namespace {

/// `text` (fixed-point) with trailing zeros trimmed ("0.050000" -> "0.05").
std::string trimmed(std::string text) {
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

/// Texts of two different values for a reason: 6 decimals (trimmed), more
/// when 6 would print them equal.
std::pair<std::string, std::string> distinct_texts(const util::Exact& first, const util::Exact& second) {
  auto [first_text, second_text] = util::fixed_apart(first, second, 6);
  return {trimmed(std::move(first_text)), trimmed(std::move(second_text))};
}

/// `value` rounded to 6 decimals for display.
double shown6(const util::Exact& value) { return value.rounded(6).to_double(); }

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
  eval::Composite composite = eval::composite(objective, task.judge_score, score.cost, settings);
  // The doubles are for display (6 decimals); composite.exact is what is compared.
  composite.objective01 = shown6(eval::exact_objective_score(objective));
  if (composite.judge01) composite.judge01 = round6(*composite.judge01);
  composite.base = round6(composite.base);
  composite.cost_adjustment = round6(composite.cost_adjustment);
  composite.composite = composite.exact ? shown6(*composite.exact) : round6(composite.composite);
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
  // Every comparison below is exact: the thresholds as the decimals they
  // were written as, the composites as exact rationals (docs/compare.md).
  const util::Exact min_gain = thresholds.min_composite_gain;
  const util::Exact max_drop = thresholds.regression_composite_drop;

  // Every id of either set, in order (both sets are sorted by id).
  std::vector<std::string> ids;
  for (const TaskResult& task : reference.tasks) ids.push_back(task.id);
  for (const TaskResult& task : candidate.tasks) {
    if (reference.find(task.id) == nullptr) ids.push_back(task.id);
  }
  std::sort(ids.begin(), ids.end());

  util::Exact delta_sum;
  bool sum_finite = true;
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
      const util::Exact objective_before = eval::exact_objective_score(before.objective);
      const util::Exact objective_after = eval::exact_objective_score(after.objective);
      task.objective_delta = shown6(objective_after - objective_before);
      task.passed_delta = static_cast<long long>(after.objective.passed) -
                          static_cast<long long>(before.objective.passed);
      if (before.judge01 && after.judge01) task.judge_delta = round6(*after.judge01 - *before.judge01);
      task.cost_adjustment_delta = round6(after.cost_adjustment - before.cost_adjustment);

      if (thresholds.objective_drop_is_regression) {
        if (objective_after < objective_before) {
          const auto [from, to] = distinct_texts(objective_before, objective_after);
          task.regressions.push_back("objective pass rate dropped from " + from + " to " + to);
        }
        if (*task.passed_delta < 0)
          task.regressions.push_back("passed checks dropped from " + std::to_string(before.objective.passed) +
                                     " to " + std::to_string(after.objective.passed));
      }
      if (before.exact && after.exact) {
        const util::Exact delta = *after.exact - *before.exact;
        task.composite_delta = shown6(delta);
        // A drop of exactly regression_composite_drop is not a regression.
        if (delta < -max_drop) {
          const auto [drop, limit] = distinct_texts(-delta, max_drop);
          task.regressions.push_back("composite dropped by " + drop + " (more than regression_composite_drop " +
                                     limit + ")");
        }
        delta_sum += delta;
      } else {
        task.composite_delta = std::numeric_limits<double>::quiet_NaN();
        task.regressions.push_back("non-finite composite delta");
        sum_finite = false;
      }
    }
    for (const std::string& reason : task.regressions) comparison.hard_regressions.push_back({id, reason});
    comparison.tasks.push_back(std::move(task));
  }

  comparison.composite_delta_sum = sum_finite ? shown6(delta_sum) : std::numeric_limits<double>::quiet_NaN();
  // The net gain must exceed min_composite_gain: a sum of exactly the
  // threshold is neutral, exactly its negative regressed.
  if (!comparison.hard_regressions.empty() || !sum_finite || delta_sum <= -min_gain) {
    comparison.verdict = Verdict::regressed;
  } else if (delta_sum > min_gain) {
    comparison.verdict = Verdict::improved;
  } else {
    comparison.verdict = Verdict::neutral;
  }
  comparison.promote = comparison.verdict == Verdict::improved && comparison.hard_regressions.empty();
  return comparison;
}

}  // namespace hydra::eval
