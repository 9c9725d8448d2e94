#include <hydra/compare/thresholds.hpp>

#include <cmath>

#include <toml++/toml.h>

#include <hydra/error.hpp>

namespace hydra::compare {
namespace {

[[noreturn]] void fail(const std::string& source_name, const toml::node& node, const std::string& key,
                       const std::string& message) {
  const toml::source_region& where = node.source();
  throw InputError(source_name, "compare." + key + ": " + message, where.begin.line,
                   where.begin.column);
}

void read_non_negative(const toml::table& table, std::string_view key, double& target,
                       const std::string& source_name) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return;
  if (!node->is_number()) fail(source_name, *node, std::string(key), "expected a number");
  const double value = node->value<double>().value_or(std::nan(""));
  if (!std::isfinite(value) || value < 0.0)
    fail(source_name, *node, std::string(key), "must be a finite number >= 0");
  target = value;
}

}  // namespace

Thresholds parse_compare_table(std::string_view toml_text, const std::string& source_name,
                               Thresholds defaults) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& error) {
    throw InputError(source_name, std::string(error.description()), error.source().begin.line,
                     error.source().begin.column);
  }
  Thresholds thresholds = defaults;
  const toml::node* compare_node = root.get("compare");
  if (compare_node == nullptr) return thresholds;
  const toml::table* table = compare_node->as_table();
  if (table == nullptr) {
    throw InputError(source_name, "compare: expected a table", compare_node->source().begin.line,
                     compare_node->source().begin.column);
  }
  for (const auto& [key, node] : *table) {
    if (key != "min_composite_gain" && key != "regression_composite_drop" &&
        key != "objective_drop_is_regression")
      throw InputError(source_name, "compare." + std::string(key.str()) + ": unknown key",
                       key.source().begin.line, key.source().begin.column);
  }
  read_non_negative(*table, "min_composite_gain", thresholds.min_composite_gain, source_name);
  read_non_negative(*table, "regression_composite_drop", thresholds.regression_composite_drop,
                    source_name);
  if (const toml::node* node = table->get("objective_drop_is_regression")) {
    if (!node->is_boolean())
      fail(source_name, *node, "objective_drop_is_regression", "expected true or false");
    thresholds.objective_drop_is_regression = node->value<bool>().value_or(true);
  }
  return thresholds;
}

void validate(const Thresholds& thresholds) {
  auto check = [](double value, const char* name) {
    if (!std::isfinite(value) || value < 0.0)
      throw UsageError(std::string(name) + " must be a finite number >= 0");
  };
  check(thresholds.min_composite_gain, "min_composite_gain");
  check(thresholds.regression_composite_drop, "regression_composite_drop");
}

}  // namespace hydra::compare
