#include <hydra/report/compare.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include <hydra/report/text.hpp>
#include <hydra/version.hpp>

namespace hydra::report {
using eval::Comparison;
using eval::HardRegression;
using eval::Pairing;
using eval::TaskComparison;
using eval::TaskScore;

namespace {

using nlohmann::json;

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json optional_number(const std::optional<double>& value) {
  return value ? number(*value) : json(nullptr);
}

json score_json(const std::optional<TaskScore>& score) {
  if (!score) return nullptr;
  const eval::Composite& composite = score->composite;
  json judge = nullptr;
  if (composite.judge01) {
    judge = {{"score0to1", number(*composite.judge01)}, {"rationale", score->judge_rationale}};
  } else if (!score->judge_failure.empty()) {
    judge = {{"score0to1", nullptr}, {"failure", score->judge_failure}};
  }
  return {
      {"source", score->source},
      {"objective", {{"passed", composite.objective.passed},
                     {"total", composite.objective.total},
                     {"score01", number(composite.objective01)}}},
      {"judge", judge},
      {"cost", {{"signals", score->cost.signals},
                {"average_ratio", score->cost.signals.empty() ? json(nullptr) : number(score->cost.average_ratio)},
                {"savings", number(score->cost.savings)},
                {"adjustment", number(composite.cost_adjustment)}}},
      {"base", number(composite.base)},
      {"composite", number(composite.composite)},
  };
}

/// Fixed 6-decimal text with trailing zeros kept ("0.050000"); "n/a" when absent, "NaN" when not finite.
std::string fixed(const std::optional<double>& value, bool with_sign = false) {
  if (!value) return "n/a";
  if (!std::isfinite(*value)) return "NaN";
  std::ostringstream text;
  if (with_sign) text << std::showpos;
  text << std::fixed << std::setprecision(6) << *value;
  return text.str();
}

std::string objective_text(const std::optional<TaskScore>& score) {
  if (!score) return "-";
  return std::to_string(score->composite.objective.passed) + "/" +
         std::to_string(score->composite.objective.total);
}

std::optional<double> composite_of(const std::optional<TaskScore>& score) {
  if (!score) return std::nullopt;
  return score->composite.composite;
}

std::string status_of(const TaskComparison& task) {
  if (!task.regressions.empty()) return "REGRESSION";
  if (task.pairing == Pairing::added) return "added";
  return "ok";
}

std::string verdict_line(const Comparison& comparison) {
  return "verdict: " + std::string(to_string(comparison.verdict)) +
         " (sum of composite deltas " + fixed(comparison.composite_delta_sum, true) +
         ", min_composite_gain " + fixed(comparison.thresholds.min_composite_gain) + ", " +
         std::to_string(comparison.hard_regressions.size()) + " hard regression" +
         (comparison.hard_regressions.size() == 1 ? "" : "s") + "); promote: " +
         (comparison.promote ? "yes" : "no");
}

}  // namespace

json to_json(const Comparison& comparison, int exit_code) {
  json tasks = json::array();
  for (const TaskComparison& task : comparison.tasks) {
    json deltas = nullptr;
    if (task.pairing == Pairing::paired) {
      deltas = {{"composite", optional_number(task.composite_delta)},
                {"objective", optional_number(task.objective_delta)},
                {"passed", task.passed_delta ? json(*task.passed_delta) : json(nullptr)},
                {"judge", optional_number(task.judge_delta)},
                {"cost_adjustment", optional_number(task.cost_adjustment_delta)}};
    }
    tasks.push_back({{"id", task.id},
                     {"pairing", std::string(to_string(task.pairing))},
                     {"reference", score_json(task.reference)},
                     {"candidate", score_json(task.candidate)},
                     {"deltas", deltas},
                     {"regressions", task.regressions}});
  }
  json hard_regressions = json::array();
  for (const HardRegression& regression : comparison.hard_regressions)
    hard_regressions.push_back({{"task", regression.task}, {"reason", regression.reason}});

  const eval::EvalSettings& eval = comparison.eval;
  return {
      {"schema", compare_output_schema},
      {"engine_version", engine_version},
      {"reference", comparison.reference_source},
      {"candidate", comparison.candidate_source},
      {"thresholds", {{"min_composite_gain", number(comparison.thresholds.min_composite_gain)},
                      {"regression_composite_drop", number(comparison.thresholds.regression_composite_drop)},
                      {"objective_drop_is_regression", comparison.thresholds.objective_drop_is_regression}}},
      {"eval", {{"w_obj", number(eval.objective_weight)},
                {"w_judge", number(eval.judge_weight)},
                {"cost_weight", number(eval.cost_weight)},
                {"check_labels", eval.check_labels},
                {"check_regex", eval.check_regex}}},
      {"tasks", tasks},
      {"composite_delta_sum", number(comparison.composite_delta_sum)},
      {"hard_regressions", hard_regressions},
      {"added_tasks", comparison.added_tasks},
      {"verdict", std::string(to_string(comparison.verdict))},
      {"promote", comparison.promote},
      {"exit_code", exit_code},
  };
}

std::string render_table(const Comparison& comparison) {
  const std::vector<std::string> header = {"task", "reference", "candidate", "delta", "objective", "status"};
  std::vector<std::vector<std::string>> rows;
  for (const TaskComparison& task : comparison.tasks) {
    rows.push_back({sanitize_terminal(task.id), fixed(composite_of(task.reference)), fixed(composite_of(task.candidate)),
                    task.composite_delta ? fixed(task.composite_delta, true) : std::string("-"),
                    objective_text(task.reference) + " -> " + objective_text(task.candidate),
                    status_of(task)});
  }
  std::vector<std::size_t> widths(header.size());
  for (std::size_t column = 0; column < header.size(); ++column) {
    widths[column] = header[column].size();
    for (const auto& row : rows) widths[column] = std::max(widths[column], display_width(row[column]));
  }
  std::ostringstream out;
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column) {
      std::string cell = row[column];
      if (column + 1 < row.size()) cell += std::string(widths[column] - display_width(cell), ' ');
      line += (column == 0 ? "" : "  ") + cell;
    }
    out << line << "\n";
  };
  print_row(header);
  std::size_t total_width = header.size() * 2 - 2;
  for (std::size_t width : widths) total_width += width;
  out << std::string(total_width, '-') << "\n";
  for (const auto& row : rows) print_row(row);
  for (const HardRegression& regression : comparison.hard_regressions)
    out << "hard regression: " << sanitize_terminal(regression.task) << ": " << sanitize_terminal(regression.reason) << "\n";
  if (!comparison.added_tasks.empty()) {
    out << "added tasks (not in the reference):";
    for (const std::string& id : comparison.added_tasks) out << " " << sanitize_terminal(id);
    out << "\n";
  }
  out << verdict_line(comparison) << "\n";
  return out.str();
}

