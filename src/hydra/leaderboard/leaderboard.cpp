#include <hydra/leaderboard/leaderboard.hpp>

#include <algorithm>
#include <ctime>
#include <map>
#include <set>

namespace hydra::leaderboard {
namespace {

using store::CandidateRow;

/// One agent's attempts at one task.
struct TaskAttempts {
  std::uint64_t attempts = 0;
  std::uint64_t mergeable = 0;
  std::uint64_t resolved_known = 0;
  std::uint64_t resolved = 0;
  double composite_sum = 0;

  TaskValues values() const {
    TaskValues out;
    const auto n = static_cast<double>(attempts);
    out.mergeable = static_cast<double>(mergeable) / n;
    out.composite = composite_sum / n;
    if (resolved_known > 0) out.resolved = static_cast<double>(resolved) / static_cast<double>(resolved_known);
    return out;
  }
};

struct AgentData {
  std::map<std::string, TaskAttempts> tasks;
  std::size_t attempts = 0;
  std::size_t mergeable = 0;
  std::size_t resolved = 0;
  double cost_sum = 0;
  bool every_cost_known = true;
  std::map<std::string, TrendPoint> days;
};

AgentStanding standing_of(const std::string& agent, const AgentData& data, const Settings& settings) {
  AgentStanding standing;
  standing.agent = agent;
  standing.tasks = data.tasks.size();
  standing.attempts = data.attempts;
  standing.mergeable_attempts = data.mergeable;
  standing.resolved_attempts = data.resolved;
  std::vector<TaskValues> values;
  values.reserve(data.tasks.size());
  std::uint64_t most_attempts = 0;
  for (const auto& [task, attempts] : data.tasks) {
    values.push_back(attempts.values());
    if (attempts.resolved_known > 0) ++standing.resolved_known_tasks;
    most_attempts = std::max(most_attempts, attempts.attempts);
  }
  const BootstrapResult intervals = bootstrap(values, settings.seed, settings.resamples);
  standing.mergeable_rate = intervals.mergeable_rate;
  standing.resolved_rate = intervals.resolved_rate;
  standing.mean_composite = intervals.mean_composite;
  for (std::uint64_t k = 1; k <= most_attempts; ++k) {
    PassAtK pass;
    pass.k = k;
    for (const auto& [task, attempts] : data.tasks) {
      if (attempts.attempts < k) continue;
      ++pass.tasks;
      pass.pass_at_k += pass_at_k(attempts.attempts, attempts.mergeable, k);
      pass.pass_hat_k += pass_hat_k(attempts.attempts, attempts.mergeable, k);
    }
    pass.pass_at_k /= static_cast<double>(pass.tasks);
    pass.pass_hat_k /= static_cast<double>(pass.tasks);
    standing.pass.push_back(pass);
  }
  if (data.every_cost_known && data.attempts > 0) {
    standing.total_cost_usd = data.cost_sum;
    standing.cost_per_attempt = data.cost_sum / static_cast<double>(data.attempts);
    if (data.mergeable > 0) standing.cost_per_mergeable = data.cost_sum / static_cast<double>(data.mergeable);
    if (data.resolved > 0) standing.cost_per_resolved = data.cost_sum / static_cast<double>(data.resolved);
  }
  return standing;
}

/// Marks the agents no other agent dominates (cost no higher and rate no
/// lower, one of them strictly); agents without a cost are not on it.
void mark_frontier(std::vector<AgentStanding>& agents, bool resolved) {
  const auto rate = [resolved](const AgentStanding& agent) -> std::optional<double> {
    const auto& interval = resolved ? agent.resolved_rate : agent.mergeable_rate;
    return interval ? std::optional<double>(interval->estimate) : std::nullopt;
  };
  for (auto& agent : agents) {
    if (!agent.cost_per_attempt || !rate(agent)) continue;
    bool dominated = false;
    for (const auto& other : agents) {
      if (&other == &agent || !other.cost_per_attempt || !rate(other)) continue;
      const double cost = *agent.cost_per_attempt, other_cost = *other.cost_per_attempt;
      const double value = *rate(agent), other_value = *rate(other);
      if (other_cost <= cost && other_value >= value && (other_cost < cost || other_value > value)) {
        dominated = true;
        break;
      }
    }
    agent.on_frontier = !dominated;
  }
}

}  // namespace

std::string utc_day(std::int64_t seconds) {
  const auto time = static_cast<std::time_t>(seconds);
  std::tm parts{};
  gmtime_r(&time, &parts);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &parts);
  return text;
}

