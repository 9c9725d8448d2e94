// Reports of the improvement loop (schema "hydra-score/loop/1"): the score
// trajectory with kept/reverted iterations, the eval cases and the summary.
#include <hydra/report/report.hpp>

#include <hydra/error.hpp>
#include <hydra/report/alerts.hpp>
#include <hydra/report/contract.hpp>
#include <hydra/report/html_page.hpp>
#include <hydra/report/text.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace hydra::report {

namespace {

/// Loop scores are mean pass rates in 0..1; three decimals tell them apart.
constexpr int score_decimals = 3;

struct IterationView {
  std::string label;  ///< the iteration number as text
  std::optional<double> score;
  std::optional<double> best_score;
  std::string action;  ///< "baseline", "keep", "revert" or what the report says
  std::string changelog;
};

struct CaseView {
  std::string name;
  std::optional<double> passed;
  std::optional<double> total;
  std::optional<double> pass_rate;
};

struct LoopView {
  std::string classification;
  std::optional<double> best_score;
  std::optional<double> kept;
  std::optional<double> reverted;
  std::string noise_note;
  std::vector<IterationView> iterations;
  std::vector<CaseView> cases;
  std::vector<std::string> alerts;  ///< iterations whose code ran unconfined or with network
};

LoopView read_loop(const nlohmann::json& report) {
  if (!report.is_object()) throw Error("the loop report is not a JSON object");
  LoopView view;
  view.classification = text_at(report, "classification", "unknown");
  view.best_score = number_at(report, "best_score");
  view.kept = number_at(report, "kept");
  view.reverted = number_at(report, "reverted");
  view.noise_note = text_at(report, "noise_note");
  for (const auto& line : array_at(report, "alerts"))
    if (line.is_string()) view.alerts.push_back(line.get<std::string>());
  std::size_t position = 0;
  for (const auto& iteration : array_at(report, "iterations")) {
    IterationView item;
    const auto number = number_at(iteration, "iteration");
    item.label = number ? format_number(*number, 0) : std::to_string(position);
    item.score = number_at(iteration, "score");
    item.best_score = number_at(iteration, "best_score");
    item.action = text_at(iteration, "action", "-");
    item.changelog = text_at(iteration, "changelog");
    view.iterations.push_back(std::move(item));
    ++position;
  }
  for (const auto& eval_case : array_at(report, "cases")) {
    CaseView item;
    item.name = text_at(eval_case, "name", "(unnamed)");
    item.passed = number_at(eval_case, "passed");
    item.total = number_at(eval_case, "total");
    item.pass_rate = number_at(eval_case, "pass_rate");
    view.cases.push_back(std::move(item));
  }
  return view;
}

std::string classification_title(const std::string& classification) {
  if (classification == "converged") return "Converged";
  if (classification == "stuck") return "Stuck";
  if (classification == "plateau") return "Plateau";
  if (classification == "improved") return "Improved";
  return classification;
}

/// What the classification means (docs/loop.md).
std::string classification_meaning(const std::string& classification) {
  if (classification == "converged") return "The best score reached 1.0: every expectation passes in every eval case.";
  if (classification == "stuck") {
    return "Three consecutive reverts: the improver could not find a better approach with its current instructions "
           "and eval signal.";
  }
  if (classification == "plateau") {
    return "The best score stopped rising: changes were tried, but none beat the current best.";
  }
  if (classification == "improved") return "Most iterations were kept and the score rose.";
  return "";
}

std::string score_text(const std::optional<double>& score) {
  return score ? format_number(*score, score_decimals) : "-";
}

std::string count_text(const std::optional<double>& count) { return count ? format_number(*count, 0) : "-"; }

std::string summary_sentence(const LoopView& view) {
  std::string text = "best score " + score_text(view.best_score);
  text += " · " + count_text(view.kept) + " kept, " + count_text(view.reverted) + " reverted";
  text += " · " + std::to_string(view.iterations.size()) + " iterations";
  return text;
}

std::string px(double value) { return format_number(value, 1); }

/// Line chart: score per iteration (markers by action) and the best score so far (dashed step line).
std::string trajectory_chart(const LoopView& view) {
  constexpr double width = 760;
  constexpr double height = 330;
  constexpr double left = 56;
  constexpr double right = 24;
  constexpr double top = 40;
  constexpr double bottom = 46;
  const double plot_width = width - left - right;
  const double plot_height = height - top - bottom;
  double y_max = 1.0;
  for (const auto& iteration : view.iterations) {
    if (iteration.score) y_max = std::max(y_max, *iteration.score);
    if (iteration.best_score) y_max = std::max(y_max, *iteration.best_score);
  }
  y_max = std::ceil(y_max * 4.0) / 4.0;
  const std::size_t count = view.iterations.size();
  const auto x_of = [&](std::size_t index) {
    return count <= 1 ? left + plot_width / 2 : left + plot_width * static_cast<double>(index) / static_cast<double>(count - 1);
  };
  const auto y_of = [&](double value) { return top + plot_height * (1.0 - std::clamp(value, 0.0, y_max) / y_max); };

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"Score and best score per "
                    "iteration\" width=\"" + px(width) + "\" height=\"" + px(height) + "\" viewBox=\"0 0 " + px(width) +
                    " " + px(height) + "\">\n";
  // Grid and y axis labels every 0.25.
  const int quarter_count = static_cast<int>(std::lround(y_max * 4.0));
  for (int quarter = 0; quarter <= quarter_count; ++quarter) {
    const double tick = quarter * 0.25;
    svg += "<line x1=\"" + px(left) + "\" y1=\"" + px(y_of(tick)) + "\" x2=\"" + px(width - right) + "\" y2=\"" +
           px(y_of(tick)) + "\" stroke=\"#d1d9e0\" stroke-width=\"1\"/>\n";
    svg += "<text x=\"" + px(left - 8) + "\" y=\"" + px(y_of(tick) + 4) +
           "\" font-size=\"12\" fill=\"#59636e\" text-anchor=\"end\">" + format_number(tick) + "</text>\n";
  }
  // X axis labels; thinned out so that they never overlap.
  const std::size_t label_step = std::max<std::size_t>(1, (count + 24) / 25);
  for (std::size_t index = 0; index < count; index += label_step) {
    svg += "<text x=\"" + px(x_of(index)) + "\" y=\"" + px(height - bottom + 18) +
           "\" font-size=\"12\" fill=\"#59636e\" text-anchor=\"middle\">" + escape_html(view.iterations[index].label) +
           "</text>\n";
  }
  svg += "<text x=\"" + px(left + plot_width / 2) + "\" y=\"" + px(height - 8) +
         "\" font-size=\"12\" fill=\"#59636e\" text-anchor=\"middle\">iteration</text>\n";

  // Best score so far: a step line.
  std::string best_points;
  std::optional<double> previous_best;
  for (std::size_t index = 0; index < count; ++index) {
    const auto& best = view.iterations[index].best_score;
    if (!best) continue;
    if (previous_best && !best_points.empty()) best_points += px(x_of(index)) + "," + px(y_of(*previous_best)) + " ";
    best_points += px(x_of(index)) + "," + px(y_of(*best)) + " ";
    previous_best = best;
  }
  if (!best_points.empty()) {
    best_points.pop_back();
    svg += "<polyline points=\"" + best_points +
           "\" fill=\"none\" stroke=\"#0969da\" stroke-width=\"2.5\" stroke-dasharray=\"7 4\"/>\n";
  }
  // Score per iteration.
  std::string score_points;
  for (std::size_t index = 0; index < count; ++index) {
    if (const auto& score = view.iterations[index].score) score_points += px(x_of(index)) + "," + px(y_of(*score)) + " ";
  }
  if (!score_points.empty()) {
    score_points.pop_back();
    svg += "<polyline points=\"" + score_points + "\" fill=\"none\" stroke=\"#59636e\" stroke-width=\"1.5\"/>\n";
  }
  for (std::size_t index = 0; index < count; ++index) {
    const auto& iteration = view.iterations[index];
    if (!iteration.score) continue;
    const double x = x_of(index);
    const double y = y_of(*iteration.score);
    svg += "<g><title>iteration " + escape_html(iteration.label) + ": " + score_text(iteration.score) + " (" +
           escape_html(iteration.action) + ")</title>";
    if (iteration.action == "keep") {
      svg += "<circle cx=\"" + px(x) + "\" cy=\"" + px(y) + "\" r=\"6\" fill=\"#2da44e\" stroke=\"#fff\" stroke-width=\"1.5\"/>";
    } else if (iteration.action == "revert") {
      svg += "<path d=\"M" + px(x - 5) + " " + px(y - 5) + " L" + px(x + 5) + " " + px(y + 5) + " M" + px(x - 5) + " " +
             px(y + 5) + " L" + px(x + 5) + " " + px(y - 5) + "\" stroke=\"#cf222e\" stroke-width=\"2.5\"/>";
    } else {
      svg += "<rect x=\"" + px(x - 5) + "\" y=\"" + px(y - 5) + "\" width=\"10\" height=\"10\" fill=\"#59636e\"/>";
    }
    svg += "</g>\n";
  }
  // Legend.
  const double legend_y = 18;
  svg += "<line x1=\"" + px(left) + "\" y1=\"" + px(legend_y) + "\" x2=\"" + px(left + 28) + "\" y2=\"" + px(legend_y) +
         "\" stroke=\"#0969da\" stroke-width=\"2.5\" stroke-dasharray=\"7 4\"/>"
         "<text x=\"" + px(left + 34) + "\" y=\"" + px(legend_y + 4) + "\" font-size=\"12\" fill=\"#1f2328\">best score</text>\n";
  svg += "<line x1=\"" + px(left + 130) + "\" y1=\"" + px(legend_y) + "\" x2=\"" + px(left + 158) + "\" y2=\"" +
         px(legend_y) + "\" stroke=\"#59636e\" stroke-width=\"1.5\"/>"
         "<text x=\"" + px(left + 164) + "\" y=\"" + px(legend_y + 4) + "\" font-size=\"12\" fill=\"#1f2328\">score</text>\n";
  svg += "<circle cx=\"" + px(left + 232) + "\" cy=\"" + px(legend_y) + "\" r=\"6\" fill=\"#2da44e\"/>"
         "<text x=\"" + px(left + 243) + "\" y=\"" + px(legend_y + 4) + "\" font-size=\"12\" fill=\"#1f2328\">kept</text>\n";
  svg += "<path d=\"M" + px(left + 292) + " " + px(legend_y - 5) + " L" + px(left + 302) + " " + px(legend_y + 5) + " M" +
         px(left + 292) + " " + px(legend_y + 5) + " L" + px(left + 302) + " " + px(legend_y - 5) +
         "\" stroke=\"#cf222e\" stroke-width=\"2.5\"/>"
         "<text x=\"" + px(left + 309) + "\" y=\"" + px(legend_y + 4) + "\" font-size=\"12\" fill=\"#1f2328\">reverted</text>\n";
  svg += "<rect x=\"" + px(left + 375) + "\" y=\"" + px(legend_y - 5) + "\" width=\"10\" height=\"10\" fill=\"#59636e\"/>"
         "<text x=\"" + px(left + 391) + "\" y=\"" + px(legend_y + 4) + "\" font-size=\"12\" fill=\"#1f2328\">baseline</text>\n";
  return svg + "</svg>";
}

std::string action_badge(const std::string& action) {
  if (action == "keep") return "<span class=\"badge ok\">kept</span>";
  if (action == "revert") return "<span class=\"badge bad\">reverted</span>";
  return "<span class=\"badge neutral\">" + escape_html(action) + "</span>";
}

std::string cases_mean(const std::vector<CaseView>& cases) {
  double sum = 0;
  std::size_t known = 0;
  for (const auto& item : cases) {
    if (item.pass_rate) {
      sum += *item.pass_rate;
      ++known;
    }
  }
  return known == 0 ? "-" : format_number(sum / static_cast<double>(known), score_decimals);
}

}  // namespace

