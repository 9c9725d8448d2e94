// Task sets: the results of one configuration over a set of tasks, read from
// a task-result JSON file or a directory of such files and run directories.
// Reference: docs/compare.md ("Task sets").
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/eval/task.hpp>
#include <hydra/eval/judge.hpp>
#include <hydra/model/metrics.hpp>

namespace hydra::compare {

/// The schema string a task-result JSON file must carry.
inline constexpr std::string_view task_file_schema = "hydra-score/tasks/1";

/// One task's result and a set of them (plain data, eval/task.hpp).
using eval::TaskResult;
using eval::TaskSet;


/// How run directories become task results.
struct LoadOptions {
  eval::EvalSettings eval;  ///< which tests are checks
  /// When set and its command non-empty, each run directory's diff is judged.
  std::optional<eval::JudgeSettings> judge;
};

/// Parses task-result JSON text
/// ({"schema":"hydra-score/tasks/1","tasks":[{"id","objective":{"passed","total"},
/// "judge":{"score0to1","rationale"},"cost":{...}}]}). Throws hydra::InputError
/// naming `source_name` and the line:column of the offending value for
/// malformed JSON, a wrong schema, unknown keys, wrong types, passed > total,
/// a judge score outside [0, 1], negative costs and duplicate ids.
std::vector<TaskResult> parse_task_file(std::string_view json_text, const std::string& source_name);

/// A run directory as a task: the id is the manifest's "task" (the directory
/// name when empty), the checks are its tests (eval::check_outcome), the cost
/// its agent metrics. Runs the judge when `options.judge` has a command.
/// Throws hydra::InputError / hydra::Tampered for a bad run directory.
TaskResult load_run_task(const std::filesystem::path& run_dir, const LoadOptions& options);

/// Loads a SET: a task-result JSON file; a run directory; or a directory whose
/// entries are task-result JSON files (`*.json`) and run directories (read in
/// name order; hidden entries and other files are skipped; a subdirectory
/// that is not a run directory is an error). Throws hydra::InputError for a
/// missing path, bad entries and an id given twice.
TaskSet load_task_set(const std::filesystem::path& set, const LoadOptions& options);

}  // namespace hydra::compare
