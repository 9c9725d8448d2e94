#include <hydra/report/leaderboard.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include <hydra/report/text.hpp>
#include <hydra/version.hpp>

namespace hydra::report {
namespace {

using leaderboard::AgentStanding;
using leaderboard::Interval;
using leaderboard::Leaderboard;
using leaderboard::Pairing;
using nlohmann::json;

/// Numbers in the JSON: rounded to 6 decimals, so output reads well and stays stable.
double rounded(double value) { return std::round(value * 1e6) / 1e6; }

json optional_number(const std::optional<double>& value) {
  return value ? json(rounded(*value)) : json(nullptr);
}

json interval_json(const std::optional<Interval>& interval) {
  if (!interval) return nullptr;
  return {{"estimate", rounded(interval->estimate)}, {"low", rounded(interval->low)}, {"high", rounded(interval->high)}};
}

std::string percent_interval(const std::optional<Interval>& interval) {
  if (!interval) return "-";
  return format_percent(interval->estimate) + " [" + format_percent(interval->low) + ", " +
         format_percent(interval->high) + "]";
}

std::string number_interval(const std::optional<Interval>& interval) {
  if (!interval) return "-";
  return format_number(interval->estimate) + " [" + format_number(interval->low) + ", " +
         format_number(interval->high) + "]";
}

std::string money(const std::optional<double>& value) { return value ? "$" + format_number(*value, 4) : "-"; }

/// "pass@2 90% pass^2 50%" for the largest k above 1, "-" when every task had one attempt.
std::string pass_text(const AgentStanding& agent) {
  if (agent.pass.size() < 2) return "-";
  const auto& last = agent.pass.back();
  const std::string k = std::to_string(last.k);
  return "pass@" + k + " " + format_percent(last.pass_at_k) + ", pass^" + k + " " + format_percent(last.pass_hat_k);
}

std::string pairing_text(const Pairing& pairing) {
  std::ostringstream out;
  out << pairing.common_tasks << " common tasks: " << pairing.wins << " wins, " << pairing.ties << " ties, "
      << pairing.losses << " losses; p = " << format_number(pairing.p_value, 4) << " ("
      << (pairing.significant ? "significant" : "not significant") << " at 0.05)";
  return out.str();
}

std::string heading(const Leaderboard& board) {
  return std::to_string(board.rows) + " recorded candidates, " + std::to_string(board.tasks) + " tasks, " +
         std::to_string(board.agents.size()) + " agents; 95% bootstrap intervals over tasks (seed " +
         std::to_string(board.settings.seed) + ", " + std::to_string(board.settings.resamples) + " resamples)";
}

const std::vector<std::string> kHeader = {"Agent", "Tasks", "Attempts", "Mergeable", "Resolved", "Composite",
                                          "pass@k / pass^k", "$/mergeable", "$/resolved", "Frontier"};

std::vector<std::string> cells(const AgentStanding& agent, bool terminal) {
  return {terminal ? sanitize_terminal(agent.agent) : escape_markdown(agent.agent),
          std::to_string(agent.tasks),
          std::to_string(agent.attempts),
          percent_interval(agent.mergeable_rate),
          percent_interval(agent.resolved_rate),
          number_interval(agent.mean_composite),
          pass_text(agent),
          money(agent.cost_per_mergeable),
          money(agent.cost_per_resolved),
          agent.on_frontier ? "yes" : "-"};
}

}  // namespace

json to_json(const Leaderboard& board, const store::RowFilter& filter) {
  json agents = json::array();
  json frontier = json::array();
  std::vector<const AgentStanding*> on_frontier;
  for (const auto& agent : board.agents) {
    json pass = json::array();
    for (const auto& entry : agent.pass)
      pass.push_back({{"k", entry.k},
                      {"tasks", entry.tasks},
                      {"pass_at_k", rounded(entry.pass_at_k)},
                      {"pass_hat_k", rounded(entry.pass_hat_k)}});
    agents.push_back({{"agent", agent.agent},
                      {"tasks", agent.tasks},
                      {"attempts", agent.attempts},
                      {"mergeable_attempts", agent.mergeable_attempts},
                      {"resolved_attempts", agent.resolved_attempts},
                      {"resolved_tasks", agent.resolved_known_tasks},
                      {"mergeable_rate", interval_json(agent.mergeable_rate)},
                      {"resolved_rate", interval_json(agent.resolved_rate)},
                      {"mean_composite", interval_json(agent.mean_composite)},
                      {"pass", std::move(pass)},
                      {"cost_usd",
                       {{"total", optional_number(agent.total_cost_usd)},
                        {"per_attempt", optional_number(agent.cost_per_attempt)},
                        {"per_mergeable", optional_number(agent.cost_per_mergeable)},
                        {"per_resolved", optional_number(agent.cost_per_resolved)}}},
                      {"on_frontier", agent.on_frontier}});
    if (agent.on_frontier) on_frontier.push_back(&agent);
  }
  std::sort(on_frontier.begin(), on_frontier.end(), [](const AgentStanding* a, const AgentStanding* b) {
    return *a->cost_per_attempt != *b->cost_per_attempt ? *a->cost_per_attempt < *b->cost_per_attempt
                                                        : a->agent < b->agent;
  });
  for (const auto* agent : on_frontier) frontier.push_back(agent->agent);
  json pairwise = json::array();
  for (const auto& pairing : board.pairings)
    pairwise.push_back({{"first", pairing.first},
                        {"second", pairing.second},
                        {"common_tasks", pairing.common_tasks},
                        {"wins", pairing.wins},
                        {"ties", pairing.ties},
                        {"losses", pairing.losses},
                        {"p_value", rounded(pairing.p_value)},
                        {"significant", pairing.significant}});
  json trends = json::array();
  for (const auto& trend : board.trends) {
    json points = json::array();
    for (const auto& point : trend.points)
      points.push_back({{"day", point.day},
                        {"attempts", point.attempts},
                        {"mergeable_rate", rounded(point.mergeable_rate)},
                        {"mean_composite", rounded(point.mean_composite)}});
    trends.push_back({{"agent", trend.agent}, {"points", std::move(points)}});
  }
  json filters = {{"tasks", filter.tasks},
                  {"agents", filter.agents},
                  {"config_digests", filter.config_digests},
                  {"since", filter.since ? json(*filter.since) : json(nullptr)},
                  {"until", filter.until ? json(*filter.until) : json(nullptr)}};
  return {{"schema", leaderboard_schema},
          {"engine_version", engine_version},
          {"filters", std::move(filters)},
          {"bootstrap",
           {{"seed", board.settings.seed},
            {"resamples", board.settings.resamples},
            {"confidence", 0.95},
            {"method", "percentile; resampling tasks with replacement; SplitMix64"}}},
          {"rows", board.rows},
          {"tasks", board.tasks},
          {"agents", std::move(agents)},
          {"frontier", {{"rate", board.frontier_rate}, {"cost", "cost_usd per attempt"}, {"agents", std::move(frontier)}}},
          {"pairwise",
           {{"test", "exact two-sided sign test on per-task mean composites (ties dropped)"},
            {"alpha", leaderboard::significance_level},
            {"pairs", std::move(pairwise)}}},
          {"trends", std::move(trends)}};
}

std::string render_table(const Leaderboard& board) {
  std::vector<std::vector<std::string>> rows = {kHeader};
  for (const auto& agent : board.agents) rows.push_back(cells(agent, true));
  std::vector<std::size_t> widths(kHeader.size(), 0);
  for (const auto& row : rows)
    for (std::size_t column = 0; column < row.size(); ++column)
      widths[column] = std::max(widths[column], display_width(row[column]));
  std::ostringstream out;
  out << "HydraScore leaderboard  (" << heading(board) << ")\n\n";
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column) {
      std::string cell = row[column];
      if (column + 1 < row.size()) cell += std::string(widths[column] - display_width(cell), ' ');
      line += (column == 0 ? "" : "  ") + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  if (board.agents.empty()) out << "(no recorded candidates match)\n";
  if (!board.pairings.empty()) {
    out << "\nPairwise (mean composite per common task; exact two-sided sign test, ties dropped):\n";
    for (const auto& pairing : board.pairings)
      out << "  " << sanitize_terminal(pairing.first) << " vs " << sanitize_terminal(pairing.second) << ": "
          << pairing_text(pairing) << "\n";
  }
  return out.str();
}

std::string render_markdown(const Leaderboard& board) {
  std::ostringstream out;
  out << "## HydraScore leaderboard\n\n" << heading(board) << ".\n\n";
  out << "|";
  for (const auto& column : kHeader) out << " " << column << " |";
  out << "\n|";
  for (std::size_t column = 0; column < kHeader.size(); ++column) out << (column == 0 ? "---|" : "---:|");
  out << "\n";
  for (const auto& agent : board.agents) {
    out << "|";
    for (const auto& cell : cells(agent, false)) out << " " << cell << " |";
    out << "\n";
  }
  if (board.agents.empty()) out << "\nNo recorded candidates match.\n";
  std::vector<std::string> frontier;
  for (const auto& agent : board.agents)
    if (agent.on_frontier) frontier.push_back(escape_markdown(agent.agent));
  out << "\nPareto frontier (" << board.frontier_rate << " rate against cost per attempt): "
      << (frontier.empty() ? std::string("no agent reported a cost for every attempt") : "") ;
  for (std::size_t index = 0; index < frontier.size(); ++index) out << (index ? ", " : "") << frontier[index];
  out << ".\n";
  if (!board.pairings.empty()) {
    out << "\n### Pairwise\n\nMean composite per common task; exact two-sided sign test, ties dropped.\n\n";
    out << "| First | Second | Common tasks | Wins | Ties | Losses | p | Significant |\n";
    out << "|---|---|---:|---:|---:|---:|---:|---|\n";
    for (const auto& pairing : board.pairings)
      out << "| " << escape_markdown(pairing.first) << " | " << escape_markdown(pairing.second) << " | "
          << pairing.common_tasks << " | " << pairing.wins << " | " << pairing.ties << " | " << pairing.losses
          << " | " << format_number(pairing.p_value, 4) << " | " << (pairing.significant ? "yes" : "no") << " |\n";
  }
  return out.str();
}

}  // namespace hydra::report
