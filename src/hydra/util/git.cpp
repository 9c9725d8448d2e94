#include <hydra/util/git.hpp>

#include <mutex>

#include <algorithm>
#include <fstream>
#include <set>

#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::util {
namespace fs = std::filesystem;

namespace {

ProcessResult git(const fs::path& directory, std::vector<std::string> arguments,
                  std::map<std::string, std::string> environment = {}) {
  return run_git(directory, arguments, environment);
}

}  // namespace

ProcessResult run_git(const fs::path& directory, const std::vector<std::string>& arguments,
                      const std::map<std::string, std::string>& environment,
                      const std::optional<std::string>& input) {
  ProcessRequest request;
  request.argv = {"git", "-C", directory.string()};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  request.environment = environment;
  request.environment["GIT_TERMINAL_PROMPT"] = "0";
  request.environment["LC_ALL"] = "C";
  request.stdin_text = input;
  request.keep_output_bytes = std::size_t(1) << 30;
  request.separate_stderr = true;
  request.timeout = git_timeout;
  ProcessResult result = run_process(request);
  if (!result.started) throw Error("cannot run git: " + result.error);
  return result;
}

ProcessResult checked_git(const fs::path& directory, const std::vector<std::string>& arguments,
                          const std::map<std::string, std::string>& environment,
                          const std::optional<std::string>& input) {
  ProcessResult result = run_git(directory, arguments, environment, input);
  if (result.exit_code != 0) {
    std::string command = "git";
    for (const auto& argument : arguments) command += " " + argument;
    throw Error(command + " failed (exit code " + std::to_string(result.exit_code) + "): " + result.error_output);
  }
  return result;
}

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

bool is_git_work_tree(const fs::path& directory) {
  if (!find_program("git")) return false;
  const auto result = git(directory, {"rev-parse", "--is-inside-work-tree"});
  return result.exit_code == 0 && trim(result.output) == "true";
}

std::string resolve_commit(const fs::path& repository, const std::string& ref) {
  const auto result = git(repository, {"rev-parse", "--verify", "--quiet", ref + "^{commit}"});
  if (result.exit_code != 0)
    throw Error("git: \"" + ref + "\" does not name a commit in " + repository.string(), ExitCode::usage);
  return trim(result.output);
}

fs::path work_tree_root(const fs::path& directory) {
  const auto result = git(directory, {"rev-parse", "--show-toplevel"});
  if (result.exit_code != 0) throw Error(directory.string() + " is not inside a git work tree");
  return trim(result.output);
}

namespace {

/// A build tree (CMake's, or HydraScore's capture tree with its marker), a
/// HydraScore run directory, or a capture's staging directory.
bool is_output_tree(const fs::path& directory) {
  std::error_code error;
  if (fs::exists(directory / "CMakeCache.txt", error) || fs::exists(directory / kBuildTreeMarker, error)) return true;
  const std::string name = directory.filename().string();
  if (!name.empty() && name.front() == '.' && name.find(".capture-") != std::string::npos) return true;  // staging
  const fs::path manifest = directory / "manifest.json";
  if (!fs::is_regular_file(manifest, error)) return false;
  // A run directory's manifest names its schema near the start.
  std::ifstream in(manifest, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("\"hydra-score/run/1\"") != std::string::npos;
}

void collect_output_trees(const fs::path& directory, std::vector<fs::path>& trees) {
  if (is_output_tree(directory)) {
    trees.push_back(directory);
    return;
  }
  std::error_code error;
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory, error)) names.insert(entry.path().filename().string());
  for (const auto& name : names) {
    const fs::path path = directory / name;
    if (fs::is_directory(fs::symlink_status(path, error))) {
      collect_output_trees(path, trees);
    } else if (name.size() > 6 && name.front() == '.' && name.compare(name.size() - 5, 5, ".lock") == 0) {
      // `.NAME.lock` beside a run directory NAME (the recapture lock).
      const std::string run = name.substr(1, name.size() - 6);
      if (names.count(run) && is_output_tree(directory / run)) trees.push_back(path);
    }
  }
}

