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

namespace {

/// GitMemo's memory: this thread's, while a scope lives.
struct GitMemory {
  int depth = 0;
  std::map<std::string, std::set<std::string>> drivers;  ///< directory and environment -> filter drivers
  std::map<std::string, fs::path> tops;                   ///< directory -> work tree root
};
thread_local GitMemory git_memory;

/// The key of a filter listing: the directory and the whole environment.
std::string memo_key(const fs::path& directory, const std::map<std::string, std::string>& environment) {
  std::string key = directory.string();
  for (const auto& [name, value] : environment) key += std::string(1, '\0') + name + "=" + value;
  return key;
}

/// The environment of every git command: no system or user configuration,
/// no system attributes, no prompt, the C locale.
std::map<std::string, std::string> git_environment(std::map<std::string, std::string> environment) {
  environment["GIT_TERMINAL_PROMPT"] = "0";
  environment["LC_ALL"] = "C";
  environment["GIT_CONFIG_NOSYSTEM"] = "1";
  environment["GIT_CONFIG_GLOBAL"] = "/dev/null";
  environment["GIT_ATTR_NOSYSTEM"] = "1";
  // A clone's refs/replace or grafts would make a commit (or one file of it)
  // read as other content: every command reads objects as they are.
  environment["GIT_NO_REPLACE_OBJECTS"] = "1";
  environment["GIT_GRAFT_FILE"] = "/dev/null";
  // No transport at all: a partial clone's missing object is never fetched
  // (a promisor remote's `uploadpack`, `sshCommand` or URL would run a
  // command of the clone's, outside every sandbox), nor is a submodule.
  // GIT_ALLOW_PROTOCOL overrides every `protocol.*` setting of the clone;
  // "none" names no protocol.
  environment["GIT_ALLOW_PROTOCOL"] = "none";
  environment["GIT_PROTOCOL_FROM_USER"] = "0";
  environment["GIT_NO_LAZY_FETCH"] = "1";
  return environment;
}

/// The options that switch off what a repository's own configuration could
/// make git run or hide: hooks, the fsmonitor, attribute and ignore files
/// named in the config, line-ending conversion, signing, sparse checkouts,
/// links checked out as files, modes ignored, coloured or unprefixed diffs,
/// automatic maintenance, and every filter
/// driver the configuration defines (diffs pass --no-ext-diff --no-textconv) (their commands emptied; an empty
/// command is no filter, and none is required).
std::vector<std::string> neutral_options(const fs::path& directory, const std::map<std::string, std::string>& environment) {
  std::vector<std::string> options = {"-c", "core.hooksPath=/dev/null", "-c", "core.attributesFile=/dev/null",
                                      "-c", "core.excludesFile=/dev/null", "-c", "core.fsmonitor=false",
                                      "-c", "core.untrackedCache=false", "-c", "core.autocrlf=false",
                                      "-c", "core.safecrlf=false", "-c", "commit.gpgSign=false",
                                      "-c", "log.showSignature=false",
                                      // What a checkout writes and how an index is read: every
                                      // file and link of the commit, as the commit holds it.
                                      "-c", "core.symlinks=true", "-c", "core.fileMode=true",
                                      "-c", "core.ignoreCase=false", "-c", "core.precomposeUnicode=false",
                                      "-c", "core.sparseCheckout=false", "-c", "core.sparseCheckoutCone=false",
                                      "-c", "index.sparse=false", "-c", "core.splitIndex=false",
                                      "-c", "submodule.recurse=false", "-c", "core.checkStat=default",
                                      // What a diff prints: plain text, with a/ and b/ prefixes.
                                      "-c", "color.ui=false", "-c", "diff.noprefix=false",
                                      "-c", "diff.mnemonicPrefix=false", "-c", "diff.relative=false",
                                      "-c", "core.quotePath=true",
                                      // No background work.
                                      "-c", "gc.auto=0", "-c", "maintenance.auto=false",
                                      // No fetch (see git_environment), whatever the clone allows.
                                      "-c", "protocol.allow=never", "-c", "fetch.recurseSubmodules=false",
                                      // Messages are git's errors only (GIT_GRAFT_FILE names /dev/null).
                                      "-c", "advice.graftFileDeprecated=false"};
  const std::string key = git_memory.depth > 0 ? memo_key(directory, environment) : std::string();
  const auto remembered = key.empty() ? git_memory.drivers.end() : git_memory.drivers.find(key);
  std::set<std::string> drivers;
  if (remembered != git_memory.drivers.end()) {
    drivers = remembered->second;
  } else {
    ProcessRequest request;
    request.argv = {"git", "-C", directory.string(), "config", "--null", "--get-regexp", "^filter\\."};
    request.environment = environment;
    request.keep_output_bytes = std::size_t(1) << 24;
    request.separate_stderr = true;
    request.timeout = git_timeout;
    const ProcessResult listed = run_process(request);
    if (listed.started && listed.exit_code == 0) {
      for (const std::string_view entry : split(listed.output, '\0')) {
        const std::string_view name = entry.substr(0, entry.find('\n'));
        const auto last = name.rfind('.');
        if (name.size() > 7 && last != std::string_view::npos && last > 7) drivers.emplace(name.substr(7, last - 7));
      }
    }
    // Remembered only when git read the configuration (1: no filter there).
    if (!key.empty() && listed.started && (listed.exit_code == 0 || listed.exit_code == 1))
      git_memory.drivers[key] = drivers;
  }
  for (const auto& driver : drivers)
    for (const char* setting : {".clean=", ".smudge=", ".process=", ".required=false"})
      options.insert(options.end(), {"-c", "filter." + driver + setting});
  return options;
}

}  // namespace

