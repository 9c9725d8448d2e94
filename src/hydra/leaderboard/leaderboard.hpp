// Which agent should we trust on this repository? The leaderboard over the
// results store's rows: per agent, rates with bootstrap intervals, pass@k,
// cost per success and the Pareto frontier; pairwise sign tests; trends by
// day. Pure: rows in, numbers out. Formulas: docs/leaderboard.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <hydra/leaderboard/statistics.hpp>
#include <hydra/store/row.hpp>

namespace hydra::leaderboard {

/// The documented default seed of the bootstrap.
inline constexpr std::uint64_t default_seed = 20240601;
/// The documented default number of bootstrap resamples.
inline constexpr std::size_t default_resamples = 2000;
/// A pairwise difference is significant when the sign test's p is below this.
inline constexpr double significance_level = 0.05;

struct Settings {
  std::uint64_t seed = default_seed;
  std::size_t resamples = default_resamples;
};

/// pass@k and pass^k over the tasks with at least k attempts.
struct PassAtK {
  std::uint64_t k = 1;
  std::size_t tasks = 0;  ///< tasks with at least k attempts (the average's denominator)
  double pass_at_k = 0;
  double pass_hat_k = 0;
};

struct AgentStanding {
  std::string agent;
  std::size_t tasks = 0;
  std::size_t attempts = 0;
  std::size_t mergeable_attempts = 0;
  std::size_t resolved_known_tasks = 0;  ///< tasks with a private test patch
  std::size_t resolved_attempts = 0;
  std::optional<Interval> mergeable_rate;
  std::optional<Interval> resolved_rate;  ///< nullopt: no task had acceptance tests
  std::optional<Interval> mean_composite;
  std::vector<PassAtK> pass;  ///< k = 1 .. the most attempts made at one task
  /// Sum of cost_usd over the attempts; nullopt unless every attempt reported it.
  std::optional<double> total_cost_usd;
  std::optional<double> cost_per_attempt;
  std::optional<double> cost_per_mergeable;  ///< nullopt also with no mergeable attempt
  std::optional<double> cost_per_resolved;   ///< nullopt also with no resolved attempt
  bool on_frontier = false;
};

/// Two agents on the tasks both attempted, by mean composite per task.
struct Pairing {
  std::string first;
  std::string second;
  std::size_t common_tasks = 0;
  std::size_t wins = 0;    ///< tasks where `first` scored higher
  std::size_t ties = 0;
  std::size_t losses = 0;  ///< tasks where `second` scored higher
  double p_value = 1;      ///< exact two-sided sign test (ties dropped)
  bool significant = false;
};

/// One agent's day (UTC) of recorded attempts.
struct TrendPoint {
  std::string day;  ///< YYYY-MM-DD
  std::size_t attempts = 0;
  double mergeable_rate = 0;
  double mean_composite = 0;
};

struct Trend {
  std::string agent;
  std::vector<TrendPoint> points;  ///< by day
};

struct Leaderboard {
  Settings settings;
  std::size_t rows = 0;
  std::size_t tasks = 0;  ///< distinct tasks over all agents
  std::vector<AgentStanding> agents;  ///< mergeable rate desc, mean composite desc, agent asc
  /// What the frontier's rate is: "resolved" when every agent has a resolved
  /// rate, else "mergeable".
  std::string frontier_rate = "mergeable";
  std::vector<Pairing> pairings;  ///< every pair of agents, by name
  std::vector<Trend> trends;      ///< by agent name
};

/// The leaderboard of `rows` (each row one attempt of one agent at one task).
Leaderboard compute(const std::vector<store::CandidateRow>& rows, const Settings& settings);

/// "YYYY-MM-DD" of `seconds` since 1970-01-01 UTC.
std::string utc_day(std::int64_t seconds);

}  // namespace hydra::leaderboard