std::string render_loop_html(const nlohmann::json& loop_report) {
  const LoopView view = read_loop(loop_report);
  std::string html = html_page_start("HydraScore improvement loop");
  html += "<header>\n<h1>HydraScore improvement loop</h1>\n" + alerts_html(view.alerts) +
          "<p class=\"meta\"><span class=\"badge " +
          std::string(view.classification == "converged" || view.classification == "improved" ? "ok" : "neutral") +
          "\">" + escape_html(classification_title(view.classification)) + "</span> " +
          escape_html(summary_sentence(view)) + "</p>\n</header>\n";
  const std::string meaning = classification_meaning(view.classification);
  if (!meaning.empty()) html += "<p>" + escape_html(meaning) + "</p>\n";
  if (!view.noise_note.empty()) html += "<p class=\"meta\">" + escape_html(view.noise_note) + "</p>\n";

  html += "<section id=\"trajectory\">\n<h2>Score trajectory</h2>\n";
  if (view.iterations.empty()) {
    html += "<p>No iterations were recorded.</p>\n";
  } else {
    html += "<figure>\n" + trajectory_chart(view) +
            "\n<figcaption>Score (mean pass rate over the eval cases) per iteration; an iteration is kept only "
            "when its score is strictly above the best so far.</figcaption>\n</figure>\n";
    html += "<table>\n<thead><tr><th class=\"num\">Iteration</th><th class=\"num\">Score</th>"
            "<th class=\"num\">Best</th><th>Action</th><th>Change</th></tr></thead>\n<tbody>\n";
    for (const auto& iteration : view.iterations) {
      html += "<tr><td class=\"num\">" + escape_html(iteration.label) + "</td><td class=\"num\">" +
              score_text(iteration.score) + "</td><td class=\"num\">" + score_text(iteration.best_score) + "</td><td>" +
              action_badge(iteration.action) + "</td><td>" + escape_html(iteration.changelog) + "</td></tr>\n";
    }
    html += "</tbody>\n</table>\n";
  }
  html += "</section>\n";

  if (!view.cases.empty()) {
    html += "<section id=\"cases\">\n<h2>Eval cases</h2>\n<table>\n<thead><tr><th>Case</th><th class=\"num\">Passed</th>"
            "<th class=\"num\">Total</th><th class=\"num\">Pass rate</th></tr></thead>\n<tbody>\n";
    for (const auto& item : view.cases) {
      html += "<tr><td>" + escape_html(item.name) + "</td><td class=\"num\">" + count_text(item.passed) +
              "</td><td class=\"num\">" + count_text(item.total) + "</td><td class=\"num\">" +
              score_text(item.pass_rate) + "</td></tr>\n";
    }
    html += "<tr><th colspan=\"3\">Mean pass rate</th><th class=\"num\">" + cases_mean(view.cases) +
            "</th></tr>\n</tbody>\n</table>\n</section>\n";
  }
  return html + html_page_end("Rendered by HydraScore from the loop report (hydra-score/loop/1).");
}

