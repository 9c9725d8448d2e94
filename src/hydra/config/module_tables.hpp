// Readers of hydra.toml's module tables ([eval], [judge], [compare],
// [anti_gaming], [loop]) into config/settings.hpp's types. Used by
// config::parse only; errors name the key and its line:column.
#pragma once

#include <filesystem>

#include <hydra/config/settings.hpp>
#include <hydra/config/table_reader.hpp>

namespace hydra::config {

/// [eval] (w_obj, w_judge, cost_weight, check_labels, check_regex). Throws
/// hydra::InputError for unknown keys, wrong types, out-of-range values
/// (negative or non-finite weights, w_obj = 0, cost_weight outside [0, 1]) and
/// an invalid check_regex.
EvalSettings read_eval(TableReader& table);

/// [judge] (command, timeout_seconds, rubric, rubric_file, template); relative
/// paths resolve against `base_directory`. Throws hydra::InputError as above,
/// for a timeout <= 0 and for rubric and rubric_file given together.
JudgeSettings read_judge(TableReader& table, const std::filesystem::path& base_directory);

/// [compare] (min_composite_gain, regression_composite_drop,
/// objective_drop_is_regression); negative or non-finite values are errors.
CompareThresholds read_compare(TableReader& table);

/// [anti_gaming] (suppression_weight, assertion_penalty,
/// test_tampering_is_regression, fail_gate_on_tampering, assertion_patterns,
/// test_file_globs, protected_config_files); invalid regular expressions and
/// empty patterns are errors.
AntiGaming read_anti_gaming(TableReader& table);

/// [loop] (max_iterations, stuck_after, metric, improver,
/// improver_timeout_seconds, paths); max_iterations or stuck_after below 1, a
/// metric other than "pass_rate"/"composite", and an absolute path or one
/// that leaves the source tree with ".." are errors.
LoopSettings read_loop(TableReader& table);
/// [cache]; a relative `directory` is resolved against `base_directory`.
CacheSettings read_cache(TableReader& table, const std::filesystem::path& base_directory);

/// [sandbox] (network, require, environment, hidden, read_only,
/// memory_megabytes, cpu_seconds, processes); relative paths resolve against
/// `base_directory`. A variable name that is not [A-Za-z_][A-Za-z0-9_]* (with
/// an optional final "*") and an empty path are errors.
SandboxSettings read_sandbox(TableReader& table, const std::filesystem::path& base_directory);

}  // namespace hydra::config