ProcessResult run_git(const fs::path& directory, const std::vector<std::string>& arguments,
                      const std::map<std::string, std::string>& environment,
                      const std::optional<std::string>& input) {
  ProcessRequest request;
  request.environment = git_environment(environment);
  request.argv = {"git"};
  const std::vector<std::string> options = neutral_options(directory, request.environment);
  request.argv.insert(request.argv.end(), options.begin(), options.end());
  request.argv.insert(request.argv.end(), {"-C", directory.string()});
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
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

bool is_git_work_tree(const fs::path& directory) {
  if (!find_program("git")) return false;
  const auto result = git(directory, {"rev-parse", "--is-inside-work-tree"});
  return result.exit_code == 0 && trim(result.output) == "true";
}

std::string resolve_commit(const fs::path& repository, const std::string& ref) {
  const auto result = git(repository, {"rev-parse", "--verify", "--quiet", ref + "^{commit}"});
  if (result.exit_code != 0)
    throw UsageError("git: \"" + ref + "\" does not name a commit in " + repository.string());
  return std::string(trim(result.output));
}

fs::path work_tree_root(const fs::path& directory) {
  if (git_memory.depth > 0) {
    const auto remembered = git_memory.tops.find(directory.string());
    if (remembered != git_memory.tops.end()) return remembered->second;
  }
  const auto result = git(directory, {"rev-parse", "--show-toplevel"});
  if (result.exit_code != 0) throw Error(directory.string() + " is not inside a git work tree");
  fs::path top(trim(result.output));
  if (git_memory.depth > 0) git_memory.tops[directory.string()] = top;
  return top;
}

GitMemo::GitMemo() { ++git_memory.depth; }

GitMemo::~GitMemo() {
  if (--git_memory.depth == 0) {
    git_memory.drivers.clear();
    git_memory.tops.clear();
  }
}

namespace {

/// A git directory HydraScore owns, made afresh in a temporary folder: the
/// repository's objects through an alternate, and none of what the
/// repository or its tree could supply: no configuration (beyond the
/// neutral options of every command), hooks, ignore lists (only the tree's
/// own `.gitignore` files, which are files of the change) and attributes
/// (its info/attributes returns every attribute that changes how content is
/// read or shown to unspecified, over any `.gitattributes`).
class PrivateGitDir {
 public:
  explicit PrivateGitDir(const fs::path& repository) : scratch_("hydra-git") {
    const auto common = run_git(repository, {"rev-parse", "--path-format=absolute", "--git-common-dir"});
    if (common.exit_code != 0)
      throw Error(repository.string() + " is not inside a git repository: " + common.error_output);
    const fs::path dir = scratch_.path() / "git";
    fs::create_directories(dir / "objects" / "info");
    fs::create_directories(dir / "refs");
    fs::create_directories(dir / "info");
    write_file_atomic(dir / "HEAD", "ref: refs/heads/hydra-private\n");
    write_file_atomic(dir / "config", "[core]\n\trepositoryformatversion = 0\n");
    write_file_atomic(dir / "objects" / "info" / "alternates", (fs::path(trim(common.output)) / "objects").string() + "\n");
    write_file_atomic(dir / "info" / "attributes",
                      "* !diff !merge !filter !text !eol !ident !working-tree-encoding !export-ignore !export-subst\n");
  }

  /// GIT_DIR, a private index and (when given) the work tree.
  std::map<std::string, std::string> environment(const fs::path& work_tree = {}) const {
    std::map<std::string, std::string> environment = {{"GIT_DIR", (scratch_.path() / "git").string()},
                                                      {"GIT_INDEX_FILE", (scratch_.path() / "index").string()}};
    if (!work_tree.empty()) environment["GIT_WORK_TREE"] = work_tree.string();
    return environment;
  }

  /// A folder of its own with nothing in it (where commands without a work tree run).
  fs::path empty_folder() const {
    const fs::path folder = scratch_.path() / "empty";
    fs::create_directories(folder);
    return folder;
  }

 private:
  TempDir scratch_;
};

}  // namespace

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
std::vector<std::string> change_pathspec(const fs::path& root, const std::vector<fs::path>& excluded,
                                         const std::map<std::string, std::string>& environment) {
  std::vector<fs::path> trees = excluded;
  // Any other build tree or tool output among the untracked directories (a
  // second build-debug/ next to build/, HydraScore's run directories and
  // capture trees kept inside the repository) is not part of the change either.
  const auto untracked = git(root, {"ls-files", "--others", "--exclude-standard", "--directory", "-z"}, environment);
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
    if (git(root, {"check-ignore", "-q", relative.generic_string()}, environment).exit_code == 0) continue;
    pathspec.push_back(":(exclude)" + relative.generic_string());
  }
  return pathspec;
}

}  // namespace

