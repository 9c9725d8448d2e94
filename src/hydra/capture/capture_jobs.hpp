// The jobs of one `hydra-score capture` command: its options, as the command
// line parsed them, become one typed capture request per --source or per ref
// (agents named, agent names checked, metrics found, the jobs shared out and
// the trees of the captures beside each one hidden from it).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <hydra/capture/core/request.hpp>
#include <hydra/util/git.hpp>

namespace hydra::capture {

/// The options of `hydra-score capture` (cli/capture_command.cpp parses them;
/// their meaning is in its --help).
struct CaptureJobOptions {
  std::vector<std::string> sources, outs, agents, build_dirs, refs;
  std::vector<double> agent_seconds;
  std::string config, baseline_run, base_ref, checkout, metrics, metrics_dir, task;
  BuildTreeOptions tree;
  bool reuse = false, quiet = false, no_sandbox = false, require_sandbox = false, if_changed = false,
       refuse_cmake_changes = false, no_lint = false;
  /// clang-tidy for the lint step (nullopt: none found); the caller finds it.
  std::optional<std::filesystem::path> clang_tidy;
  /// The step runner of every request (BuildTreeOptions::step_runner).
  std::optional<std::filesystem::path> step_runner;
};

/// One capture of the command: what it captures and its request.
struct CaptureJob {
  std::string source, out, agent, build_dir;
  std::string ref;  ///< the ref's short name with --ref; empty with --source
  CaptureRequest request;
};

/// Every capture of the command, and how the jobs are shared among them
/// (capture_in_parallel's `jobs` and `parallel`).
struct CaptureJobs {
  std::vector<CaptureJob> captures;
  unsigned jobs = 1;      ///< all the jobs (--jobs, else every core)
  unsigned parallel = 1;  ///< captures at once: at most `jobs`, at most one per capture
};

/// The refs of a repository matching patterns (util::resolve_refs in use;
/// tests give their own).
using RefResolver =
    std::function<std::vector<util::NamedRef>(const std::filesystem::path&, const std::vector<std::string>&)>;

/// The captures `options` ask for, in order: one per --source (with its
/// --out, --agent, --build-dir and --agent-seconds), or one per ref that
/// --ref's patterns resolve to in the repository at --source (default ".")
/// into OUT/<agent> with its build tree OUT/trees/<agent>. Throws UsageError
/// for options that do not go together, a ref whose agent name is not one
/// (agent_name_problem) and two refs that make the same agent name.
CaptureJobs plan_capture_jobs(CaptureJobOptions options, const RefResolver& resolve = util::resolve_refs);

/// An agent name made from a ref's short name: every character other than
/// letters, digits, '.', '_' and '-' becomes '-' (agent/clean-fix ->
/// agent-clean-fix), so it is a file name and a CMake-safe run name.
std::string agent_name_of_ref(const std::string& ref);

/// Why `name` cannot be an agent's name, or empty when it can. The rule is
/// cmake/HydraScoreAgentNames.txt, which the CMake module's AGENT check reads
/// too: the names it allows, and the names HydraScore reserves for its own
/// folders beside the agents' run directories (baseline, trees, worktrees).
std::string agent_name_problem(const std::string& name);

}  // namespace hydra::capture
