#include <hydra/eval/composite.hpp>

#include <algorithm>
#include <cmath>

#include <hydra/error.hpp>
#include <hydra/util/regex.hpp>

namespace hydra::eval {
namespace {

/// `value` clamped to [low, high]; NaN stays NaN (std::clamp's comparisons are false for it).
double clamp_keep_nan(double value, double low, double high) {
  if (std::isnan(value)) return value;
  return std::clamp(value, low, high);
}

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

double objective_score(const ObjectiveCounts& counts) {
  if (counts.total == 0) return 1.0;
  return static_cast<double>(counts.passed) / static_cast<double>(counts.total);
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
  double ratio_sum = 0.0;
  for (const Signal& signal : signals) {
    const std::optional<double>& candidate_value = candidate.*signal.field;
    const std::optional<double>& reference_value = reference.*signal.field;
    if (!candidate_value || !reference_value) continue;
    double ratio = 0.0;
    if (*reference_value == 0.0) {
      ratio = *candidate_value > 0.0 ? 2.0 : (std::isnan(*candidate_value) ? *candidate_value : 1.0);
    } else {
      ratio = *candidate_value / *reference_value;
    }
    ratio_sum += ratio;
    result.signals.emplace_back(signal.name);
  }
  if (result.signals.empty()) return result;
  result.average_ratio = ratio_sum / static_cast<double>(result.signals.size());
  result.savings = clamp_keep_nan(1.0 - result.average_ratio, -1.0, 1.0);
  result.adjustment = result.savings * cost_weight;
  return result;
}

Composite composite(const ObjectiveCounts& objective, std::optional<double> judge01,
                    double cost_adjustment, const EvalSettings& settings) {
  Composite result;
  result.objective = objective;
  result.objective01 = objective_score(objective);
  result.judge01 = judge01;
  const double judge_weight_effective = judge01 ? settings.judge_weight : 0.0;
  const double judge_term = judge01 ? settings.judge_weight * *judge01 : 0.0;
  result.base = (settings.objective_weight * result.objective01 + judge_term) /
                (settings.objective_weight + judge_weight_effective);
  result.cost_adjustment = cost_adjustment;
  result.composite = clamp_keep_nan(result.base + cost_adjustment, 0.0, 1.0);
  return result;
}

}  // namespace hydra::eval