Leaderboard compute(const std::vector<CandidateRow>& rows, const Settings& settings) {
  Leaderboard board;
  board.settings = settings;
  board.rows = rows.size();
  std::map<std::string, AgentData> agents;
  std::set<std::string> tasks;
  for (const CandidateRow& row : rows) {
    AgentData& agent = agents[row.agent];
    TaskAttempts& task = agent.tasks[row.task];
    tasks.insert(row.task);
    ++task.attempts;
    ++agent.attempts;
    task.composite_sum += row.total;
    if (row.mergeable) {
      ++task.mergeable;
      ++agent.mergeable;
    }
    if (row.resolved) {
      ++task.resolved_known;
      if (*row.resolved) {
        ++task.resolved;
        ++agent.resolved;
      }
    }
    if (row.metrics.cost_usd) agent.cost_sum += *row.metrics.cost_usd;
    else agent.every_cost_known = false;
    TrendPoint& day = agent.days[utc_day(row.recorded_at)];
    ++day.attempts;
    day.mergeable_rate += row.mergeable ? 1 : 0;  // sums until divided below
    day.mean_composite += row.total;
  }
  board.tasks = tasks.size();
  for (const auto& [name, data] : agents) board.agents.push_back(standing_of(name, data, settings));

  const bool every_resolved =
      !board.agents.empty() && std::all_of(board.agents.begin(), board.agents.end(),
                                           [](const AgentStanding& agent) { return agent.resolved_rate.has_value(); });
  board.frontier_rate = every_resolved ? "resolved" : "mergeable";
  mark_frontier(board.agents, every_resolved);

  for (auto first = agents.begin(); first != agents.end(); ++first) {
    for (auto second = std::next(first); second != agents.end(); ++second) {
      Pairing pairing;
      pairing.first = first->first;
      pairing.second = second->first;
      for (const auto& [task, attempts] : first->second.tasks) {
        const auto other = second->second.tasks.find(task);
        if (other == second->second.tasks.end()) continue;
        ++pairing.common_tasks;
        const double mine = attempts.values().composite, theirs = other->second.values().composite;
        if (mine > theirs) ++pairing.wins;
        else if (mine < theirs) ++pairing.losses;
        else ++pairing.ties;
      }
      pairing.p_value = sign_test_p(pairing.wins, pairing.losses);
      pairing.significant = pairing.p_value < significance_level;
      board.pairings.push_back(pairing);
    }
  }

  for (const auto& [name, data] : agents) {
    Trend trend;
    trend.agent = name;
    for (const auto& [day, sums] : data.days) {
      TrendPoint point = sums;
      point.day = day;
      point.mergeable_rate = sums.mergeable_rate / static_cast<double>(sums.attempts);
      point.mean_composite = sums.mean_composite / static_cast<double>(sums.attempts);
      trend.points.push_back(point);
    }
    board.trends.push_back(std::move(trend));
  }

  std::stable_sort(board.agents.begin(), board.agents.end(), [](const AgentStanding& a, const AgentStanding& b) {
    const double a_rate = a.mergeable_rate ? a.mergeable_rate->estimate : -1;
    const double b_rate = b.mergeable_rate ? b.mergeable_rate->estimate : -1;
    if (a_rate != b_rate) return a_rate > b_rate;
    const double a_mean = a.mean_composite ? a.mean_composite->estimate : -1;
    const double b_mean = b.mean_composite ? b.mean_composite->estimate : -1;
    if (a_mean != b_mean) return a_mean > b_mean;
    return a.agent < b.agent;
  });
  return board;
}

}  // namespace hydra::leaderboard
