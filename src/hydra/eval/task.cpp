#include <hydra/eval/task.hpp>

#include <algorithm>

namespace hydra::eval {

const TaskResult* TaskSet::find(std::string_view id) const {
  auto found = std::lower_bound(tasks.begin(), tasks.end(), id,
                                [](const TaskResult& task, std::string_view wanted) { return task.id < wanted; });
  return found != tasks.end() && found->id == id ? &*found : nullptr;
}

}  // namespace hydra::eval
