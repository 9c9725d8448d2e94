// One configuration's results over a set of tasks, as the comparator reads
// them: plain data (compare/task_set.hpp loads them from files and run
// directories). Reference: docs/compare.md ("Task sets").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/eval/composite.hpp>
#include <hydra/model/metrics.hpp>

namespace hydra::eval {

/// One task's result under one configuration.
struct TaskResult {
  std::string id;
  std::string source;  ///< the file or run directory it was read from (for reports)
  eval::CheckOutcome checks;
  std::optional<double> judge_score;  ///< nullopt: no judge score
  std::string judge_rationale;
  std::string judge_failure;  ///< why a judge that ran gave no score
  model::AgentMetrics cost;
  /// Problems with the run's data; any entry is a hard regression (fail closed).
  std::vector<std::string> integrity_problems;
};

/// The tasks of one SET, sorted by id; ids are unique.
struct TaskSet {
  std::string source;  ///< the SET as given
  std::vector<TaskResult> tasks;

  /// The task with `id`, or nullptr.
  const TaskResult* find(std::string_view id) const;
};

}  // namespace hydra::eval
