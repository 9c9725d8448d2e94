#include <hydra/loop/snapshot.hpp>

#include <map>

#include <hydra/util/git.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::loop {
namespace fs = std::filesystem;

namespace {

using GitResult = util::ProcessResult;
using util::checked_git;
using util::run_git;
using util::absolute_clean;
using util::trim;

/// The NUL-separated fields of git's `-z` output.
std::vector<std::string> split_nul(const std::string& text) {
  const auto views = util::split(text, '\0');
  return {views.begin(), views.end()};
}

/// `path` relative to `root` in generic form, or nullopt when outside it.
std::optional<std::string> inside(const fs::path& path, const fs::path& root) {
  const fs::path relative = absolute_clean(path).lexically_relative(root);
  if (relative.empty() || relative.native().rfind("..", 0) == 0) return std::nullopt;
  std::string text = relative.generic_string();
  while (!text.empty() && text.back() == '/') text.pop_back();
  return text.empty() ? "." : text;
}

const std::map<std::string, std::string> kIdentity = {
    {"GIT_AUTHOR_NAME", "HydraScore"},     {"GIT_AUTHOR_EMAIL", "hydra-score@localhost"},
    {"GIT_COMMITTER_NAME", "HydraScore"},  {"GIT_COMMITTER_EMAIL", "hydra-score@localhost"}};

}  // namespace

SnapshotStore::SnapshotStore(SnapshotScope scope, std::string name) {
  const fs::path source = absolute_clean(scope.source);
  const GitResult top = run_git(source, {"rev-parse", "--show-toplevel"});
  if (top.exit_code != 0)
    throw UsageError(source.string() + " is not inside a git work tree; the loop keeps its snapshots in git");
  root_ = fs::canonical(fs::path(trim(top.output)));
  const GitResult valid = run_git(root_, {"check-ref-format", "refs/hydra/loop/" + name + "/best"});
  if (name.empty() || valid.exit_code != 0) throw UsageError("\"" + name + "\" cannot name a git ref");
  ref_prefix_ = "refs/hydra/loop/" + name;

  const std::string source_relative = inside(source, root_).value_or(".");
  if (scope.paths.empty()) {
    included_.push_back(source_relative);
  } else {
    for (const auto& path : scope.paths) {
      const auto relative = inside(source / path, root_);
      if (!relative) throw UsageError("loop path \"" + path + "\" is outside the repository");
      included_.push_back(*relative);
    }
  }
  for (const auto& path : scope.excluded) {
    const auto relative = inside(path, root_);
    if (!relative || *relative == ".") continue;
    // An ignored tree is never added anyway, and git refuses pathspecs naming one.
    if (run_git(root_, {"check-ignore", "--quiet", *relative}).exit_code == 0) continue;
    excluded_.push_back(*relative);
  }
  const GitResult best = run_git(root_, {"rev-parse", "--verify", "--quiet", ref_prefix_ + "/best"});
  if (best.exit_code == 0) last_kept_commit_ = trim(best.output);
}

std::vector<std::string> SnapshotStore::pathspec() const {
  std::vector<std::string> spec = {"--"};
  for (const auto& path : included_) spec.push_back(path == "." ? ":(top)" : ":(top,literal)" + path);
  for (const auto& path : excluded_) spec.push_back(":(top,exclude,literal)" + path);
  return spec;
}

std::vector<std::string> SnapshotStore::differences(const std::string& from, const std::string& to) const {
  std::vector<std::string> diff = {"diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to};
  const auto spec = pathspec();
  diff.insert(diff.end(), spec.begin(), spec.end());
  return split_nul(checked_git(root_, diff).output);
}

std::string SnapshotStore::capture_tree() const {
  util::TempDir scratch("hydra-loop-index");
  const std::map<std::string, std::string> environment = {{"GIT_INDEX_FILE", (scratch.path() / "index").string()}};
  // Start from HEAD (when there is one) so files outside the scope keep their
  // committed state and tracked files stay tracked; then take the scope as it is.
  const GitResult head = run_git(root_, {"rev-parse", "--verify", "--quiet", "HEAD^{tree}"});
  if (head.exit_code == 0) checked_git(root_, {"read-tree", std::string(trim(head.output))}, environment);
  else checked_git(root_, {"read-tree", "--empty"}, environment);
  std::vector<std::string> add = {"add", "--all"};  // never adds ignored files
  const auto spec = pathspec();
  add.insert(add.end(), spec.begin(), spec.end());
  checked_git(root_, add, environment);
  return std::string(trim(checked_git(root_, {"write-tree"}, environment).output));
}

std::string SnapshotStore::keep(const std::string& tree, int iteration) {
  std::vector<std::string> arguments = {"commit-tree", tree, "-m", "HydraScore loop snapshot: iteration " + std::to_string(iteration)};
  if (!last_kept_commit_.empty()) arguments.insert(arguments.end(), {"-p", last_kept_commit_});
  const std::string commit(trim(checked_git(root_, arguments, kIdentity).output));
  checked_git(root_, {"update-ref", ref_prefix_ + "/" + std::to_string(iteration), commit});
  checked_git(root_, {"update-ref", ref_prefix_ + "/best", commit});
  last_kept_commit_ = commit;
  return commit;
}

std::size_t SnapshotStore::restore(const std::string& tree) const {
  const std::string current = capture_tree();
  if (current == tree) return 0;
  const std::vector<std::string> fields = differences(tree, current);

  std::vector<std::string> to_remove;
  std::vector<std::string> to_write;
  for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
    const char status = fields[i].empty() ? '?' : fields[i][0];
    const std::string& path = fields[i + 1];
    if (status == 'A') to_remove.push_back(path);                      // not in the snapshot
    else if (status == 'D') to_write.push_back(path);                  // missing from the tree
    else { to_remove.push_back(path); to_write.push_back(path); }      // changed content, mode or type
  }
  for (const auto& path : to_remove) {
    const fs::path file = root_ / path;
    std::error_code ec;
    fs::remove(file, ec);
    if (ec) throw Error("cannot remove " + file.string() + ": " + ec.message());
    // Remove the directories this empties, up to (not including) the root.
    for (fs::path directory = file.parent_path(); directory != root_ && directory.native().size() > root_.native().size();
         directory = directory.parent_path()) {
      if (!fs::is_directory(directory, ec) || !fs::is_empty(directory, ec)) break;
      fs::remove(directory, ec);
    }
  }
  if (!to_write.empty()) {
    util::TempDir scratch("hydra-loop-index");
    const std::map<std::string, std::string> environment = {{"GIT_INDEX_FILE", (scratch.path() / "index").string()}};
    checked_git(root_, {"read-tree", tree}, environment);
    std::string input;
    for (const auto& path : to_write) {
      // A directory the improver left where the snapshot has a file.
      std::error_code ec;
      if (fs::is_directory(fs::symlink_status(root_ / path, ec))) fs::remove_all(root_ / path, ec);
      input += path;
      input += '\0';
    }
    checked_git(root_, {"checkout-index", "--force", "-z", "--stdin"}, environment, input);
  }
  const std::string restored = capture_tree();
  if (!differences(tree, restored).empty())
    throw Error("restoring snapshot " + tree + " left the tree at " + restored + " (" + root_.string() + ")");
  return to_remove.size() + to_write.size();
}

}  // namespace hydra::loop