/// The pathspec of a change of the work tree at `root` (its top level): the
/// whole tree without `excluded` and the untracked build trees and tool output.
std::vector<std::string> change_pathspec(const fs::path& root, const std::vector<fs::path>& excluded) {
  std::vector<fs::path> trees = excluded;
  // Any other build tree or tool output among the untracked directories (a
  // second build-debug/ next to build/, HydraScore's run directories and
  // capture trees kept inside the repository) is not part of the change either.
  const auto untracked = git(root, {"ls-files", "--others", "--exclude-standard", "--directory", "-z"});
  for (const std::string_view entry : split(untracked.output, '\0')) {
    if (!entry.empty() && entry.back() == '/') collect_output_trees(root / entry, trees);
  }
  std::vector<std::string> pathspec = {"--", "."};
  for (const auto& path : trees) {
    std::error_code ec;
    const fs::path absolute = fs::weakly_canonical(path, ec);
    const fs::path relative = absolute.lexically_relative(root);
    if (relative.empty() || relative.native().rfind("..", 0) == 0) continue;  // outside the tree
    // An ignored path is left out by git already, and naming it in a
    // pathspec makes `git add` refuse ("paths are ignored").
    if (git(root, {"check-ignore", "-q", relative.generic_string()}).exit_code == 0) continue;
    pathspec.push_back(":(exclude)" + relative.generic_string());
  }
  return pathspec;
}

}  // namespace

std::vector<std::string> change_files(const fs::path& repository, const std::vector<fs::path>& excluded) {
  const fs::path root = fs::canonical(work_tree_root(repository));
  std::vector<std::string> arguments = {"-c", "core.quotePath=false", "ls-files", "-z", "--cached", "--others",
                                        "--exclude-standard"};
  const std::vector<std::string> pathspec = change_pathspec(root, excluded);
  arguments.insert(arguments.end(), pathspec.begin(), pathspec.end());
  const auto listed = git(root, arguments);
  if (listed.exit_code != 0) throw Error("git ls-files failed in " + root.string() + ": " + listed.output);
  std::set<std::string> files;
  for (const std::string_view entry : split(listed.output, '\0'))
    if (!entry.empty()) files.emplace(entry);
  return {files.begin(), files.end()};
}

std::string diff_against(const fs::path& repository, const std::string& base_commit,
                         const std::vector<fs::path>& excluded) {
  const fs::path root = fs::canonical(work_tree_root(repository));
  const std::vector<std::string> pathspec = change_pathspec(root, excluded);
  // A private index: start from the base commit's tree, mark every untracked
  // (not ignored) file as intent-to-add, and diff the work tree against it.
  util::TempDir scratch("hydra-git");
  const std::map<std::string, std::string> environment = {
      {"GIT_INDEX_FILE", (scratch.path() / "index").string()}};
  auto read_tree = git(root, {"read-tree", base_commit}, environment);
  if (read_tree.exit_code != 0) throw Error("git read-tree " + base_commit + " failed: " + read_tree.output);
  std::vector<std::string> add = {"add", "--intent-to-add", "--all"};
  add.insert(add.end(), pathspec.begin(), pathspec.end());
  auto added = git(root, add, environment);
  if (added.exit_code != 0) throw Error("git add --intent-to-add failed: " + added.output);
  std::vector<std::string> diff = {"-c", "core.quotePath=true", "diff", "--binary", "--no-color",
                                   "--no-ext-diff", "-M", base_commit};
  diff.insert(diff.end(), pathspec.begin(), pathspec.end());
  auto result = git(root, diff, environment);
  if (result.exit_code != 0) throw Error("git diff failed: " + result.output);
  return result.output;
}

