#include <hydra/loop/settings.hpp>

#include <cmath>
#include <filesystem>

#include <hydra/error.hpp>

namespace hydra::loop {
namespace {

[[noreturn]] void fail(const toml::source_region& where, const std::string& source_name,
                       std::string_view key, const std::string& message) {
  throw InputError(source_name, "loop." + std::string(key) + ": " + message, where.begin.line,
                   where.begin.column);
}

int read_count(const toml::table& table, std::string_view key, int fallback,
               const std::string& source_name) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return fallback;
  if (!node->is_integer()) fail(node->source(), source_name, key, "expected an integer");
  const std::int64_t value = node->value<std::int64_t>().value_or(0);
  if (value < 1 || value > 100000) fail(node->source(), source_name, key, "must be an integer in [1, 100000]");
  return static_cast<int>(value);
}

std::string read_string(const toml::table& table, std::string_view key, std::string fallback,
                        const std::string& source_name) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return fallback;
  if (!node->is_string()) fail(node->source(), source_name, key, "expected a string");
  return node->value<std::string>().value_or("");
}

}  // namespace

std::string_view to_string(Metric metric) noexcept {
  return metric == Metric::composite ? "composite" : "pass_rate";
}

LoopSettings parse_loop_table(const toml::table& loop_table, const std::string& source_name) {
  static constexpr std::string_view known[] = {"max_iterations", "stuck_after", "metric", "improver",
                                               "improver_timeout_seconds", "paths"};
  for (const auto& [key, node] : loop_table) {
    bool is_known = false;
    for (std::string_view name : known) is_known = is_known || key.str() == name;
    if (!is_known) fail(key.source(), source_name, key.str(), "unknown key");
  }

  LoopSettings settings;
  settings.max_iterations = read_count(loop_table, "max_iterations", settings.max_iterations, source_name);
  settings.stuck_after = read_count(loop_table, "stuck_after", settings.stuck_after, source_name);
  settings.improver = read_string(loop_table, "improver", settings.improver, source_name);

  if (const toml::node* node = loop_table.get("metric")) {
    const std::string metric = read_string(loop_table, "metric", "", source_name);
    if (metric == "pass_rate") settings.metric = Metric::pass_rate;
    else if (metric == "composite") settings.metric = Metric::composite;
    else fail(node->source(), source_name, "metric", "must be \"pass_rate\" or \"composite\", got \"" + metric + "\"");
  }

  if (const toml::node* node = loop_table.get("improver_timeout_seconds")) {
    if (!node->is_number()) fail(node->source(), source_name, "improver_timeout_seconds", "expected a number");
    const double value = node->value<double>().value_or(std::nan(""));
    if (!std::isfinite(value) || !(value > 0.0))
      fail(node->source(), source_name, "improver_timeout_seconds", "must be a finite number in (0, inf)");
    settings.improver_timeout_seconds = value;
  }

  if (const toml::node* node = loop_table.get("paths")) {
    const toml::array* array = node->as_array();
    if (array == nullptr) fail(node->source(), source_name, "paths", "expected an array of strings");
    for (const toml::node& element : *array) {
      if (!element.is_string()) fail(element.source(), source_name, "paths", "expected an array of strings");
      const std::string path = element.value<std::string>().value_or("");
      const std::filesystem::path normal = std::filesystem::path(path).lexically_normal();
      if (path.empty() || normal.is_absolute() || normal.native().rfind("..", 0) == 0)
        fail(element.source(), source_name, "paths",
             "\"" + path + "\" must be a relative path inside the source tree");
      settings.paths.push_back(path);
    }
  }
  return settings;
}

LoopSettings parse_loop_settings(std::string_view toml_text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& error) {
    throw InputError(source_name, std::string(error.description()), error.source().begin.line,
                     error.source().begin.column);
  }
  const toml::node* node = root.get("loop");
  if (node == nullptr) return LoopSettings{};
  const toml::table* table = node->as_table();
  if (table == nullptr)
    throw InputError(source_name, "loop: expected a table", node->source().begin.line, node->source().begin.column);
  return parse_loop_table(*table, source_name);
}

}  // namespace hydra::loop