std::string render_loop_markdown(const nlohmann::json& loop_report) {
  const LoopView view = read_loop(loop_report);
  std::string out = "## HydraScore improvement loop\n\n" + alerts_markdown(view.alerts) + "**" +
                    escape_markdown(classification_title(view.classification)) +
                    "** · " + escape_markdown(summary_sentence(view)) + "\n";
  const std::string meaning = classification_meaning(view.classification);
  if (!meaning.empty()) out += "\n" + escape_markdown(meaning) + "\n";
  if (!view.noise_note.empty()) out += "\n> " + escape_markdown(view.noise_note) + "\n";

  std::vector<std::size_t> charted;  // iterations with both values, in order
  for (std::size_t index = 0; index < view.iterations.size(); ++index) {
    if (view.iterations[index].score && view.iterations[index].best_score) charted.push_back(index);
  }
  if (!charted.empty()) {
    double y_max = 1.0;
    for (const auto index : charted) {
      y_max = std::max({y_max, *view.iterations[index].score, *view.iterations[index].best_score});
    }
    std::string labels;
    std::string scores;
    std::string bests;
    for (const auto index : charted) {
      const auto& iteration = view.iterations[index];
      const std::string separator = labels.empty() ? "" : ", ";
      labels += separator + "\"" + iteration.label + "\"";  // a number: safe in Mermaid
      scores += separator + format_number(*iteration.score, score_decimals);
      bests += separator + format_number(*iteration.best_score, score_decimals);
    }
    out += "\nScore per iteration (first line) and best score so far (second line):\n\n";
    out += "```mermaid\nxychart-beta\n  x-axis [" + labels + "]\n  y-axis \"score\" 0 --> " +
           format_number(std::ceil(y_max * 4.0) / 4.0) + "\n  line [" + scores + "]\n  line [" + bests + "]\n```\n";
  }

  if (!view.iterations.empty()) {
    out += "\n| Iteration | Score | Best | Action | Change |\n|--:|--:|--:|:--|:--|\n";
    for (const auto& iteration : view.iterations) {
      const std::string action = iteration.action == "keep"     ? "✅ kept"
                                 : iteration.action == "revert" ? "↩️ reverted"
                                                                : escape_markdown(iteration.action);
      out += "| " + escape_markdown(iteration.label) + " | " + score_text(iteration.score) + " | " +
             score_text(iteration.best_score) + " | " + action + " | " +
             escape_markdown(iteration.changelog.empty() ? "-" : iteration.changelog) + " |\n";
    }
  }
  if (!view.cases.empty()) {
    out += "\n| Eval case | Passed | Total | Pass rate |\n|:--|--:|--:|--:|\n";
    for (const auto& item : view.cases) {
      out += "| " + escape_markdown(item.name) + " | " + count_text(item.passed) + " | " + count_text(item.total) +
             " | " + score_text(item.pass_rate) + " |\n";
    }
    out += "| **Mean pass rate** | | | **" + cases_mean(view.cases) + "** |\n";
  }
  return out;
}

}  // namespace hydra::report