std::vector<std::string> change_files(const fs::path& repository, const std::vector<fs::path>& excluded) {
  const fs::path root = fs::canonical(work_tree_root(repository));
  // The files of the repository's HEAD and every untracked file, listed
  // through the private git directory (its ignore lists and attributes are
  // not the repository's). Without a commit, every file is untracked.
  const PrivateGitDir own(root);
  const std::map<std::string, std::string> environment = own.environment(root);
  const auto head = git(root, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
  if (head.exit_code == 0) {
    const auto read_tree = git(root, {"read-tree", std::string(trim(head.output))}, environment);
    if (read_tree.exit_code != 0) throw Error("git read-tree HEAD failed in " + root.string() + ": " + read_tree.error_output);
  }
  std::vector<std::string> arguments = {"-c", "core.quotePath=false", "ls-files", "-z", "--cached", "--others",
                                        "--exclude-standard"};
  const std::vector<std::string> pathspec = change_pathspec(root, excluded, environment);
  arguments.insert(arguments.end(), pathspec.begin(), pathspec.end());
  const auto listed = git(root, arguments, environment);
  if (listed.exit_code != 0) throw Error("git ls-files failed in " + root.string() + ": " + listed.output);
  std::set<std::string> files;
  for (const std::string_view entry : split(listed.output, '\0'))
    if (!entry.empty()) files.emplace(entry);
  return {files.begin(), files.end()};
}

std::vector<fs::path> paths_outside_change(const fs::path& repository) {
  const fs::path root = fs::canonical(work_tree_root(repository));
  std::set<fs::path> paths;
  const auto common = git(root, {"rev-parse", "--path-format=absolute", "--git-common-dir"});
  if (common.exit_code == 0 && !trim(common.output).empty()) paths.insert(fs::path(std::string(trim(common.output))));
  std::error_code error;
  if (fs::exists(fs::symlink_status(root / ".git", error))) paths.insert(root / ".git");
  // Listed through the private git directory, HEAD's files in its index
  // (a tracked file an ignore rule matches is no ignored file).
  const PrivateGitDir own(root);
  const std::map<std::string, std::string> environment = own.environment(root);
  const auto head = git(root, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
  if (head.exit_code == 0) git(root, {"read-tree", std::string(trim(head.output))}, environment);
  const std::vector<std::string> listing = {"-c", "core.quotePath=false", "ls-files", "-z", "--others",
                                            "--exclude-standard", "--directory"};
  std::vector<std::string> ignored = listing;
  ignored.push_back("--ignored");
  const std::string ignored_listing = git(root, ignored, environment).output;
  for (const std::string_view entry : split(ignored_listing, '\0')) {
    std::string relative(entry);
    while (!relative.empty() && relative.back() == '/') relative.pop_back();
    if (!relative.empty()) paths.insert(root / relative);
  }
  // A nested repository is listed as its folder ("vendor/parts/"), never
  // descended into. An untracked build tree or tool output (a folder with a
  // CMakeCache.txt, a run directory) is no part of a change either
  // (change_pathspec), so none of it is shown to the steps.
  const std::vector<std::string> untracked(listing.begin(), listing.end() - 1);
  const std::string untracked_listing = git(root, untracked, environment).output;
  for (const std::string_view entry : split(untracked_listing, '\0')) {
    if (entry.empty() || entry.back() != '/') continue;
    const fs::path folder = root / std::string(entry.substr(0, entry.size() - 1));
    if (fs::exists(fs::symlink_status(folder / ".git", error))) paths.insert(folder);
  }
  std::vector<fs::path> outputs;
  for (const std::string_view entry : split(git(root, listing, environment).output, '\0'))
    if (!entry.empty() && entry.back() == '/') collect_output_trees(root / std::string(entry), outputs);
  for (const auto& output : outputs) paths.insert(absolute_clean(output));
  return {paths.begin(), paths.end()};
}

std::string diff_against(const fs::path& repository, const std::string& base_commit,
                         const std::vector<fs::path>& excluded) {
  const fs::path root = fs::canonical(work_tree_root(repository));
  // A private git directory and index: start from the base commit's tree,
  // mark every untracked file (not ignored by the tree's own .gitignore) as
  // intent-to-add, and diff the work tree against it, with no attribute,
  // filter, ignore list or setting of the repository.
  const PrivateGitDir own(root);
  const std::map<std::string, std::string> environment = own.environment(root);
  const std::vector<std::string> pathspec = change_pathspec(root, excluded, environment);
  auto read_tree = git(root, {"read-tree", base_commit}, environment);
  if (read_tree.exit_code != 0) throw Error("git read-tree " + base_commit + " failed: " + read_tree.output);
  std::vector<std::string> add = {"add", "--intent-to-add", "--all"};
  add.insert(add.end(), pathspec.begin(), pathspec.end());
  auto added = git(root, add, environment);
  if (added.exit_code != 0) throw Error("git add --intent-to-add failed: " + added.output);
  std::vector<std::string> diff = {"-c", "core.quotePath=true", "diff", "--binary", "--no-color",
                                   "--no-ext-diff", "--no-textconv", "-M", base_commit};
  diff.insert(diff.end(), pathspec.begin(), pathspec.end());
  auto result = git(root, diff, environment);
  if (result.exit_code != 0) throw Error("git diff failed: " + result.output + result.error_output);
  return result.output;
}

std::string diff_commits(const fs::path& repository, const std::string& base_commit, const std::string& commit) {
  const PrivateGitDir own(repository);
  const auto result = git(own.empty_folder(),
                          {"-c", "core.quotePath=true", "diff", "--binary", "--no-color", "--no-ext-diff",
                           "--no-textconv", "-M", base_commit, commit},
                          own.environment());
  if (result.exit_code != 0)
    throw Error("git diff " + base_commit + " " + commit + " failed: " + result.output + result.error_output);
  return result.output;
}

std::vector<NamedRef> resolve_refs(const fs::path& repository, const std::vector<std::string>& patterns) {
  std::vector<NamedRef> refs;
  std::vector<std::string> seen;  // full ref names (or commits), each once
  for (const auto& pattern : patterns) {
    if (pattern.empty() || pattern.front() == '-')
      throw UsageError("\"" + pattern + "\" is not a ref pattern");
    std::vector<std::string> arguments = {"for-each-ref", "--format=%(refname)%00%(refname:short)%00%(symref)",
                                          pattern};
    if (pattern.rfind("refs/", 0) != 0)
      for (const char* prefix : {"refs/heads/", "refs/tags/", "refs/remotes/"}) arguments.push_back(prefix + pattern);
    const auto listed = git(repository, arguments);
    if (listed.exit_code != 0)
      throw UsageError("git for-each-ref " + pattern + " failed in " + repository.string() + ": " +
                       listed.error_output);
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
      refs.push_back({name, std::string(trim(commit.output))});
    }
    if (matched) continue;
    const auto commit = git(repository, {"rev-parse", "--verify", "--quiet", pattern + "^{commit}"});
    if (commit.exit_code != 0)
      throw UsageError("git: no ref or commit matches \"" + pattern + "\" in " + repository.string());
    const std::string hash(trim(commit.output));
    if (std::find(seen.begin(), seen.end(), hash) != seen.end()) continue;
    seen.push_back(hash);
    refs.push_back({pattern, hash});
  }
  return refs;
}

}  // namespace hydra::util
