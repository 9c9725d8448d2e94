// hydra-score capture: build, test and lint a source tree into a run directory.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <hydra/capture/capture.hpp>
#include <hydra/cli/commands.hpp>
#include <hydra/error.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/thread_pool.hpp>

namespace hydra::cli {

void add_build_tree_options(CLI::App& command, capture::BuildTreeOptions& options, const std::string& jobs_help) {
  command.add_option("--jobs", options.jobs, jobs_help);
  command.add_option("--generator", options.generator, "CMake generator for the capture's build tree");
  command.add_option("--initial-cache", options.initial_cache, "cmake -C script with the project's cache entries");
  command.add_option("--build-config", options.build_config, "Configuration for multi-config generators");
  command.add_option("--cmake-arg", options.cmake_arguments, "Extra configure argument (repeatable)");
  command.add_option("--exclude", options.exclude, "A tree inside the source that is not part of the change (repeatable)");
  command.add_flag("--no-cache{false}", options.cache,
                   "No lint cache and no compiler cache (ccache) for this capture, whatever hydra.toml's [cache] says");
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
      "Repeat --source/--out (and --agent, --build-dir) to capture several candidates, in parallel up to --jobs.");
  struct Options {
    std::vector<std::string> sources, outs, agents, build_dirs;
    std::vector<double> agent_seconds;
    std::string config, baseline_run, base_ref, checkout, metrics, task;
    capture::BuildTreeOptions tree;
    bool reuse = false, quiet = false, no_sandbox = false;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--source", options->sources, "Source tree to capture (repeatable)")->required();
  command->add_option("--out", options->outs, "Run directory to write, one per --source")->required();
  command->add_option("--agent", options->agents, "Agent name, one per --source (default: the --out directory's name)");
  command->add_option("--build-dir", options->build_dirs,
                      "HydraScore's build tree for the capture, one per --source (default: OUT.build next to OUT)");
  command->add_option("--agent-seconds", options->agent_seconds, "How long each agent took, one per --source");
  command->add_option("--config", options->config, "hydra.toml (default: the baseline run's, else SOURCE/hydra.toml)");
  command->add_option("--baseline-run", options->baseline_run,
                      "Baseline run directory: its config, .clang-tidy and commit (the diff base) are used");
  command->add_option("--base-ref", options->base_ref, "Commit the diff is taken against (default: the baseline run's commit, else HEAD)");
  command->add_option("--checkout", options->checkout, "Capture this commit through a git worktree (a baseline at BASE_REF)");
  command->add_option("--metrics", options->metrics, "Agent metrics JSON");
  command->add_option("--task", options->task, "Task id (for compare)");
  add_build_tree_options(*command, options->tree, "Parallel jobs (default: all cores)");
  command->add_flag("--reuse", options->reuse, "Keep an up-to-date run directory instead of capturing again");
  command->add_flag("--quiet", options->quiet, "No progress output");
  command->add_flag("--no-sandbox", options->no_sandbox,
                    "Do not run the tree's build and tests under bubblewrap (the run records it)");
  command->callback([options, &exit_code] {
    const std::size_t count = options->sources.size();
    auto per_source = [&](const auto& values, const char* name) {
      if (!values.empty() && values.size() != count)
        throw UsageError(std::string("give ") + name + " once per --source (" + std::to_string(count) + " times) or not at all");
    };
    if (options->outs.size() != count) throw UsageError("give --out once per --source");
    per_source(options->agents, "--agent");
    per_source(options->build_dirs, "--build-dir");
    per_source(options->agent_seconds, "--agent-seconds");
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = options->tree.jobs > 0 ? options->tree.jobs : cores;
    const unsigned parallel = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(count)));
    std::vector<capture::CaptureRequest> requests;
    for (std::size_t i = 0; i < count; ++i) {
      capture::CaptureRequest request;
      static_cast<capture::BuildTreeOptions&>(request) = options->tree;
      request.source = options->sources[i];
      request.out = options->outs[i];
      request.agent = options->agents.empty() ? std::filesystem::path(options->outs[i]).filename().string()
                                              : options->agents[i];
      request.build_dir = options->build_dirs.empty() ? std::filesystem::path(options->outs[i] + ".build")
                                                      : std::filesystem::path(options->build_dirs[i]);
      if (!options->agent_seconds.empty()) request.agent_seconds = options->agent_seconds[i];
      if (!options->config.empty()) request.config = options->config;
      if (!options->baseline_run.empty()) request.baseline_run = options->baseline_run;
      request.base_ref = options->base_ref;
      request.checkout = options->checkout;
      if (!options->metrics.empty()) request.metrics = options->metrics;
      request.task = options->task;
      request.jobs = std::max(1u, jobs / parallel);
      request.reuse = options->reuse;
      request.progress = !options->quiet;
      request.sandbox = !options->no_sandbox;
      request.clang_tidy = clang_tidy_program();
      requests.push_back(std::move(request));
    }
    std::vector<capture::CaptureOutcome> outcomes(count);
    util::parallel_for(count, parallel, [&](std::size_t i) { outcomes[i] = capture::capture(requests[i]); });
    for (const auto& outcome : outcomes) std::cout << outcome.summary << "\n";
    exit_code = static_cast<int>(ExitCode::success);
  });
}

}  // namespace hydra::cli
