// The leaderboard as one self-contained HTML page: the table, the Pareto
// frontier chart and per-agent trends, drawn as inline SVG.
#include <hydra/report/leaderboard.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include <hydra/report/html_page.hpp>
#include <hydra/report/text.hpp>
#include <hydra/version.hpp>

namespace hydra::report {
namespace {

using leaderboard::AgentStanding;
using leaderboard::Leaderboard;

const char* const kPalette[] = {"#0969da", "#cf222e", "#1a7f37", "#8250df", "#bc4c00", "#116329", "#a40e26", "#0550ae"};

std::string colour(std::size_t index) { return kPalette[index % (sizeof kPalette / sizeof kPalette[0])]; }

std::string coordinate(double value) { return format_number(value, 1); }

constexpr double kWidth = 640, kHeight = 320, kLeft = 60, kRight = 60, kTop = 20, kBottom = 50;

/// The frontier chart: each agent with a cost at (cost per attempt, rate);
/// the frontier's agents joined by a line.
std::string frontier_svg(const Leaderboard& board) {
  const bool resolved = board.frontier_rate == "resolved";
  struct Point {
    const AgentStanding* agent;
    std::size_t index;
    double cost;
    double rate;
  };
  std::vector<Point> points;
  for (std::size_t index = 0; index < board.agents.size(); ++index) {
    const auto& agent = board.agents[index];
    const auto& rate = resolved ? agent.resolved_rate : agent.mergeable_rate;
    if (agent.cost_per_attempt && rate) points.push_back({&agent, index, *agent.cost_per_attempt, rate->estimate});
  }
  std::ostringstream out;
  out << "<svg class=\"chart\" role=\"img\" aria-label=\"Pareto frontier: " << board.frontier_rate
      << " rate against cost per attempt\" viewBox=\"0 0 " << kWidth << " " << kHeight
      << "\" width=\"" << kWidth << "\" height=\"" << kHeight << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  if (points.empty()) {
    out << "<text x=\"20\" y=\"40\">No agent reported cost_usd for every attempt: no frontier.</text>\n</svg>\n";
    return out.str();
  }
  double max_cost = 0;
  for (const auto& point : points) max_cost = std::max(max_cost, point.cost);
  // Room right of the dearest point for its label.
  max_cost = max_cost <= 0 ? 1 : max_cost * 1.3;
  const double plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  const auto x_of = [&](double cost) { return kLeft + cost / max_cost * plot_width; };
  const auto y_of = [&](double rate) { return kTop + (1 - rate) * plot_height; };
  out << "<line x1=\"" << kLeft << "\" y1=\"" << kTop + plot_height << "\" x2=\"" << kLeft + plot_width << "\" y2=\""
      << kTop + plot_height << "\" stroke=\"#57606a\"/>\n";
  out << "<line x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << kTop + plot_height
      << "\" stroke=\"#57606a\"/>\n";
  for (int tick = 0; tick <= 4; ++tick) {
    const double rate = tick / 4.0;
    out << "<text x=\"" << kLeft - 8 << "\" y=\"" << coordinate(y_of(rate) + 4) << "\" text-anchor=\"end\" font-size=\"11\">"
        << format_percent(rate) << "</text>\n";
    const double cost = max_cost * tick / 4.0;
    out << "<text x=\"" << coordinate(x_of(cost)) << "\" y=\"" << kTop + plot_height + 16
        << "\" text-anchor=\"middle\" font-size=\"11\">$" << format_number(cost, 3) << "</text>\n";
  }
  out << "<text x=\"" << kLeft + plot_width / 2 << "\" y=\"" << kHeight - 8
      << "\" text-anchor=\"middle\" font-size=\"12\">cost_usd per attempt</text>\n";
  out << "<text x=\"14\" y=\"" << kTop + plot_height / 2 << "\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 14 "
      << kTop + plot_height / 2 << ")\">" << board.frontier_rate << " rate</text>\n";
  std::vector<Point> frontier;
  for (const auto& point : points)
    if (point.agent->on_frontier) frontier.push_back(point);
  std::sort(frontier.begin(), frontier.end(), [](const Point& a, const Point& b) { return a.cost < b.cost; });
  if (frontier.size() > 1) {
    out << "<polyline class=\"frontier\" fill=\"none\" stroke=\"#57606a\" stroke-dasharray=\"4 3\" points=\"";
    for (const auto& point : frontier) out << coordinate(x_of(point.cost)) << "," << coordinate(y_of(point.rate)) << " ";
    out << "\"/>\n";
  }
  for (const auto& point : points) {
    const std::string name = escape_html(point.agent->agent);
    out << "<circle cx=\"" << coordinate(x_of(point.cost)) << "\" cy=\"" << coordinate(y_of(point.rate))
        << "\" r=\"" << (point.agent->on_frontier ? 7 : 5) << "\" fill=\"" << colour(point.index) << "\"><title>"
        << name << ": " << format_percent(point.rate) << " at $" << format_number(point.cost, 4)
        << " per attempt</title></circle>\n";
    out << "<text x=\"" << coordinate(x_of(point.cost) + 9) << "\" y=\"" << coordinate(y_of(point.rate) - 8)
        << "\" font-size=\"12\">" << name << (point.agent->on_frontier ? " (frontier)" : "") << "</text>\n";
  }
  out << "</svg>\n";
  return out.str();
}

/// Per-agent mean composite by day, one line per agent over the days any agent has.
std::string trends_svg(const Leaderboard& board) {
  std::set<std::string> day_set;
  for (const auto& trend : board.trends)
    for (const auto& point : trend.points) day_set.insert(point.day);
  const std::vector<std::string> days(day_set.begin(), day_set.end());
  std::ostringstream out;
  const double legend = 22.0 * static_cast<double>(board.trends.size());
  const double height = kHeight + legend;
  out << "<svg class=\"chart\" role=\"img\" aria-label=\"Mean composite per agent by day\" viewBox=\"0 0 " << kWidth
      << " " << height << "\" width=\"" << kWidth << "\" height=\"" << height
      << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  if (days.empty()) {
    out << "<text x=\"20\" y=\"40\">No recorded candidates.</text>\n</svg>\n";
    return out.str();
  }
  const double plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  const auto x_of = [&](std::size_t day) {
    return days.size() == 1 ? kLeft + plot_width / 2
                            : kLeft + static_cast<double>(day) / static_cast<double>(days.size() - 1) * plot_width;
  };
  const auto y_of = [&](double composite) { return kTop + (1 - composite / 100) * plot_height; };
  out << "<line x1=\"" << kLeft << "\" y1=\"" << kTop + plot_height << "\" x2=\"" << kLeft + plot_width << "\" y2=\""
      << kTop + plot_height << "\" stroke=\"#57606a\"/>\n";
  out << "<line x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << kTop + plot_height
      << "\" stroke=\"#57606a\"/>\n";
  for (int tick = 0; tick <= 4; ++tick)
    out << "<text x=\"" << kLeft - 8 << "\" y=\"" << coordinate(y_of(tick * 25.0) + 4)
        << "\" text-anchor=\"end\" font-size=\"11\">" << tick * 25 << "</text>\n";
  const std::size_t label_every = std::max<std::size_t>(1, days.size() / 6);
  for (std::size_t day = 0; day < days.size(); day += label_every)
    out << "<text x=\"" << coordinate(x_of(day)) << "\" y=\"" << kTop + plot_height + 16
        << "\" text-anchor=\"middle\" font-size=\"11\">" << escape_html(days[day]) << "</text>\n";
  for (std::size_t index = 0; index < board.trends.size(); ++index) {
    const auto& trend = board.trends[index];
    // The agent's colour in the table's order, so both charts agree.
    std::size_t colour_index = index;
    for (std::size_t position = 0; position < board.agents.size(); ++position)
      if (board.agents[position].agent == trend.agent) colour_index = position;
    const std::string name = escape_html(trend.agent);
    std::ostringstream line;
    for (const auto& point : trend.points) {
      const auto day = static_cast<std::size_t>(std::lower_bound(days.begin(), days.end(), point.day) - days.begin());
      line << coordinate(x_of(day)) << "," << coordinate(y_of(point.mean_composite)) << " ";
      out << "<circle cx=\"" << coordinate(x_of(day)) << "\" cy=\"" << coordinate(y_of(point.mean_composite))
          << "\" r=\"3.5\" fill=\"" << colour(colour_index) << "\"><title>" << name << " on " << escape_html(point.day)
          << ": mean composite " << format_number(point.mean_composite) << ", mergeable "
          << format_percent(point.mergeable_rate) << " of " << point.attempts << "</title></circle>\n";
    }
    if (trend.points.size() > 1)
      out << "<polyline fill=\"none\" stroke=\"" << colour(colour_index) << "\" stroke-width=\"2\" points=\""
          << line.str() << "\"/>\n";
    const double legend_y = kHeight + 22.0 * static_cast<double>(index);
    out << "<rect x=\"" << kLeft << "\" y=\"" << coordinate(legend_y - 10) << "\" width=\"12\" height=\"12\" fill=\""
        << colour(colour_index) << "\"/><text x=\"" << kLeft + 18 << "\" y=\"" << coordinate(legend_y)
        << "\" font-size=\"12\">" << name << "</text>\n";
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace

std::string render_html(const Leaderboard& board) {
  std::ostringstream out;
  out << html_page_start("HydraScore leaderboard");
  out << "<h1>HydraScore leaderboard</h1>\n<p>" << board.rows << " recorded candidates, " << board.tasks
      << " tasks, " << board.agents.size() << " agents; 95% bootstrap intervals over tasks (seed "
      << board.settings.seed << ", " << board.settings.resamples << " resamples).</p>\n";
  out << "<table class=\"leaderboard\">\n<thead><tr><th>Agent</th><th>Tasks</th><th>Attempts</th><th>Mergeable</th>"
         "<th>Resolved</th><th>Composite</th><th>pass@k / pass^k</th><th>$/mergeable</th><th>$/resolved</th>"
         "<th>Frontier</th></tr></thead>\n<tbody>\n";
  for (std::size_t index = 0; index < board.agents.size(); ++index) {
    const auto& agent = board.agents[index];
    const auto interval = [](const std::optional<leaderboard::Interval>& value, bool percent) {
      if (!value) return std::string("-");
      const auto show = [percent](double number) { return percent ? format_percent(number) : format_number(number); };
      return show(value->estimate) + " [" + show(value->low) + ", " + show(value->high) + "]";
    };
    std::string pass = "-";
    if (agent.pass.size() > 1) {
      const auto& last = agent.pass.back();
      pass = "pass@" + std::to_string(last.k) + " " + format_percent(last.pass_at_k) + ", pass^" +
             std::to_string(last.k) + " " + format_percent(last.pass_hat_k);
    }
    const auto money = [](const std::optional<double>& value) {
      return value ? "$" + format_number(*value, 4) : std::string("-");
    };
    out << "<tr><td><span style=\"color:" << colour(index) << "\">&#9632;</span> " << escape_html(agent.agent)
        << "</td><td>" << agent.tasks << "</td><td>" << agent.attempts << "</td><td>"
        << interval(agent.mergeable_rate, true) << "</td><td>" << interval(agent.resolved_rate, true) << "</td><td>"
        << interval(agent.mean_composite, false) << "</td><td>" << escape_html(pass) << "</td><td>"
        << money(agent.cost_per_mergeable) << "</td><td>" << money(agent.cost_per_resolved) << "</td><td>"
        << (agent.on_frontier ? "yes" : "-") << "</td></tr>\n";
  }
  out << "</tbody>\n</table>\n";
  out << "<h2>Pareto frontier: " << escape_html(board.frontier_rate) << " rate against cost</h2>\n"
      << frontier_svg(board);
  out << "<h2>Trends: mean composite by day</h2>\n" << trends_svg(board);
  if (!board.pairings.empty()) {
    out << "<h2>Pairwise</h2>\n<p>Mean composite per common task; exact two-sided sign test, ties dropped.</p>\n"
           "<table class=\"pairwise\">\n<thead><tr><th>First</th><th>Second</th><th>Common tasks</th><th>Wins</th>"
           "<th>Ties</th><th>Losses</th><th>p</th><th>Significant</th></tr></thead>\n<tbody>\n";
    for (const auto& pairing : board.pairings)
      out << "<tr><td>" << escape_html(pairing.first) << "</td><td>" << escape_html(pairing.second) << "</td><td>"
          << pairing.common_tasks << "</td><td>" << pairing.wins << "</td><td>" << pairing.ties << "</td><td>"
          << pairing.losses << "</td><td>" << format_number(pairing.p_value, 4) << "</td><td>"
          << (pairing.significant ? "yes" : "no") << "</td></tr>\n";
    out << "</tbody>\n</table>\n";
  }
  out << html_page_end(std::string("hydra-score ") + engine_version + " leaderboard");
  return out.str();
}

}  // namespace hydra::report
