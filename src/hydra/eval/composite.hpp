// The eval composite of one task run, in [0, 1]: objective checks, an
// optional judge score and a cost adjustment against the reference run.
// Reference: docs/compare.md. Computed exactly (util::Exact); the doubles
// are for display.
// Pure functions: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <hydra/config/settings.hpp>
#include <hydra/model/metrics.hpp>
#include <hydra/model/run.hpp>
#include <hydra/util/exact.hpp>

namespace hydra::eval {

/// [eval] settings (read by config::parse).
using EvalSettings = config::EvalSettings;

/// What a run says about its checks before the reference run is known.
struct CheckOutcome {
  bool build_failed = false;
  std::optional<std::uint64_t> passed;  ///< nullopt: the checks did not run
  std::optional<std::uint64_t> total;   ///< nullopt: the number of checks is unknown
};

/// Objective checks passed out of total, as the composite counts them.
struct ObjectiveCounts {
  std::uint64_t passed = 0;
  std::uint64_t total = 0;
};

/// The checks of `run`: its tests selected by `settings` (status passed vs all
/// selected). `build_failed` when the build result is known and failed. When
/// no test results were recorded, `passed` is nullopt and `total` comes from
/// ctest's test list (nullopt when that is empty too).
CheckOutcome check_outcome(const model::Run& run, const EvalSettings& settings);

/// Settles `outcome` into counts; `reference_total` is the reference run's
/// number of checks (nullopt for the reference itself or when unpaired).
/// - build failed: passed = 0, total = max(1, known total, else reference total, else 0),
///   so a failed build never scores 1.0;
/// - checks did not run: passed = 0, total = known total, else reference total, else 0;
/// - otherwise the counts as given.
ObjectiveCounts resolve_objective(const CheckOutcome& outcome,
                                  std::optional<std::uint64_t> reference_total);

/// obj01 = passed / total; 1.0 when `counts.total` is 0 (no checks).
double objective_score(const ObjectiveCounts& counts);
/// The same, exactly.
util::Exact exact_objective_score(const ObjectiveCounts& counts);

/// The cost adjustment of a candidate against its reference run and how it came about.
struct CostAdjustment {
  std::vector<std::string> signals;  ///< the signals both sides have, in a fixed order
  double average_ratio = 1.0;        ///< mean candidate/reference ratio over `signals`
  double savings = 0.0;              ///< clamp(1 - average_ratio, -1, 1)
  double adjustment = 0.0;           ///< savings * cost_weight; 0 when `signals` is empty
  /// `adjustment` exactly (each metric the decimal it was written as);
  /// nullopt when a signal or the weight is not finite (`adjustment` is then NaN).
  std::optional<util::Exact> exact_adjustment = util::Exact();
};

/// Compares `candidate` with `reference` over cost_usd, tokens, tool_calls,
/// steps and wall_clock_ms (the signals both have). A reference of 0 gives
/// ratio 2 when the candidate used some and 1 otherwise. A non-finite input
/// makes the adjustment NaN (the comparator treats it as a hard regression).
CostAdjustment cost_adjustment(const model::AgentMetrics& candidate,
                               const model::AgentMetrics& reference, double cost_weight);

/// One run's composite and its parts.
struct Composite {
  ObjectiveCounts objective;
  double objective01 = 1.0;
  std::optional<double> judge01;  ///< nullopt: no judge score; the judge weight drops out
  double base = 0.0;              ///< (W_OBJ*obj01 + W_JUDGE*judge01) / (W_OBJ + W_JUDGE_eff)
  double cost_adjustment = 0.0;
  double composite = 0.0;  ///< clamp(base + cost_adjustment, 0, 1); NaN when an input is not finite
  /// `composite` exactly, every comparison's operand (docs/compare.md,
  /// "Exact values"); nullopt when an input is not finite.
  std::optional<util::Exact> exact;
};

/// Combines the parts with `settings`' weights, exactly (the weights and the
/// judge score as the decimals they were written as).
Composite composite(const ObjectiveCounts& objective, std::optional<double> judge01,
                    const CostAdjustment& cost, const EvalSettings& settings);
/// The same with a cost adjustment given as a decimal.
Composite composite(const ObjectiveCounts& objective, std::optional<double> judge01,
                    double cost_adjustment, const EvalSettings& settings);

}  // namespace hydra::eval
