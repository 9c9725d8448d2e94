// hydra-score loop: the keep/revert improvement loop. Reference: docs/loop.md.
#include <iostream>

#include <hydra/cli/commands.hpp>
#include <hydra/cli/step.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>
#include <hydra/loop/loop.hpp>
#include <hydra/pipeline/evaluate.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace hydra::cli {

void register_loop(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "loop",
      "Run an improver command repeatedly on a source tree; keep a change only when its score strictly\n"
      "beats the best so far, else restore the tree exactly from the best snapshot. Resumable.\n"
      "Settings come from the [loop] table of --config (or SOURCE/hydra.toml); flags override them.");
  struct Options {
    std::string source, out, build_dir, config, name, improver, metric;
    capture::BuildTreeOptions tree;
    std::optional<int> max_iterations, stuck_after;
    std::optional<double> improver_timeout;
    std::vector<std::string> paths;
    bool quiet = false;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--source", options->source, "The source tree the improver changes (inside a git work tree)")->required();
  command->add_option("--out", options->out, "Output directory: state.json, results.tsv, loop.json/.md/.html, iterations/")->required();
  command->add_option("--build-dir", options->build_dir, "Build tree reused by every capture (default: OUT/build)");
  command->add_option("--config", options->config, "hydra.toml: scoring config of the captures and the [loop] table (default: SOURCE/hydra.toml)");
  command->add_option("--improver", options->improver, "Shell command that changes the tree (run in SOURCE)");
  command->add_option("--max-iterations", options->max_iterations, "Improvement iterations after iteration 0 (default 10)")
      ->check(CLI::Range(1, 100000));
  command->add_option("--stuck-after", options->stuck_after, "Consecutive reverts that stop the loop as stuck (default 3)")
      ->check(CLI::Range(1, 100000));
  command->add_option("--metric", options->metric, "pass_rate (default) or composite")
      ->check(CLI::IsMember({"pass_rate", "composite"}));
  command->add_option("--improver-timeout", options->improver_timeout, "Seconds before the improver is killed (default 1800)")
      ->check(CLI::PositiveNumber);
  command->add_option("--path", options->paths, "A path (relative to SOURCE) the loop snapshots and restores (repeatable; default: all of SOURCE)");
  command->add_option("--name", options->name, "Snapshot ref namespace refs/hydra/loop/NAME (default: OUT's directory name)");
  add_build_tree_options(*command, options->tree, "Parallel build/test jobs of the captures (default: all cores)");
  command->add_flag("--quiet", options->quiet, "No progress output");
  command->callback([options, &exit_code] {
    loop::LoopRequest request;
    static_cast<capture::BuildTreeOptions&>(request) = options->tree;
    request.step_runner = in_sandbox_program();
    request.source = options->source;
    request.out = options->out;
    request.build_dir = options->build_dir;
    std::optional<std::filesystem::path> explicit_config;
    if (!options->config.empty()) explicit_config = options->config;
    const pipeline::ConfigFile chosen = pipeline::find_config_file(explicit_config, std::nullopt, request.source);
    if (chosen.file) request.settings = config::load(*chosen.file).loop;
    request.config = explicit_config;
    if (!options->improver.empty()) request.settings.improver = options->improver;
    if (options->max_iterations) request.settings.max_iterations = *options->max_iterations;
    if (options->stuck_after) request.settings.stuck_after = *options->stuck_after;
    if (options->improver_timeout) request.settings.improver_timeout_seconds = *options->improver_timeout;
    if (!options->metric.empty())
      request.settings.metric = options->metric == "composite" ? loop::Metric::composite : loop::Metric::pass_rate;
    if (!options->paths.empty()) request.settings.paths = options->paths;
    request.name = options->name;
    request.clang_tidy = clang_tidy_program();
    request.progress = !options->quiet;
    const loop::LoopOutcome outcome = loop::run_loop(request);
    std::cout << loop::render_summary(outcome.report);
    std::cout << "Reports: " << (std::filesystem::path(options->out) / "loop.md").string() << ", loop.html, loop.json, results.tsv\n";
    exit_code = status(ExitCode::success);
  });
}

}  // namespace hydra::cli
