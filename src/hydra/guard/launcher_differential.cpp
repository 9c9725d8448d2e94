// The launcher differential judged (launcher_differential.hpp).
#include <hydra/guard/launcher_differential.hpp>

#include <set>

namespace hydra::guard {

using nlohmann::json;

namespace {

void read_record(const json& record, const std::string& run, std::vector<PlainResult>& results) {
  if (!record.is_object() || !record.contains("tests") || !record["tests"].is_array()) return;
  for (const auto& entry : record["tests"]) {
    if (!entry.is_object() || !entry.value("test", json()).is_string() || !entry.value("plain", json()).is_string())
      continue;
    const json runs = entry.value("plain_runs", json(0));
    results.push_back({run, entry["test"].get<std::string>(), entry["plain"].get<std::string>(),
                       runs.is_number_integer() ? runs.get<int>() : 0});
  }
}

}  // namespace

std::vector<PlainResult> plain_results(const json& manifest, bool& judged) {
  std::vector<PlainResult> results;
  judged = manifest.is_object() && manifest.contains("launcher_differential") &&
           manifest["launcher_differential"].is_object();
  if (judged) read_record(manifest["launcher_differential"], "candidate", results);
  if (manifest.is_object() && manifest.contains("held_out") && manifest["held_out"].is_object()) {
    const json& held = manifest["held_out"];
    if (held.contains("run") && held["run"].is_object() && held["run"].contains("launcher_differential"))
      read_record(held["run"]["launcher_differential"], "held-out", results);
  }
  return results;
}

DifferentialJudgement judge_launcher_differential(const std::vector<PlainResult>& results, bool judged,
                                                  std::vector<model::TestCase>& tests) {
  DifferentialJudgement judgement;
  judgement.judged = judged;
  json ran = json::array(), differing = json::array();
  std::set<std::string> failing;
  for (const auto& result : results) {
    ran.push_back({{"run", result.run}, {"test", result.test}, {"plain", result.plain}, {"plain_runs", result.plain_runs}});
    if (result.plain != "failed" && result.plain != "timed out") continue;
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
  return judgement;
}

}  // namespace hydra::guard