namespace {

/// One worktree change at a time in this process: captures run in parallel
/// threads, and a `git worktree prune` of one removes the entry another's
/// `git worktree add` has made and not yet filled.
std::mutex& worktree_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

void checkout_worktree(const fs::path& repository, const std::string& commit, const fs::path& path) {
  const std::lock_guard lock(worktree_mutex());
  std::error_code ec;
  if (fs::exists(path / ".git", ec)) {
    auto checkout = git(path, {"checkout", "--detach", "--force", commit});
    if (checkout.exit_code == 0) {
      git(path, {"clean", "-fdx", "--quiet"});
      return;
    }
    git(repository, {"worktree", "remove", "--force", path.string()});
    fs::remove_all(path, ec);
  }
  git(repository, {"worktree", "prune"});
  fs::create_directories(path.parent_path());
  auto added = git(repository, {"worktree", "add", "--detach", "--force", path.string(), commit});
  if (added.exit_code != 0)
    throw Error("git worktree add " + path.string() + " failed: " + added.output + added.error_output);
}

void remove_worktree(const fs::path& repository, const fs::path& path) {
  const std::lock_guard lock(worktree_mutex());
  try {
    git(repository, {"worktree", "remove", "--force", path.string()});
    std::error_code ec;
    fs::remove_all(path, ec);
    git(repository, {"worktree", "prune"});
  } catch (const Error&) {
    // git could not start: the directory stays for the next prune.
  }
}

std::vector<NamedRef> resolve_refs(const fs::path& repository, const std::vector<std::string>& patterns) {
  std::vector<NamedRef> refs;
  std::vector<std::string> seen;  // full ref names (or commits), each once
  for (const auto& pattern : patterns) {
    if (pattern.empty() || pattern.front() == '-')
      throw Error("\"" + pattern + "\" is not a ref pattern", ExitCode::usage);
    std::vector<std::string> arguments = {"for-each-ref", "--format=%(refname)%00%(refname:short)%00%(symref)",
                                          pattern};
    if (pattern.rfind("refs/", 0) != 0)
      for (const char* prefix : {"refs/heads/", "refs/tags/", "refs/remotes/"}) arguments.push_back(prefix + pattern);
    const auto listed = git(repository, arguments);
    if (listed.exit_code != 0)
      throw Error("git for-each-ref " + pattern + " failed in " + repository.string() + ": " + listed.error_output,
                  ExitCode::usage);
    bool matched = false;
    std::size_t start = 0;
    while (start < listed.output.size()) {
      std::size_t end = listed.output.find('\n', start);
      if (end == std::string::npos) end = listed.output.size();
      const std::string line = listed.output.substr(start, end - start);
      start = end + 1;
      const auto first = line.find('\0');
      const auto second = first == std::string::npos ? std::string::npos : line.find('\0', first + 1);
      if (second == std::string::npos) continue;
      const std::string full = line.substr(0, first);
      const std::string name = line.substr(first + 1, second - first - 1);
      if (second + 1 < line.size()) continue;  // a symbolic ref (origin/HEAD) names another ref
      const auto commit = git(repository, {"rev-parse", "--verify", "--quiet", full + "^{commit}"});
      if (commit.exit_code != 0) continue;  // a tag of a tree or blob
      matched = true;
      if (std::find(seen.begin(), seen.end(), full) != seen.end()) continue;
      seen.push_back(full);
      refs.push_back({name, trim(commit.output)});
    }
    if (matched) continue;
    const auto commit = git(repository, {"rev-parse", "--verify", "--quiet", pattern + "^{commit}"});
    if (commit.exit_code != 0)
      throw Error("git: no ref or commit matches \"" + pattern + "\" in " + repository.string(), ExitCode::usage);
    const std::string hash = trim(commit.output);
    if (std::find(seen.begin(), seen.end(), hash) != seen.end()) continue;
    seen.push_back(hash);
    refs.push_back({pattern, hash});
  }
  return refs;
}

}  // namespace hydra::util
