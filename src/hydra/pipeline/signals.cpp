#include <hydra/pipeline/signals.hpp>

#include <algorithm>
#include <map>
#include <string>

#include <hydra/parse/test_attempts.hpp>

namespace hydra::pipeline {
using nlohmann::json;

namespace {

/// Counts of `tests` by status, their total and (when any) the flaky ones.
json test_summary(const std::vector<model::TestCase>& tests) {
  std::map<std::string, int> by_status;
  for (auto status : {model::TestStatus::passed, model::TestStatus::failed, model::TestStatus::error,
                      model::TestStatus::skipped, model::TestStatus::disabled})
    by_status[std::string(model::to_string(status))] = 0;
  for (const auto& test : tests) ++by_status[std::string(model::to_string(test.status))];
  json summary = by_status;
  summary["total"] = tests.size();
  // Tests that failed and passed on this code (only when there are any,
  // so runs without reruns keep their summary).
  const auto flaky = std::count_if(tests.begin(), tests.end(), parse::is_flaky);
  if (flaky > 0) summary["flaky"] = flaky;
  return summary;
}

}  // namespace

json signals_json(const model::Run& run) {
  json out = json::object();
  out["agent"] = run.agent;
  out["build"] = run.build.known
                     ? json{{"known", true},
                            {"passed", run.build.passed},
                            {"exit_code", run.build.exit_code},
                            {"timed_out", run.build.timed_out},
                            {"seconds", run.build.seconds}}
                     : json{{"known", false}};
  if (run.tests) {
    out["tests"] = test_summary(*run.tests);
    // Framework programs (docs/run-directory.md, "Framework reports"): the
    // tests above count their cases; the same tests at program level.
    if (run.program_tests) out["program_tests"] = test_summary(*run.program_tests);
    if (!run.test_programs.empty()) {
      json programs = json::array();
      for (const auto& program : run.test_programs) {
        json entry = {{"test", program.test},          {"framework", program.framework},
                      {"report", program.report},      {"cases", program.cases},
                      {"failed_cases", program.failed_cases}, {"exit_passed", program.exit_passed}};
        if (!program.detail.empty()) entry["detail"] = program.detail;
        programs.push_back(std::move(entry));
      }
      out["test_programs"] = std::move(programs);
    }
  } else {
    out["tests"] = nullptr;
  }
  if (run.lint) {
    std::map<std::string, int> by_tool;
    int errors = 0, warnings = 0;
    for (const auto& finding : *run.lint) {
      ++by_tool[std::string(finding.tool())];
      (finding.severity() == model::Severity::error ? errors : warnings) += 1;
    }
    out["lint"] = {{"errors", errors}, {"warnings", warnings}, {"by_tool", by_tool}};
  } else {
    out["lint"] = {{"inactive_reason", run.lint_inactive_reason}};
  }
  if (run.diff) {
    out["diff"] = {{"files_touched", run.diff->files_touched()},
                   {"files_created", run.diff->files_created()},
                   {"lines_added", run.diff->lines_added()},
                   {"lines_removed", run.diff->lines_removed()},
                   {"whitespace_only_churn", run.diff->whitespace_only_churn()}};
  } else {
    out["diff"] = nullptr;
  }
  json metrics = json::object();
  auto put = [&](const char* key, const std::optional<double>& value) {
    if (value) metrics[key] = *value;
  };
  put("tokens", run.metrics.tokens);
  put("input_tokens", run.metrics.input_tokens);
  put("output_tokens", run.metrics.output_tokens);
  put("cost_usd", run.metrics.cost_usd);
  put("tool_calls", run.metrics.tool_calls);
  put("steps", run.metrics.steps);
  put("wall_clock_ms", run.metrics.wall_clock_ms);
  put("duration_seconds", run.metrics.duration_seconds);
  out["metrics"] = metrics;
  out["security"] = {{"ran", run.security.ran}, {"passed", run.security.passed}, {"detail", run.security.detail}};
  out["integrity_problems"] = run.integrity_problems;
  if (!run.input_notes.empty()) out["input_notes"] = run.input_notes;
  return out;
}

}  // namespace hydra::pipeline
