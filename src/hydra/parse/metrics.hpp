// Agent metrics JSON: {"tokens", "input_tokens", "output_tokens", "cost_usd",
// "tool_calls", "steps", "wall_clock_ms", "duration_seconds"}, every key optional.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <hydra/model/metrics.hpp>

namespace hydra::parse {

/// Throws hydra::InputError (file, line, column) for malformed JSON, unknown
/// keys, non-numbers, NaN/infinite or negative values, and a "tokens" that
/// disagrees with "input_tokens" + "output_tokens" (both given). "tokens" is
/// their sum when only they are given.
model::AgentMetrics parse_metrics(std::string_view json_text, const std::string& source_name);
model::AgentMetrics parse_metrics_file(const std::filesystem::path& file);

}  // namespace hydra::parse
