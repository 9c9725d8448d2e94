#include <hydra/loop/evaluation.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace hydra::loop {

std::vector<EvalCase> eval_cases(const std::vector<model::TestCase>& tests) {
  const bool by_label = std::any_of(tests.begin(), tests.end(),
                                    [](const model::TestCase& test) { return !test.labels.empty(); });
  std::map<std::string, EvalCase> cases;
  for (const auto& test : tests) {
    if (test.status == model::TestStatus::disabled) continue;
    std::set<std::string> names;
    if (!by_label) names.insert(test.suite);
    else if (test.labels.empty()) names.insert("(unlabelled)");
    else names.insert(test.labels.begin(), test.labels.end());
    for (const auto& name : names) {
      EvalCase& eval_case = cases[name];
      eval_case.name = name;
      ++eval_case.total;
      if (test.status == model::TestStatus::passed) ++eval_case.passed;
    }
  }
  std::vector<EvalCase> result;
  for (auto& [name, eval_case] : cases) result.push_back(eval_case);
  return result;
}

util::Exact mean_pass_rate(const std::vector<EvalCase>& cases) {
  if (cases.empty()) return 0;
  util::Exact sum;
  for (const auto& eval_case : cases) sum += eval_case.exact_pass_rate();
  return sum / cases.size();
}

bool is_kept(const util::Exact& score, const util::Exact& best_score) { return score > best_score; }

std::string_view to_string(Action action) noexcept {
  switch (action) {
    case Action::baseline: return "baseline";
    case Action::keep: return "keep";
    case Action::revert: return "revert";
  }
  return "revert";
}

std::optional<Action> action_from_string(std::string_view text) noexcept {
  if (text == "baseline") return Action::baseline;
  if (text == "keep") return Action::keep;
  if (text == "revert") return Action::revert;
  return std::nullopt;
}

int trailing_reverts(const std::vector<Iteration>& iterations) {
  int count = 0;
  for (auto it = iterations.rbegin(); it != iterations.rend() && it->action == Action::revert; ++it) ++count;
  return count;
}

std::optional<std::string> stop_reason(const std::vector<Iteration>& iterations, int max_iterations,
                                       int stuck_after) {
  if (iterations.empty()) return std::nullopt;
  if (iterations.back().best_score >= 1) return "converged";
  if (trailing_reverts(iterations) >= stuck_after) return "stuck";
  if (iterations.back().number >= max_iterations)
    return iterations.back().action == Action::keep ? "improved" : "plateau";
  return std::nullopt;
}

namespace {

std::string fixed(const util::Exact& value, int decimals) { return value.fixed(decimals); }

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string one_line(std::string text) {
  for (char& character : text)
    if (character == '\t' || character == '\n' || character == '\r') character = ' ';
  return text;
}

}  // namespace

std::string results_tsv(const std::vector<Iteration>& iterations) {
  std::string out = "iteration\ttimestamp\tscore\tbest_score\taction\tchangelog\n";
  for (const auto& iteration : iterations) {
    out += std::to_string(iteration.number) + "\t" + iteration.timestamp + "\t" + fixed(iteration.score, 6) +
           "\t" + fixed(iteration.best_score, 6) + "\t" + std::string(to_string(iteration.action)) + "\t" +
           one_line(iteration.changelog) + "\n";
  }
  return out;
}

nlohmann::json loop_report(const std::string& classification, const std::vector<Iteration>& iterations,
                           const std::vector<EvalCase>& best_cases, std::string_view metric,
                           int best_iteration) {
  nlohmann::json report = {{"schema", report_schema},
                           {"classification", classification},
                           {"metric", std::string(metric)},
                           {"best_iteration", best_iteration},
                           {"best_score", iterations.empty() ? 0.0 : iterations.back().best_score.to_double()},
                           {"iterations", nlohmann::json::array()},
                           {"cases", nlohmann::json::array()},
                           {"noise_note", noise_note}};
  int kept = 0;
  int reverted = 0;
  for (const auto& iteration : iterations) {
    if (iteration.action == Action::keep) ++kept;
    if (iteration.action == Action::revert) ++reverted;
    report["iterations"].push_back({{"iteration", iteration.number},
                                    {"timestamp", iteration.timestamp},
                                    {"score", iteration.score.to_double()},
                                    {"best_score", iteration.best_score.to_double()},
                                    {"action", std::string(to_string(iteration.action))},
                                    {"changelog", iteration.changelog}});
  }
  report["kept"] = kept;
  report["reverted"] = reverted;
  for (const auto& eval_case : best_cases)
    report["cases"].push_back({{"name", eval_case.name},
                               {"passed", eval_case.passed},
                               {"total", eval_case.total},
                               {"pass_rate", eval_case.pass_rate()}});
  return report;
}

std::string render_summary(const nlohmann::json& report) {
  std::string out = "Loop: " + report.value("classification", std::string("unknown")) + ", best score " +
                    fixed(report.value("best_score", 0.0), 3) + " (iteration " +
                    std::to_string(report.value("best_iteration", 0)) + "), " +
                    std::to_string(report.value("kept", 0)) + " kept, " +
                    std::to_string(report.value("reverted", 0)) + " reverted\n";
  out += "  iter  score  best   action    changelog\n";
  for (const auto& iteration : report.value("iterations", nlohmann::json::array())) {
    char line[96];
    std::snprintf(line, sizeof line, "  %4d  %.3f  %.3f  %-8s  ", iteration.value("iteration", 0),
                  iteration.value("score", 0.0), iteration.value("best_score", 0.0),
                  iteration.value("action", std::string("-")).c_str());
    out += line + one_line(iteration.value("changelog", std::string())) + "\n";
  }
  out += "Eval cases of the best state:\n";
  for (const auto& eval_case : report.value("cases", nlohmann::json::array())) {
    out += "  " + eval_case.value("name", std::string()) + ": " + std::to_string(eval_case.value("passed", 0)) +
           "/" + std::to_string(eval_case.value("total", 0)) + " (" + fixed(eval_case.value("pass_rate", 0.0), 3) +
           ")\n";
  }
  out += std::string(report.value("noise_note", std::string(noise_note))) + "\n";
  return out;
}

}  // namespace hydra::loop
