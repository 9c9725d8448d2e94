// The comparator: pairs two task sets by id, scores every task with the eval
// composite, lists hard regressions and decides the verdict and promotion.
// Reference: docs/compare.md.
// Pure: no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/eval/task.hpp>
#include <hydra/config/settings.hpp>
#include <hydra/eval/composite.hpp>

namespace hydra::eval {

/// The comparator's thresholds ([compare], read by config::parse).
using Thresholds = config::CompareThresholds;

enum class Verdict { improved, neutral, regressed };

/// "improved", "neutral", "regressed".
std::string_view to_string(Verdict verdict) noexcept;

/// `value` rounded to 6 decimals (half away from zero) for display; NaN stays NaN.
double round6(double value);

/// How a task appears in the two sets.
enum class Pairing {
  paired,   ///< in both sets
  dropped,  ///< in the reference only: a hard regression
  added,    ///< in the candidate only: listed, not counted in the sum
};

/// "paired", "dropped", "added".
std::string_view to_string(Pairing pairing) noexcept;

/// One side of a task: its composite and parts.
struct TaskScore {
  /// Objective, judge, base, cost adjustment and composite as shown (6
  /// decimals); `composite.exact` is the composite exactly.
  eval::Composite composite;
  eval::CostAdjustment cost;      ///< how the cost adjustment came about (zero for the reference)
  std::string judge_rationale;
  std::string judge_failure;
  std::string source;
};

/// One task compared.
struct TaskComparison {
  std::string id;
  Pairing pairing = Pairing::paired;
  std::optional<TaskScore> reference;
  std::optional<TaskScore> candidate;
  // Deltas (candidate - reference) as shown, rounded to 6 decimals from the
  // exact values; only when paired.
  std::optional<double> composite_delta;
  std::optional<double> objective_delta;       ///< of obj01 (the pass rate)
  std::optional<long long> passed_delta;       ///< of passed checks
  std::optional<double> judge_delta;           ///< only when both have a judge score
  std::optional<double> cost_adjustment_delta;
  std::vector<std::string> regressions;  ///< this task's hard-regression reasons
};

struct HardRegression {
  std::string task;
  std::string reason;
};

/// The whole comparison, in task-id order.
struct Comparison {
  Thresholds thresholds;
  eval::EvalSettings eval;
  std::string reference_source;
  std::string candidate_source;
  std::vector<TaskComparison> tasks;
  double composite_delta_sum = 0.0;  ///< over paired tasks, summed exactly, shown rounded to 6 decimals
  std::vector<HardRegression> hard_regressions;  ///< in task order
  std::vector<std::string> added_tasks;          ///< candidate-only ids (allowed, listed)
  Verdict verdict = Verdict::neutral;
  bool promote = false;  ///< verdict == improved (fail closed)
};

/// Scores one task: the reference side gets a zero cost adjustment and
/// `reference_total` nullopt; the candidate side is measured against
/// `reference` (nullopt for a candidate-only task).
TaskScore score_task(const TaskResult& task, const TaskResult* reference,
                     const eval::EvalSettings& settings);

/// Compares `candidate` with `reference`:
/// - hard regressions: a drop in a task's objective pass rate or passed checks
///   (when objective_drop_is_regression); a composite drop larger than
///   regression_composite_drop; a reference task the candidate lacks; any
///   non-finite value; integrity problems in either run;
/// - verdict: regressed on any hard regression or when the sum of composite
///   deltas <= -min_composite_gain; improved when the sum > min_composite_gain;
///   neutral otherwise. Every comparison is exact: composites, deltas and the
///   sum as exact rationals, the thresholds as the decimals they were written
///   as; rounding is for display only. promote = (verdict == improved).
Comparison compare_sets(const TaskSet& reference, const TaskSet& candidate,
                        const Thresholds& thresholds, const eval::EvalSettings& settings);

}  // namespace hydra::eval
