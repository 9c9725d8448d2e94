// The configure differential judged (configure_differential.hpp).
#include <hydra/guard/configure_differential.hpp>

#include <set>
#include <string>

namespace hydra::guard {

using nlohmann::json;

std::optional<std::string> failed_plain_configure(
    const std::optional<std::vector<model::ConfigureDifference>>& differences) {
  if (!differences) return std::nullopt;
  for (const auto& difference : *differences)
    if (difference.key == kFailedConfigureKey) return difference.detail;
  return std::nullopt;
}

ConfigureJudgement judge_configure_differential(
    const std::optional<std::vector<model::ConfigureDifference>>& baseline,
    const std::optional<std::vector<model::ConfigureDifference>>& candidate) {
  ConfigureJudgement judgement;
  judgement.judged = baseline.has_value() && candidate.has_value();
  // The baseline's plain configure failed and the candidate's too: nothing
  // was compared on either side, so nothing can be told apart.
  const auto baseline_failed = failed_plain_configure(baseline);
  if (judgement.judged && baseline_failed && failed_plain_configure(candidate)) {
    judgement.judged = false;
    judgement.not_judged = "the baseline's plain configure failed, and the candidate's too: " + *baseline_failed;
    judgement.evidence = {{"judged", false}, {"not_judged", judgement.not_judged}};
    return judgement;
  }
  json differing = json::array(), excused = json::array();
  if (judgement.judged) {
    std::set<std::string> baselines;
    for (const auto& difference : *baseline) baselines.insert(difference.key);
    for (const auto& difference : *candidate) {
      const json entry = {{"key", difference.key}, {"detail", difference.detail}};
      if (baselines.count(difference.key)) {
        excused.push_back(entry);
        continue;
      }
      differing.push_back(entry);
      judgement.own.push_back(difference);
    }
  }
  judgement.evidence = {{"judged", judgement.judged}, {"differing", std::move(differing)}};
  if (!excused.empty()) judgement.evidence["excused"] = std::move(excused);
  return judgement;
}

}  // namespace hydra::guard
