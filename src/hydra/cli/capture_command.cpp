// hydra-score capture: build, test and lint a source tree into a run directory.
#include <cstdlib>
#include <iostream>

#include <hydra/capture/capture.hpp>
#include <hydra/capture/capture_jobs.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/parallel_captures.hpp>
#include <hydra/cli/commands.hpp>
#include <hydra/cli/step.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace hydra::cli {

void add_build_tree_options(CLI::App& command, capture::BuildTreeOptions& options, const std::string& jobs_help) {
  command.add_option("--jobs", options.jobs, jobs_help);
  command.add_option("--generator", options.generator, "CMake generator for the capture's build tree");
  command.add_option("--initial-cache", options.initial_cache, "cmake -C script with the project's cache entries");
  command.add_option("--build-config", options.build_config, "Configuration for multi-config generators");
  command.add_option("--cmake-arg", options.cmake_arguments, "Extra configure argument (repeatable)");
  command.add_option("--exclude", options.exclude, "A tree inside the source that is not part of the change (repeatable)");
  command.add_option("--profile", options.profile,
                     "Build, test and lint with this profile's commands (cmake, js-node, rust, python) instead of "
                     "hydra.toml's profile; a candidate's is its baseline's")
      ->check(CLI::IsMember({"cmake", "js-node", "rust", "python"}));
  command.add_flag("--no-cache{false}", options.cache,
                   "No lint cache and no compiler cache (ccache) for this capture, whatever hydra.toml's [cache] says");
  // This program (or its in-sandbox helper, step.hpp) is the test launcher
  // of the trees it captures (the hidden test-launcher subcommand;
  // capture/runners/test_launcher.hpp).
  if (const auto program = in_sandbox_program()) options.test_launcher = {program->string(), capture::kLauncherSubcommand};
}

std::optional<std::filesystem::path> clang_tidy_program() {
  if (const char* named = std::getenv("HYDRA_SCORE_CLANG_TIDY"); named != nullptr && *named != '\0')
    return std::filesystem::path(named);
  return util::find_program("clang-tidy");
}

