#include <hydra/guard/settings.hpp>

#include <cmath>
#include <initializer_list>
#include <regex>

#include <hydra/error.hpp>

namespace hydra::guard {
namespace {

constexpr std::string_view table_name = "anti_gaming";

class TableReader {
 public:
  TableReader(const toml::table& table, const std::string& source_name)
      : table_(table), source_name_(source_name) {}

  [[noreturn]] void fail(const toml::node& node, std::string_view key,
                         const std::string& message) const {
    const toml::source_region& where = node.source();
    throw InputError(source_name_,
                     std::string(table_name) + "." + std::string(key) + ": " + message,
                     where.begin.line, where.begin.column);
  }

  void reject_unknown_keys(std::initializer_list<std::string_view> known) const {
    for (const auto& [key, node] : table_) {
      bool is_known = false;
      for (std::string_view name : known) is_known = is_known || key.str() == name;
      if (!is_known) {
        // Point at the key itself, not its value.
        throw InputError(source_name_,
                         std::string(table_name) + "." + std::string(key.str()) + ": unknown key",
                         key.source().begin.line, key.source().begin.column);
      }
    }
  }

  /// A finite number >= 0.
  void read_weight(std::string_view key, double& target) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) return;
    if (!node->is_number()) fail(*node, key, "expected a number");
    const double value = node->value<double>().value_or(std::nan(""));
    if (!std::isfinite(value) || value < 0.0) fail(*node, key, "must be a finite number >= 0");
    target = value;
  }

  void read_bool(std::string_view key, bool& target) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) return;
    if (!node->is_boolean()) fail(*node, key, "expected true or false");
    target = node->value<bool>().value_or(target);
  }

  /// An array of non-empty strings; `validate` is called on each element.
  template <typename Validate>
  void read_patterns(std::string_view key, std::vector<std::string>& target,
                     Validate validate) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) return;
    const toml::array* array = node->as_array();
    if (array == nullptr) fail(*node, key, "expected an array of strings");
    std::vector<std::string> values;
    for (const toml::node& element : *array) {
      if (!element.is_string()) fail(element, key, "expected an array of strings");
      std::string value = element.value<std::string>().value_or("");
      if (value.empty()) fail(element, key, "an empty pattern matches nothing useful");
      validate(element, value);
      values.push_back(std::move(value));
    }
    target = std::move(values);
  }

 private:
  const toml::table& table_;
  const std::string& source_name_;
};

}  // namespace

Settings parse_anti_gaming_table(const toml::table& table, const std::string& source_name) {
  TableReader reader(table, source_name);
  reader.reject_unknown_keys({"suppression_weight", "assertion_penalty",
                              "test_tampering_is_regression", "fail_gate_on_tampering",
                              "assertion_patterns", "test_file_globs", "protected_config_files"});
  Settings settings;
  reader.read_weight("suppression_weight", settings.suppression_weight);
  reader.read_weight("assertion_penalty", settings.assertion_penalty);
  reader.read_bool("test_tampering_is_regression", settings.test_tampering_is_regression);
  reader.read_bool("fail_gate_on_tampering", settings.fail_gate_on_tampering);
  const auto any_text = [](const toml::node&, const std::string&) {};
  reader.read_patterns("assertion_patterns", settings.assertion_patterns,
                       [&](const toml::node& node, const std::string& pattern) {
                         try {
                           std::regex check(pattern, std::regex::ECMAScript);
                         } catch (const std::regex_error& error) {
                           reader.fail(node, "assertion_patterns",
                                       std::string("invalid regular expression \"") + pattern +
                                           "\": " + error.what());
                         }
                       });
  reader.read_patterns("test_file_globs", settings.test_file_globs, any_text);
  reader.read_patterns("protected_config_files", settings.protected_config_files, any_text);
  return settings;
}

Settings parse_anti_gaming(std::string_view toml_text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& error) {
    throw InputError(source_name, std::string(error.description()), error.source().begin.line,
                     error.source().begin.column);
  }
  const toml::node* node = root.get(table_name);
  if (node == nullptr) return Settings{};
  const toml::table* table = node->as_table();
  if (table == nullptr) {
    const toml::source_region& where = node->source();
    throw InputError(source_name, std::string(table_name) + ": expected a table",
                     where.begin.line, where.begin.column);
  }
  return parse_anti_gaming_table(*table, source_name);
}

}  // namespace hydra::guard
