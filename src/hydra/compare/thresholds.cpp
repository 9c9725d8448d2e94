#include <hydra/compare/thresholds.hpp>

#include <cmath>

#include <hydra/error.hpp>

namespace hydra::compare {

Thresholds read_compare(config::TableReader& table, Thresholds defaults) {
  Thresholds thresholds = defaults;
  table.number("min_composite_gain", thresholds.min_composite_gain, config::non_negative);
  table.number("regression_composite_drop", thresholds.regression_composite_drop, config::non_negative);
  table.boolean("objective_drop_is_regression", thresholds.objective_drop_is_regression);
  table.reject_unknown_keys();
  return thresholds;
}

Thresholds parse_compare_table(std::string_view toml_text, const std::string& source_name,
                               Thresholds defaults) {
  const toml::table document = config::parse_toml(toml_text, source_name);
  config::TableReader root(document, "", source_name);
  if (auto table = root.table("compare")) return read_compare(*table, defaults);
  return defaults;
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
