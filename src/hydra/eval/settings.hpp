// The [eval] and [judge] tables of hydra.toml. A small reader of its own until
// the main config validator (hydra::config) takes these tables over; every
// other table is left to that validator. Reference: docs/compare.md.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <hydra/eval/composite.hpp>
#include <hydra/eval/judge.hpp>

namespace hydra::eval {

struct EvalTables {
  EvalSettings eval;
  JudgeSettings judge;
};

/// Reads [eval] (w_obj, w_judge, cost_weight, check_labels, check_regex) and
/// [judge] (command, timeout_seconds, rubric, rubric_file, template) from
/// hydra.toml text; absent keys keep their defaults. Relative paths in
/// [judge] are resolved against `base_directory`. Throws hydra::InputError
/// naming `source_name`, the key and its line:column for TOML syntax errors,
/// unknown keys, wrong types, out-of-range values (negative or non-finite
/// weights, w_obj = 0, cost_weight outside [0, 1], timeout <= 0) and an
/// invalid check_regex.
EvalTables parse_eval_tables(std::string_view toml_text, const std::string& source_name,
                             const std::filesystem::path& base_directory = {});

/// Reads and parses a file (relative paths resolve against its directory).
EvalTables load_eval_tables(const std::filesystem::path& file);

}  // namespace hydra::eval
