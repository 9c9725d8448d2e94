// Plain data: what an agent reports about its own run (metrics JSON).
#pragma once

#include <optional>

namespace hydra::model {

/// Every field is optional: absent means unknown, never zero.
struct AgentMetrics {
  std::optional<double> tokens;         ///< all tokens (input + output when only those are given)
  std::optional<double> input_tokens;   ///< prompt tokens
  std::optional<double> output_tokens;  ///< completion tokens
  std::optional<double> cost_usd;
  std::optional<double> tool_calls;
  std::optional<double> steps;
  std::optional<double> wall_clock_ms;
  std::optional<double> duration_seconds;  ///< the agent's duration, for the speed dimension
};

}  // namespace hydra::model