std::string render_markdown(const Comparison& comparison) {
  const auto escape = [](const std::string& text) { return escape_markdown(text); };
  std::ostringstream out;
  out << "# HydraScore compare: " << to_string(comparison.verdict) << "\n\n";
  out << "- Reference: " << escape(comparison.reference_source) << "\n";
  out << "- Candidate: " << escape(comparison.candidate_source) << "\n";
  out << "- Sum of composite deltas: " << fixed(comparison.composite_delta_sum, true)
      << " (min_composite_gain " << fixed(comparison.thresholds.min_composite_gain)
      << ", regression_composite_drop " << fixed(comparison.thresholds.regression_composite_drop)
      << ", objective_drop_is_regression "
      << (comparison.thresholds.objective_drop_is_regression ? "true" : "false") << ")\n";
  out << "- Promote: **" << (comparison.promote ? "yes" : "no") << "**\n\n";
  out << "| Task | Reference | Candidate | Delta | Objective | Judge delta | Status |\n";
  out << "|---|---:|---:|---:|---|---:|---|\n";
  for (const TaskComparison& task : comparison.tasks) {
    out << "| " << escape(task.id) << " | " << fixed(composite_of(task.reference)) << " | "
        << fixed(composite_of(task.candidate)) << " | "
        << (task.composite_delta ? fixed(task.composite_delta, true) : std::string("-")) << " | "
        << objective_text(task.reference) << " → " << objective_text(task.candidate) << " | "
        << (task.judge_delta ? fixed(task.judge_delta, true) : std::string("-")) << " | "
        << status_of(task) << " |\n";
  }
  out << "\n";
  if (!comparison.hard_regressions.empty()) {
    out << "## Hard regressions\n\n";
    for (const HardRegression& regression : comparison.hard_regressions)
      out << "- " << escape(regression.task) << ": " << escape(regression.reason) << "\n";
    out << "\n";
  }
  if (!comparison.added_tasks.empty()) {
    out << "## Added tasks\n\nIn the candidate only (listed, not counted in the sum):";
    for (const std::string& id : comparison.added_tasks) out << " " << escape(id);
    out << "\n\n";
  }
  return out.str();
}

}  // namespace hydra::report
