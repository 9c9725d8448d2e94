// The state test attempts start from (attempt_state.hpp).
#include <hydra/capture/runners/attempt_state.hpp>

#include <algorithm>

#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

/// Every file and folder under `root` (relative), the `excluded` folders left out.
BuildTreeState walk(const fs::path& root, const std::vector<fs::path>& excluded) {
  BuildTreeState state;
  state.root = root;
  state.excluded = excluded;
  std::error_code error;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    const fs::path path = it->path();
    const std::string name = path.lexically_relative(root).generic_string();
    std::error_code ignored;
    if (it->is_directory(ignored) && !it->is_symlink(ignored)) {
      if (std::any_of(excluded.begin(), excluded.end(), [&](const fs::path& tree) { return util::is_within(path, tree); })) {
        it.disable_recursion_pending();
        continue;
      }
      state.folders.insert(name);
      continue;
    }
    FileStamp stamp;
    if (!stamp_of(path, stamp)) continue;
    stamp.changed_ns = 0;  // not compared (attempt_state.hpp)
    state.files.emplace(name, stamp);
  }
  return state;
}

}  // namespace

BuildTreeState record_build_tree(const fs::path& root, const std::vector<fs::path>& excluded) {
  return walk(root, excluded);
}

std::vector<std::string> restore_build_tree(const BuildTreeState& state) {
  const BuildTreeState now = walk(state.root, state.excluded);
  std::vector<std::string> lost;
  std::error_code error;
  for (const auto& [name, stamp] : now.files) {
    const auto found = state.files.find(name);
    if (found == state.files.end()) fs::remove(state.root / name, error);
    else if (found->second != stamp) lost.push_back(name + ": written");
  }
  for (const auto& [name, stamp] : state.files)
    if (!now.files.count(name)) lost.push_back(name + ": deleted");
  // Deepest first, so a created folder is empty when it goes.
  for (auto it = now.folders.rbegin(); it != now.folders.rend(); ++it)
    if (!state.folders.count(*it)) fs::remove_all(state.root / *it, error);
  for (const auto& name : state.folders)
    if (!now.folders.count(name)) lost.push_back(name + "/: deleted");
  std::sort(lost.begin(), lost.end());
  return lost;
}

}  // namespace hydra::capture
