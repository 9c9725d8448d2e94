// Plain data: one candidate of one ranking, as the results store keeps it
// (docs/leaderboard.md, "The results store").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <hydra/model/metrics.hpp>

namespace hydra::store {

/// One ranked candidate. (run_id, agent) identifies it: recording the same
/// ranking twice keeps one row.
struct CandidateRow {
  std::string run_id;           ///< the ranking's run_id (score contract)
  std::string task;             ///< the task's name (given, else the project and base commit)
  std::string agent;
  std::int64_t attempt = 1;     ///< the agent's attempt at the task, from 1
  std::int64_t recorded_at = 0; ///< when it was recorded: seconds since 1970-01-01 UTC
  std::string engine_version;   ///< the hydra-score that scored it
  std::string config_digest;    ///< the scoring config's digest
  std::string baseline_digest;  ///< the baseline run's manifest digest
  std::string run_digest;       ///< the candidate run's manifest digest
  std::int64_t rank = 0;        ///< its rank in the ranking, from 1
  double total = 0;             ///< the composite, 0-100 (rounded as the contract shows it)
  bool mergeable = false;
  std::optional<bool> resolved;  ///< nullopt: no private test patch (no acceptance tests)
  bool build_passed = false;
  std::optional<std::int64_t> checks_passed;  ///< the tests dimension's candidate passes; nullopt: no tests recorded
  std::optional<std::int64_t> checks_total;
  model::AgentMetrics metrics;  ///< the agent's cost metrics
  std::string tools_json;       ///< the run's tool versions (compact JSON object)
  std::string dimensions_json;  ///< every dimension: active, score, weight, reason, evidence (compact JSON)
  std::string gates_json;       ///< every gate: name, passed, detail (compact JSON array)
};

}  // namespace hydra::store