void register_capture(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "capture",
      "Run the profile's build, test and lint steps for source trees and save sealed run directories.\n"
      "Repeat --source/--out (and --agent, --build-dir) to capture several candidates, in parallel up to --jobs.\n"
      "Or give --ref REF (repeatable, globs allowed): each matching branch, tag or commit of the repository\n"
      "at --source is captured from a temporary git worktree into OUT/<agent>, the user's tree untouched.");
  // The capture's options (capture/capture_jobs.hpp), and where to list the run directories.
  struct Options : capture::CaptureJobOptions {
    std::string list;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--source", options->sources,
                      "Source tree to capture (repeatable); with --ref, the repository (default: the current directory)");
  command->add_option("--out", options->outs,
                      "Run directory to write, one per --source; with --ref, the directory receiving OUT/<agent> per ref")
      ->required();
  command->add_option("--ref", options->refs,
                      "Capture this branch, tag or commit (a git for-each-ref pattern such as 'agent/*', or anything\n"
                      "git rev-parse takes); repeatable. Agent names are the refs' short names, '/' made '-'");
  command->add_option("--agent", options->agents, "Agent name, one per --source (default: the --out directory's name)");
  command->add_option("--build-dir", options->build_dirs,
                      "HydraScore's build tree for the capture, one per --source (default: OUT.build next to OUT;\n"
                      "with --ref: OUT/trees/<agent>)");
  command->add_option("--agent-seconds", options->agent_seconds, "How long each agent took, one per --source");
  command->add_option("--config", options->config, "hydra.toml (default: the baseline run's, else SOURCE/hydra.toml)");
  command->add_option("--baseline-run", options->baseline_run,
                      "Baseline run directory: its config, .clang-tidy and commit (the diff base) are used");
  command->add_option("--base-ref", options->base_ref, "Commit the diff is taken against (default: the baseline run's commit, else HEAD)");
  command->add_option("--checkout", options->checkout, "Capture this commit through a git worktree (a baseline at BASE_REF)");
  command->add_option("--metrics", options->metrics, "Agent metrics JSON");
  command->add_option("--metrics-dir", options->metrics_dir,
                      "Directory of agent metrics, DIR/<agent>.json each (docs/parsers.md; duration_seconds feeds speed)");
  command->add_option("--task", options->task, "Task id (for compare and the results store)");
  command->add_option("--list", options->list,
                      "Write the run directories this call captured (or reused) here, one per line");
  add_build_tree_options(*command, options->tree, "Parallel jobs (default: all cores)");
  command->add_flag("--reuse", options->reuse, "Keep an up-to-date run directory instead of capturing again");
  command->add_flag("--if-changed", options->if_changed,
                    "Capture a --source only when it differs from the base commit (else nothing is written or listed)");
  command->add_flag("--refuse-cmake-changes", options->refuse_cmake_changes,
                    "Refuse a working tree whose change touches CMake files: its configure already ran outside\n"
                    "the sandbox (the hydra_score target's flow); HYDRA_SCORE_ALLOW_CMAKE_CHANGES=1 lifts it");
  command->add_flag("--quiet", options->quiet, "No progress output");
  command->add_flag("--no-lint", options->no_lint,
                    "No lint step: the lint dimension is inactive for the whole ranking, and the reports say it "
                    "was turned off");
  command->add_flag("--no-sandbox", options->no_sandbox,
                    "Do not run the tree's build and tests under bubblewrap (the run records it)");
  command->add_flag("--require-sandbox", options->require_sandbox,
                    "Refuse (exit 8) where the tree's code cannot run under bubblewrap, as [sandbox] require = true");
  command->callback([options, &exit_code] {
    options->clang_tidy = clang_tidy_program();
    options->step_runner = in_sandbox_program();
    const auto planned = capture::plan_capture_jobs(*options);
    const auto& targets = planned.captures;
    const std::size_t count = targets.size();
    std::vector<capture::CaptureRequest> requests;
    for (const auto& target : targets) requests.push_back(target.request);
    // Every target is attempted; one that cannot be captured (its worktree
    // cannot be made, a step cannot start) is reported, never skipped
    // silently. Each gets its share of the jobs; one whose step ran out of
    // time beside the others is captured again alone (parallel_captures.hpp).
    const auto results = capture::capture_in_parallel(std::move(requests), planned.jobs, planned.parallel);
    std::string listed;
    std::optional<Failure> first_failure;
    std::size_t failed = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const std::string what = targets[i].ref.empty() ? targets[i].source : "ref " + targets[i].ref;
      if (!results[i].retried_alone.empty() && !options->quiet)
        std::cerr << "hydra[" << targets[i].agent << "]: " << results[i].retried_alone << "\n";
      if (results[i].failure) {
        const Failure failure = failure_of(results[i].failure);
        std::cerr << "hydra-score: error: " << what << " (agent " << targets[i].agent
                  << ") could not be captured: " << failure.message << "\n";
        if (!first_failure) first_failure = failure;
        ++failed;
        continue;
      }
      std::cout << results[i].outcome->summary << "\n";
      if (!results[i].outcome->skipped) listed += util::absolute_clean(targets[i].out).string() + "\n";
    }
    if (!options->list.empty()) util::write_file_atomic(options->list, listed);
    if (first_failure) {
      // A failure of no kind of its own (git could not make a worktree): a step could not run.
      std::cerr << "hydra-score: error: " << failed << " of " << count << " captures failed (first: "
                << first_failure->message << ")\n";
      exit_code = status(first_failure->code == ExitCode::internal ? ExitCode::step_failed : first_failure->code);
      return;
    }
    exit_code = status(ExitCode::success);
  });
}

}  // namespace hydra::cli
