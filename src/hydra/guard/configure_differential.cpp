// The configure differential judged (configure_differential.hpp).
#include <hydra/guard/configure_differential.hpp>

#include <set>
#include <string>

namespace hydra::guard {

using nlohmann::json;

ConfigureJudgement judge_configure_differential(
    const std::optional<std::vector<model::ConfigureDifference>>& baseline,
    const std::optional<std::vector<model::ConfigureDifference>>& candidate) {
  ConfigureJudgement judgement;
  judgement.judged = baseline.has_value() && candidate.has_value();
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
