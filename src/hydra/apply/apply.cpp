// hydra-score apply: a candidate's stored change onto the working tree, only
// after every check passed (docs/cli.md, "hydra-score apply").
#include <hydra/apply/apply.hpp>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>

namespace hydra::apply {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json read_score(const fs::path& file) {
  const std::string text = util::read_file(file);
  json contract;
  try {
    contract = json::parse(text);
  } catch (const json::parse_error& error) {
    throw InputError(file.string(), std::string("not a score JSON: ") + error.what());
  }
  if (!contract.is_object() || contract.value("schema", std::string()) != "hydra-score/score/1" ||
      !contract.contains("rankings") || !contract["rankings"].is_array())
    throw InputError(file.string(), "not a score JSON written by `hydra-score score --json` "
                                    "(schema \"hydra-score/score/1\" with \"rankings\")");
  return contract;
}

/// The ranking entry to apply: `agent`'s, else the first (top-ranked).
const json& choose(const json& contract, const std::string& agent, const fs::path& file) {
  const json& rankings = contract["rankings"];
  if (rankings.empty()) throw InputError(file.string(), "ranks no candidate");
  if (agent.empty()) return rankings.front();
  std::string names;
  for (const auto& entry : rankings) {
    const std::string name = entry.value("agent", std::string());
    if (name == agent) return entry;
    names += (names.empty() ? "" : ", ") + name;
  }
  throw InputError(file.string(), "ranks no agent \"" + agent + "\" (it ranks: " + names + ")");
}

/// A run path as the score recorded it: absolute, else relative to the
/// current directory, else to the score file's directory (as replay reads it).
fs::path run_directory(const json& entry, const fs::path& score_file) {
  const json run = entry.value("run", json::object());
  const std::string recorded = run.value("path", std::string());
  if (recorded.empty()) throw InputError(score_file.string(), "the candidate's entry names no run directory");
  const fs::path path = recorded;
  if (path.is_absolute() || fs::is_directory(path)) return util::absolute_clean(path);
  const fs::path beside = util::absolute_clean(score_file).parent_path() / path;
  if (fs::is_directory(beside)) return util::absolute_clean(beside);
  throw InputError(score_file.string(), "the run directory " + recorded + " of agent \"" +
                                            entry.value("agent", std::string()) + "\" does not exist");
}

/// The NUL-separated fields of git's `-z` output.
std::vector<std::string> nul_fields(const std::string& text) {
  const auto views = util::split(text, '\0');
  return {views.begin(), views.end()};
}

/// The work tree's changes against HEAD, as `git status` lists them; CMake
/// build trees among the untracked directories are not changes.
std::vector<std::string> dirty_paths(const fs::path& root) {
  const auto status =
      util::checked_git(root, {"status", "--porcelain=v1", "-z", "--untracked-files=normal", "--ignore-submodules=none"});
  const std::vector<std::string> fields = nul_fields(status.output);
  std::vector<std::string> dirty;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& field = fields[i];
    if (field.size() < 4) continue;
    const std::string code = field.substr(0, 2);
    const std::string path = field.substr(3);
    if (code[0] == 'R' || code[0] == 'C') ++i;  // the source path follows
    if (code == "??" && !path.empty() && path.back() == '/' && fs::exists(root / path / "CMakeCache.txt")) continue;
    dirty.push_back(code + " " + path);
  }
  return dirty;
}

}  // namespace

