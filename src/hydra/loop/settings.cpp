#include <hydra/loop/settings.hpp>

#include <filesystem>

namespace hydra::loop {

std::string_view to_string(Metric metric) noexcept {
  return metric == Metric::composite ? "composite" : "pass_rate";
}

LoopSettings read_loop(config::TableReader& table) {
  LoopSettings settings;
  table.integer("max_iterations", settings.max_iterations, 1, 100000);
  table.integer("stuck_after", settings.stuck_after, 1, 100000);
  table.string("improver", settings.improver);
  table.choice("metric", settings.metric, {{"pass_rate", Metric::pass_rate}, {"composite", Metric::composite}});
  table.number("improver_timeout_seconds", settings.improver_timeout_seconds, config::positive);
  table.string_list("paths", settings.paths, [](const std::string& path) {
    const std::filesystem::path normal = std::filesystem::path(path).lexically_normal();
    if (normal.is_absolute() || normal.native().rfind("..", 0) == 0)
      return "\"" + path + "\" must be a relative path inside the source tree";
    return std::string();
  });
  table.reject_unknown_keys();
  return settings;
}

LoopSettings parse_loop_settings(std::string_view toml_text, const std::string& source_name) {
  const toml::table document = config::parse_toml(toml_text, source_name);
  config::TableReader root(document, "", source_name);
  if (auto table = root.table("loop")) return read_loop(*table);
  return LoopSettings{};
}

}  // namespace hydra::loop
