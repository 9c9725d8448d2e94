// The results store as a task-set source for `compare`: one side is an
// agent or a config digest's recorded history (docs/compare.md, "Task sets
// from the results store").
#pragma once

#include <filesystem>
#include <string>

#include <hydra/eval/task.hpp>
#include <hydra/store/store.hpp>

namespace hydra::compare {

/// Which rows make one side: those of `agent` (when set) and of
/// `config_digest` (when set), within `filter` (tasks, time range).
struct StoreSide {
  std::string agent;
  std::string config_digest;
};

/// One task per recorded task: its latest attempt (highest attempt, then
/// latest recorded, then run id). The checks are the tests dimension's
/// candidate counts, the build failed when the build dimension says so, the
/// cost is the agent's metrics. Throws hydra::UsageError when the side
/// selects nothing, and hydra::InputError for a bad store.
eval::TaskSet load_store_side(const std::filesystem::path& store_file, const StoreSide& side,
                              const store::RowFilter& filter);

}  // namespace hydra::compare