ApplyResult apply_candidate(const ApplyRequest& request) {
  const json contract = read_score(request.score_file);
  ApplyResult result;
  std::string scored_digest;
  // A value of the wrong type in the score JSON is an input error naming it.
  try {
    const json& entry = choose(contract, request.agent, request.score_file);
    result.agent = entry.value("agent", std::string());
    result.rank = entry.value("rank", 0);
    result.mergeable = entry.value("mergeable", false);
    for (const auto& failure : entry.value("gate_failures", json::array()))
      result.gate_failures.push_back(failure.value("gate", std::string()) + ": " +
                                     failure.value("detail", std::string()));
    result.run = run_directory(entry, request.score_file);
    scored_digest = entry.value("run", json::object()).value("digest", std::string());
  } catch (const json::exception& error) {
    throw InputError(request.score_file.string(), std::string("unexpected content in a ranking entry: ") + error.what());
  }

  // The run is the one that was scored, and intact.
  pipeline::verify_seal(result.run);
  if (!scored_digest.empty() && util::sha256_file(result.run / "manifest.json") != scored_digest)
    throw Tampered(result.run.string() + " changed since " + request.score_file.string() +
                      " was written (its manifest's digest differs); score again");
  const model::RunManifest manifest = pipeline::read_run_manifest(result.run);
  result.base_commit = manifest.base_commit;
  const fs::path patch = result.run / "diff.patch";
  if (result.base_commit.empty() || !fs::is_regular_file(patch))
    throw InputError((result.run / "manifest.json").string(),
                     "the run stores no change to apply (no base commit or no diff.patch: " +
                         manifest.diff_inactive_reason.value_or("it was not captured from git") + ")");
  if (fs::file_size(patch) == 0)
    throw Refused("agent \"" + result.agent + "\" made no change: " + patch.string() + " is empty");

  if (!result.mergeable && !request.force) {
    std::string why;
    for (const auto& failure : result.gate_failures) why += "\n  x " + failure;
    throw NotMergeable("agent \"" + result.agent + "\" is not mergeable; not applying it (--force applies it anyway):" +
                       why);
  }

  // The tree: clean, and still at the commit the change was made against.
  if (!util::is_git_work_tree(request.source))
    throw Refused(request.source.string() + " is not inside a git work tree");
  result.work_tree = fs::canonical(util::work_tree_root(request.source));
  const auto head = util::run_git(result.work_tree, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
  const std::string head_commit(util::trim(head.output));
  if (head.exit_code != 0 || head_commit != result.base_commit)
    throw Refused("the base moved: agent \"" + result.agent + "\" was captured against " + result.base_commit +
                    ", but HEAD of " + result.work_tree.string() + " is " +
                    (head_commit.empty() ? std::string("unborn") : head_commit) +
                    "; check out " + result.base_commit.substr(0, 12) + " or score the candidates again");
  const std::vector<std::string> dirty = dirty_paths(result.work_tree);
  if (!dirty.empty()) {
    std::string list;
    for (std::size_t i = 0; i < dirty.size() && i < 10; ++i) list += "\n  " + dirty[i];
    if (dirty.size() > 10) list += "\n  ... and " + std::to_string(dirty.size() - 10) + " more";
    throw Refused("the working tree " + result.work_tree.string() +
                    " has changes; commit or stash them before applying agent \"" + result.agent + "\":" + list);
  }

  // The check: the change onto HEAD in a temporary index, never the user's.
  util::TempDir scratch("hydra-apply");
  const std::map<std::string, std::string> index = {{"GIT_INDEX_FILE", (scratch.path() / "index").string()}};
  util::checked_git(result.work_tree, {"read-tree", "HEAD"}, index);
  const auto checked = util::run_git(result.work_tree, {"apply", "--cached", "--binary", patch.string()}, index);
  if (checked.exit_code != 0)
    throw Refused("the change of agent \"" + result.agent + "\" (" + patch.string() + ") does not apply to " +
                    result.base_commit.substr(0, 12) + ": " + std::string(util::trim(checked.error_output)));
  const auto names = util::checked_git(result.work_tree, {"diff", "--cached", "--name-status", "-z", "-M", "HEAD"}, index);
  const std::vector<std::string> fields = nul_fields(names.output);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    ApplyFile file;
    file.status = fields[i].substr(0, 1);
    if ((file.status == "R" || file.status == "C") && i + 2 < fields.size()) {
      file.path = fields[i + 1] + " -> " + fields[i + 2];
      i += 2;
    } else if (i + 1 < fields.size()) {
      file.path = fields[i + 1];
      i += 1;
    }
    result.files.push_back(std::move(file));
  }
  if (!request.confirm) return result;

  // The check passed on the same commit and a clean tree: apply to the work
  // tree (git apply writes nothing unless every hunk applies).
  const auto applied = util::run_git(result.work_tree, {"apply", "--binary", patch.string()});
  if (applied.exit_code != 0)
    throw Refused("git apply " + patch.string() + " failed in " + result.work_tree.string() +
                    " (nothing was written): " + std::string(util::trim(applied.error_output)));
  result.applied = true;
  return result;
}

}  // namespace hydra::apply
