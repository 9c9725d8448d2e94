#include <hydra/guard/settings.hpp>

#include <regex>

namespace hydra::guard {

Settings read_anti_gaming(config::TableReader& table) {
  Settings settings;
  table.number("suppression_weight", settings.suppression_weight, config::non_negative);
  table.number("assertion_penalty", settings.assertion_penalty, config::non_negative);
  table.boolean("test_tampering_is_regression", settings.test_tampering_is_regression);
  table.boolean("fail_gate_on_tampering", settings.fail_gate_on_tampering);
  table.string_list("assertion_patterns", settings.assertion_patterns, [](const std::string& pattern) {
    try {
      std::regex check(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      return std::string("invalid regular expression \"") + pattern + "\": " + error.what();
    }
    return std::string();
  });
  table.string_list("test_file_globs", settings.test_file_globs);
  table.string_list("protected_config_files", settings.protected_config_files);
  table.reject_unknown_keys();
  return settings;
}

Settings parse_anti_gaming(std::string_view toml_text, const std::string& source_name) {
  const toml::table document = config::parse_toml(toml_text, source_name);
  config::TableReader root(document, "", source_name);
  if (auto table = root.table("anti_gaming")) return read_anti_gaming(*table);
  return Settings{};
}

}  // namespace hydra::guard
