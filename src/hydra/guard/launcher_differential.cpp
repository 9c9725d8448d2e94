// The launcher differential judged (launcher_differential.hpp).
#include <hydra/guard/launcher_differential.hpp>

#include <set>

namespace hydra::guard {

using nlohmann::json;

std::vector<PlainResult> plain_results(const model::Run& candidate, bool& judged) {
  judged = candidate.records.launcher_differential.has_value();
  std::vector<PlainResult> results = candidate.records.launcher_differential.value_or(std::vector<PlainResult>{});
  results.insert(results.end(), candidate.records.held_out_launcher_differential.begin(),
                 candidate.records.held_out_launcher_differential.end());
  return results;
}

namespace {
bool failed_plain(const PlainResult& result) { return result.plain == "failed" || result.plain == "timed out"; }
}  // namespace

std::set<std::string> failing_plain(const model::Run& baseline) {
  std::set<std::string> failing;
  if (baseline.records.launcher_differential)
    for (const auto& result : *baseline.records.launcher_differential)
      if (failed_plain(result)) failing.insert(result.test);
  return failing;
}

DifferentialJudgement judge_launcher_differential(const std::vector<PlainResult>& results, bool judged,
                                                  const std::set<std::string>& excused,
                                                  std::vector<model::TestCase>& tests) {
  DifferentialJudgement judgement;
  judgement.judged = judged;
  json ran = json::array(), differing = json::array(), forgiven = json::array();
  std::set<std::string> failing;
  for (const auto& result : results) {
    ran.push_back({{"run", result.run}, {"test", result.test}, {"plain", result.plain}, {"plain_runs", result.plain_runs}});
    if (!failed_plain(result)) continue;
    if (excused.count(result.test)) {
      forgiven.push_back({{"run", result.run}, {"test", result.test}, {"judged", "passed"}, {"plain", result.plain},
                          {"baseline_plain", "failed"}});
      continue;
    }
    judgement.differing.push_back(result);
    differing.push_back({{"run", result.run}, {"test", result.test}, {"judged", "passed"}, {"plain", result.plain}});
    failing.insert(result.test);
  }
  for (auto& test : tests) {
    const std::string& name = test.program.empty() ? test.name : test.program;
    if (test.status != model::TestStatus::passed || !failing.count(name)) continue;
    test.status = model::TestStatus::failed;
    test.message = "launcher differential: passed under HydraScore's test launcher, failed when run without it";
  }
  judgement.evidence = {{"judged", judged}, {"ran_plain", std::move(ran)}, {"differing", std::move(differing)}};
  if (!forgiven.empty()) judgement.evidence["excused"] = std::move(forgiven);
  return judgement;
}

CaughtJudgement judge_caught_tampering(const model::Run& baseline, const model::Run& candidate) {
  CaughtJudgement judgement;
  std::set<std::string> in_baseline;
  for (const auto& caught : baseline.records.tampering_caught) in_baseline.insert(caught.test);
  for (const auto& caught : candidate.records.tampering_caught) {
    const bool baselines = in_baseline.count(caught.test) > 0;
    judgement.evidence.push_back({{"run", caught.run},
                                  {"test", caught.test},
                                  {"message", caught.message},
                                  {"in_baseline", baselines}});
    if (!baselines) judgement.own.push_back(caught);
  }
  return judgement;
}

}  // namespace hydra::guard
