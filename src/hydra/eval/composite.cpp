#include <hydra/eval/composite.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <hydra/error.hpp>
#include <hydra/util/regex.hpp>

namespace hydra::eval {
namespace {

bool has_any_label(const std::vector<std::string>& labels, const std::vector<std::string>& wanted) {
  return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& label) {
    return std::find(labels.begin(), labels.end(), label) != labels.end();
  });
}

}  // namespace

CheckOutcome check_outcome(const model::Run& run, const EvalSettings& settings) {
  std::optional<util::Regex> name_pattern;
  if (!settings.check_regex.empty()) {
    name_pattern.emplace(settings.check_regex);
    if (!name_pattern->ok())  // config::load rejects it first
      throw UsageError("eval.check_regex: invalid regular expression: " + name_pattern->error());
  }
  auto is_check = [&](const std::string& name, const std::vector<std::string>& labels) {
    if (!settings.check_labels.empty() && !has_any_label(labels, settings.check_labels)) return false;
    if (name_pattern && !name_pattern->search(name)) return false;
    return true;
  };

  CheckOutcome outcome;
  outcome.build_failed = run.build.known && !run.build.passed;
  if (run.tests) {
    std::uint64_t passed = 0;
    std::uint64_t total = 0;
    for (const model::TestCase& test : *run.tests) {
      if (!is_check(test.name, test.labels)) continue;
      ++total;
      if (test.status == model::TestStatus::passed) ++passed;
    }
    outcome.passed = passed;
    outcome.total = total;
  } else if (!run.test_definitions.empty()) {
    std::uint64_t total = 0;
    for (const model::TestDefinition& definition : run.test_definitions) {
      if (is_check(definition.name, definition.labels)) ++total;
    }
    outcome.total = total;
  }
  return outcome;
}

ObjectiveCounts resolve_objective(const CheckOutcome& outcome,
                                  std::optional<std::uint64_t> reference_total) {
  const std::uint64_t known_total = outcome.total.value_or(reference_total.value_or(0));
  if (outcome.build_failed) return {0, std::max<std::uint64_t>(1, known_total)};
  if (!outcome.passed) return {0, known_total};
  return {*outcome.passed, outcome.total.value_or(*outcome.passed)};
}

double objective_score(const ObjectiveCounts& counts) { return exact_objective_score(counts).to_double(); }

util::Exact exact_objective_score(const ObjectiveCounts& counts) {
  if (counts.total == 0) return 1;
  return util::Exact::ratio(counts.passed, counts.total);
}

CostAdjustment cost_adjustment(const model::AgentMetrics& candidate,
                               const model::AgentMetrics& reference, double cost_weight) {
  struct Signal {
    const char* name;
    std::optional<double> model::AgentMetrics::*field;
  };
  static constexpr Signal signals[] = {
      {"cost_usd", &model::AgentMetrics::cost_usd},
      {"tokens", &model::AgentMetrics::tokens},
      {"tool_calls", &model::AgentMetrics::tool_calls},
      {"steps", &model::AgentMetrics::steps},
      {"wall_clock_ms", &model::AgentMetrics::wall_clock_ms},
  };

  CostAdjustment result;
  util::Exact ratio_sum;
  bool finite = std::isfinite(cost_weight);
  for (const Signal& signal : signals) {
    const std::optional<double>& candidate_value = candidate.*signal.field;
    const std::optional<double>& reference_value = reference.*signal.field;
    if (!candidate_value || !reference_value) continue;
    result.signals.emplace_back(signal.name);
    if (!std::isfinite(*candidate_value) || !std::isfinite(*reference_value)) {
      finite = false;
      continue;
    }
    const util::Exact candidate_used = *candidate_value;
    const util::Exact reference_used = *reference_value;
    if (reference_used.sign() == 0) {
      ratio_sum += candidate_used.sign() > 0 ? 2 : 1;
    } else {
      ratio_sum += candidate_used / reference_used;
    }
  }
  if (result.signals.empty()) return result;
  if (!finite) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    result.average_ratio = result.savings = result.adjustment = nan;
    result.exact_adjustment.reset();
    return result;
  }
  const util::Exact average = ratio_sum / result.signals.size();
  const util::Exact savings = util::clamp(1 - average, -1, 1);
  result.exact_adjustment = savings * cost_weight;
  result.average_ratio = average.to_double();
  result.savings = savings.to_double();
  result.adjustment = result.exact_adjustment->to_double();
  return result;
}

Composite composite(const ObjectiveCounts& objective, std::optional<double> judge01,
                    const CostAdjustment& cost, const EvalSettings& settings) {
  Composite result;
  result.objective = objective;
  result.objective01 = objective_score(objective);
  result.judge01 = judge01;
  result.cost_adjustment = cost.adjustment;
  const bool finite = (!judge01 || std::isfinite(*judge01)) && cost.exact_adjustment &&
                      std::isfinite(settings.objective_weight) && std::isfinite(settings.judge_weight);
  if (!finite) {
    // Not hidden: a non-finite input makes the composite NaN (a hard regression).
    const double judge_weight_effective = judge01 ? settings.judge_weight : 0.0;
    const double judge_term = judge01 ? settings.judge_weight * *judge01 : 0.0;
    result.base = (settings.objective_weight * result.objective01 + judge_term) /
                  (settings.objective_weight + judge_weight_effective);
    result.composite = std::numeric_limits<double>::quiet_NaN();
    return result;
  }
  const util::Exact objective_weight = settings.objective_weight;
  const util::Exact judge_weight = judge01 ? util::Exact(settings.judge_weight) : util::Exact(0);
  const util::Exact judge_term = judge01 ? judge_weight * *judge01 : util::Exact(0);
  const util::Exact base =
      (objective_weight * exact_objective_score(objective) + judge_term) / (objective_weight + judge_weight);
  result.exact = util::clamp(base + *cost.exact_adjustment, 0, 1);
  result.base = base.to_double();
  result.composite = result.exact->to_double();
  return result;
}

Composite composite(const ObjectiveCounts& objective, std::optional<double> judge01,
                    double cost_adjustment, const EvalSettings& settings) {
  CostAdjustment cost;
  cost.adjustment = cost_adjustment;
  if (std::isfinite(cost_adjustment)) cost.exact_adjustment = cost_adjustment;
  else cost.exact_adjustment.reset();
  return composite(objective, judge01, cost, settings);
}

}  // namespace hydra::eval
