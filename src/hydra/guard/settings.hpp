// The [anti_gaming] table of hydra.toml: how the anti-gaming detectors look
// at a candidate and what their findings cost. Reference: docs/threat-model.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <hydra/config/table_reader.hpp>

#include <hydra/guard/settings_types.hpp>

namespace hydra::guard {

/// Reads the [anti_gaming] table itself (keys suppression_weight,
/// assertion_penalty, test_tampering_is_regression, fail_gate_on_tampering,
/// assertion_patterns, test_file_globs, protected_config_files); absent keys
/// keep their defaults. Throws hydra::InputError naming the file,
/// "anti_gaming.<key>" and the node's line:column for unknown keys, wrong
/// types, negative or non-finite weights, empty patterns and invalid regular
/// expressions.
Settings read_anti_gaming(config::TableReader& table);

/// Reads the [anti_gaming] table of hydra.toml text (`toml_text`); other
/// tables are ignored; no table gives the defaults. Throws hydra::InputError
/// as above, and for TOML syntax errors or an [anti_gaming] that is not a table.
Settings parse_anti_gaming(std::string_view toml_text, const std::string& source_name);

}  // namespace hydra::guard
