// The comparator's thresholds and the [compare] table of hydra.toml.
// Normative: shared/seeds/eval-composite-and-verdict.md. Reference: docs/compare.md.
#pragma once

#include <string>
#include <string_view>

#include <hydra/config/table_reader.hpp>

namespace hydra::compare {

struct Thresholds {
  /// The summed composite deltas must exceed this for `improved`; at or
  /// below its negative the verdict is `regressed`.
  double min_composite_gain = 0.01;
  /// A per-task composite drop larger than this is a hard regression.
  double regression_composite_drop = 0.05;
  /// Any drop in a task's objective pass rate or passed checks is a hard regression.
  bool objective_drop_is_regression = true;
};

/// Reads the [compare] table itself over `defaults`: see parse_compare_table.
Thresholds read_compare(config::TableReader& table, Thresholds defaults = {});

/// Reads the [compare] table (min_composite_gain, regression_composite_drop,
/// objective_drop_is_regression) from hydra.toml text over `defaults`; other
/// tables are ignored. Throws hydra::InputError naming `source_name`, the key
/// and its line:column for TOML syntax errors, unknown keys, wrong types and
/// negative or non-finite values.
Thresholds parse_compare_table(std::string_view toml_text, const std::string& source_name,
                               Thresholds defaults = {});

/// Throws hydra::UsageError when a threshold is negative or not finite.
void validate(const Thresholds& thresholds);

}  // namespace hydra::compare
