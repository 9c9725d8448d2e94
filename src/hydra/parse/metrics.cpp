#include <hydra/parse/metrics.hpp>

#include <cmath>
#include <optional>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::parse {
namespace {

/// Position of the first `"key"` followed by a colon in `text` ({0,0} when
/// not found, e.g. when the key is written with escapes).
util::TextPosition position_of_key(std::string_view text, const std::string& key) {
  const std::string quoted = "\"" + key + "\"";
  for (auto found = text.find(quoted); found != std::string_view::npos;
       found = text.find(quoted, found + 1)) {
    auto after = text.find_first_not_of(" \t\r\n", found + quoted.size());
    if (after != std::string_view::npos && text[after] == ':') return util::position_of(text, found);
  }
  return {};
}

}  // namespace

model::AgentMetrics parse_metrics(std::string_view json_text, const std::string& source_name) {
  const nlohmann::json document = parse_json_document(json_text, source_name);
  if (!document.is_object())
    throw InputError(source_name, "agent metrics must be a JSON object", 1, 1);

  const auto fail_at_key = [&](const std::string& key, const std::string& message) {
    const auto at = position_of_key(json_text, key);
    throw InputError(source_name, message, at.line, at.column);
  };

  model::AgentMetrics metrics;
  std::optional<double> agent_seconds;
  for (const auto& [key, value] : document.items()) {
    std::optional<double>* field = nullptr;
    if (key == "tokens") field = &metrics.tokens;
    else if (key == "input_tokens") field = &metrics.input_tokens;
    else if (key == "output_tokens") field = &metrics.output_tokens;
    else if (key == "cost_usd") field = &metrics.cost_usd;
    else if (key == "tool_calls") field = &metrics.tool_calls;
    else if (key == "steps") field = &metrics.steps;
    else if (key == "wall_clock_ms") field = &metrics.wall_clock_ms;
    else if (key == "duration_seconds") field = &metrics.duration_seconds;
    else if (key == "agent_seconds") field = &agent_seconds;
    else
      fail_at_key(key, "unknown key \"" + key +
                           "\" (expected tokens, input_tokens, output_tokens, cost_usd, tool_calls, steps, "
                           "wall_clock_ms, "
                           "duration_seconds or agent_seconds)");
    if (!value.is_number())
      fail_at_key(key, "\"" + key + "\" must be a number, not " + std::string(value.type_name()));
    const double number = value.get<double>();
    if (!std::isfinite(number)) fail_at_key(key, "\"" + key + "\" must be a finite number");
    if (number < 0) fail_at_key(key, "\"" + key + "\" must not be negative");
    *field = number;
  }
  if (agent_seconds) {
    if (metrics.duration_seconds && *metrics.duration_seconds != *agent_seconds)
      fail_at_key("agent_seconds",
                  "\"agent_seconds\" is an alias of \"duration_seconds\"; they disagree");
    metrics.duration_seconds = agent_seconds;
  }
  if (metrics.input_tokens && metrics.output_tokens) {
    const double sum = *metrics.input_tokens + *metrics.output_tokens;
    if (metrics.tokens && *metrics.tokens != sum)
      fail_at_key("tokens", "\"tokens\" must equal \"input_tokens\" + \"output_tokens\" when all three are given");
    metrics.tokens = sum;
  }
  return metrics;
}

model::AgentMetrics parse_metrics_file(const std::filesystem::path& file) {
  return parse_metrics(util::read_file(file), file.string());
}

}  // namespace hydra::parse
