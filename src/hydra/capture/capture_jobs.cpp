#include <hydra/capture/capture_jobs.hpp>

#include <algorithm>
#include <cctype>
#include <thread>

#include <hydra/agent_names.hpp>  // generated from cmake/HydraScoreAgentNames.txt
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/regex.hpp>

namespace hydra::capture {

namespace {

/// Refuses options that do not go together; with --ref, the repository
/// defaults to the current directory.
void check_options(CaptureJobOptions& options) {
  const bool by_ref = !options.refs.empty();
  if (by_ref) {
    if (options.outs.size() != 1) throw UsageError("with --ref, give --out once: the directory receiving OUT/<agent>");
    if (options.sources.size() > 1) throw UsageError("with --ref, give --source at most once: the repository");
    if (!options.agents.empty() || !options.build_dirs.empty() || !options.agent_seconds.empty() ||
        !options.checkout.empty() || !options.metrics.empty())
      throw UsageError("with --ref, agents are named after their refs: --agent, --build-dir, --agent-seconds, "
                       "--metrics and --checkout do not apply (use --metrics-dir)");
    if (options.sources.empty()) options.sources.push_back(".");
  } else if (options.sources.empty()) {
    throw UsageError("give --source (with --out), or --ref");
  }
  if (!options.metrics_dir.empty() && !std::filesystem::is_directory(options.metrics_dir))
    throw UsageError("--metrics-dir " + options.metrics_dir + " is not a directory");
}

/// One capture per ref, into OUT/<agent> with its build tree OUT/trees/<agent>.
std::vector<CaptureJob> jobs_of_refs(const CaptureJobOptions& options, const RefResolver& resolve) {
  std::vector<CaptureJob> targets;
  const std::filesystem::path repository = options.sources[0];
  const std::filesystem::path root = options.outs[0];
  for (const auto& ref : resolve(repository, options.refs)) {
    const std::string agent = agent_name_of_ref(ref.name);
    if (const std::string problem = agent_name_problem(agent); !problem.empty())
      throw UsageError("ref " + ref.name + " would be agent \"" + agent + "\", " + problem);
    for (const auto& other : targets)
      if (other.agent == agent)
        throw UsageError("refs " + other.ref + " and " + ref.name + " both make the agent name \"" + agent + "\"");
    CaptureJob target;
    target.source = repository.string();
    target.out = (root / agent).string();
    target.agent = agent;
    target.build_dir = (root / "trees" / agent).string();
    target.request.checkout = ref.commit;
    target.ref = ref.name;
    targets.push_back(std::move(target));
  }
  return targets;
}

/// One capture per --source, with its --out, --agent, --build-dir and --agent-seconds.
std::vector<CaptureJob> jobs_of_sources(const CaptureJobOptions& options) {
  std::vector<CaptureJob> targets;
  const std::size_t count = options.sources.size();
  auto per_source = [&](const auto& values, const char* name) {
    if (!values.empty() && values.size() != count)
      throw UsageError(std::string("give ") + name + " once per --source (" + std::to_string(count) +
                       " times) or not at all");
  };
  if (options.outs.size() != count) throw UsageError("give --out once per --source");
  per_source(options.agents, "--agent");
  per_source(options.build_dirs, "--build-dir");
  per_source(options.agent_seconds, "--agent-seconds");
  for (std::size_t i = 0; i < count; ++i) {
    CaptureJob target;
    target.source = options.sources[i];
    target.out = options.outs[i];
    target.agent = options.agents.empty() ? std::filesystem::path(options.outs[i]).filename().string()
                                          : options.agents[i];
    target.build_dir = options.build_dirs.empty() ? options.outs[i] + ".build" : options.build_dirs[i];
    target.request.checkout = options.checkout;
    if (!options.agent_seconds.empty()) target.request.agent_seconds = options.agent_seconds[i];
    targets.push_back(std::move(target));
  }
  return targets;
}

/// Fills the rest of a capture's request (jobs_of_refs and jobs_of_sources
/// set its checkout and agent seconds) from the options every capture shares.
void fill_request(const CaptureJobOptions& options, bool by_ref, CaptureJob& target) {
  CaptureRequest& request = target.request;
  static_cast<BuildTreeOptions&>(request) = options.tree;
  request.source = target.source;
  request.out = target.out;
  request.agent = target.agent;
  request.build_dir = target.build_dir;
  if (!options.config.empty()) request.config = options.config;
  if (!options.baseline_run.empty()) request.baseline_run = options.baseline_run;
  request.base_ref = options.base_ref;
  // A ref's change is against the baseline run's commit, else --base-ref,
  // else the repository's HEAD (never the ref itself: that would be no change).
  if (by_ref && request.base_ref.empty() && !request.baseline_run) request.base_ref = "HEAD";
  request.temporary_worktree = by_ref;
  request.only_if_changed = options.if_changed;
  request.refuse_cmake_changes = options.refuse_cmake_changes && !by_ref;
  if (!options.metrics.empty()) request.metrics = options.metrics;
  if (!options.metrics_dir.empty() && options.metrics.empty()) {
    const auto file = std::filesystem::path(options.metrics_dir) / (target.agent + ".json");
    if (std::filesystem::is_regular_file(file)) request.metrics = file;
  }
  request.task = options.task;
  request.reuse = options.reuse;
  request.progress = !options.quiet;
  request.sandbox = !options.no_sandbox;
  request.require_sandbox = options.require_sandbox;
  request.clang_tidy = options.clang_tidy;
  request.lint = !options.no_lint;
  request.step_runner = options.step_runner;
}

/// No capture's code reads the trees of the captures beside it: each
/// request hides the others' run directories and build trees (and, with
/// --source, their sources; with --ref they share the repository), except a
/// tree that holds one of its own.
void hide_peer_trees(std::vector<CaptureJob>& targets, bool by_ref) {
  const std::size_t count = targets.size();
  for (std::size_t i = 0; i < count; ++i) {
    const auto& own = targets[i];
    for (std::size_t j = 0; j < count; ++j) {
      if (j == i) continue;
      std::vector<std::string> theirs = {targets[j].out, targets[j].build_dir};
      if (!by_ref) theirs.push_back(targets[j].source);  // with --ref they share the repository
      for (const auto& path : theirs) {
        const auto tree = util::absolute_clean(path);
        bool holds_own = false;
        for (const auto& mine : {own.source, own.out, own.build_dir})
          holds_own = holds_own || util::is_within(util::absolute_clean(mine), tree);
        if (!holds_own) targets[i].request.hidden_trees.push_back(tree);
      }
    }
  }
}

}  // namespace

CaptureJobs plan_capture_jobs(CaptureJobOptions options, const RefResolver& resolve) {
  check_options(options);
  const bool by_ref = !options.refs.empty();
  CaptureJobs planned;
  planned.captures = by_ref ? jobs_of_refs(options, resolve) : jobs_of_sources(options);
  const std::size_t count = planned.captures.size();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  planned.jobs = options.tree.jobs > 0 ? options.tree.jobs : cores;
  planned.parallel =
      std::max(1u, std::min<unsigned>(planned.jobs, static_cast<unsigned>(std::max<std::size_t>(count, 1))));
  for (auto& target : planned.captures) fill_request(options, by_ref, target);
  hide_peer_trees(planned.captures, by_ref);
  return planned;
}

std::string agent_name_of_ref(const std::string& ref) {
  std::string name = ref;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '-';
  while (!name.empty() && name.front() == '.') name.erase(name.begin());
  return name.empty() ? "ref" : name;
}

std::string agent_name_problem(const std::string& name) {
  static const util::Regex allowed(HYDRA_AGENT_NAME_PATTERN);
  if (!allowed.search(name)) return "a name that does not match " HYDRA_AGENT_NAME_PATTERN;
  for (const char* reserved : {HYDRA_RESERVED_AGENT_NAMES})
    if (name == reserved) return "a name HydraScore reserves";
  return "";
}

}  // namespace hydra::capture
