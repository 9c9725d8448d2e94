// The [eval] and [judge] tables of hydra.toml. config::parse validates them
// with read_eval_tables along with the rest of the file. Reference:
// docs/compare.md.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <hydra/config/table_reader.hpp>
#include <hydra/eval/composite.hpp>
#include <hydra/eval/judge.hpp>

namespace hydra::eval {

struct EvalTables {
  EvalSettings eval;
  JudgeSettings judge;
};

/// Reads the [eval] and [judge] tables of the document whose root is `root`:
/// see parse_eval_tables.
EvalTables read_eval_tables(config::TableReader& root, const std::filesystem::path& base_directory = {});

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
