// `hydra-score compare`: is the candidate configuration better than the
// reference across a set of tasks? Reference: docs/compare.md.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <hydra/cli/commands.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/report/compare.hpp>
#include <hydra/compare/store_tasks.hpp>
#include <hydra/compare/task_set.hpp>
#include <hydra/store/recording.hpp>
#include <hydra/eval/verdict.hpp>
#include <hydra/error.hpp>
#include <hydra/config/config.hpp>
#include <hydra/util/files.hpp>

namespace hydra::cli {
namespace {

struct CompareOptions {
  std::string reference;
  std::string candidate;
  double min_composite_gain = 0;
  double regression_composite_drop = 0;
  bool objective_drop_is_regression = true;
  std::string config;
  std::string json_out;
  std::string markdown_out;
  std::string store;
  std::string reference_agent, candidate_agent, reference_config, candidate_config;
  std::vector<std::string> tasks;
  std::string since, until;
  CLI::Option* min_composite_gain_option = nullptr;
  CLI::Option* regression_composite_drop_option = nullptr;
  CLI::Option* objective_drop_option = nullptr;
};

int run_compare(const CompareOptions& options) {
  // Defaults, then the config file's [compare]/[eval]/[judge] tables, then flags.
  eval::Thresholds thresholds;
  compare::LoadOptions load_options;
  if (!options.config.empty()) {
    const config::Config config = config::load(options.config);
    thresholds = config.compare;
    load_options.eval = config.eval;
    if (!config.judge.command.empty()) load_options.judge = config.judge;
  }
  if (options.min_composite_gain_option->count() > 0)
    thresholds.min_composite_gain = options.min_composite_gain;
  if (options.regression_composite_drop_option->count() > 0)
    thresholds.regression_composite_drop = options.regression_composite_drop;
  if (options.objective_drop_option->count() > 0)
    thresholds.objective_drop_is_regression = options.objective_drop_is_regression;
  config::validate(thresholds);

  const bool from_store = !options.store.empty();
  if (from_store != options.reference.empty() || from_store != options.candidate.empty())
    throw UsageError(from_store ? "--store takes the sides from the store: give --reference-agent/--reference-config "
                                  "and --candidate-agent/--candidate-config instead of --reference and --candidate"
                                : "give --reference SET and --candidate SET, or --store FILE with the sides' agents or configs");
  const bool reference_named = !options.reference_agent.empty() || !options.reference_config.empty();
  const bool candidate_named = !options.candidate_agent.empty() || !options.candidate_config.empty();
  if (from_store && (!reference_named || !candidate_named))
    throw UsageError("--store needs --reference-agent or --reference-config, and --candidate-agent or --candidate-config");
  if (!from_store && (reference_named || candidate_named || !options.tasks.empty() || !options.since.empty() ||
                      !options.until.empty()))
    throw UsageError("--reference-agent, --candidate-agent, --reference-config, --candidate-config, --task, --since "
                     "and --until read the results store: give --store FILE");
  store::RowFilter filter;
  filter.tasks = options.tasks;
  if (!options.since.empty()) filter.since = store::parse_time(options.since, "--since");
  if (!options.until.empty()) filter.until = store::parse_time(options.until, "--until");
  const eval::TaskSet reference =
      from_store ? compare::load_store_side(options.store, {options.reference_agent, options.reference_config}, filter)
                 : compare::load_task_set(options.reference, load_options);
  const eval::TaskSet candidate =
      from_store ? compare::load_store_side(options.store, {options.candidate_agent, options.candidate_config}, filter)
                 : compare::load_task_set(options.candidate, load_options);
  const eval::Comparison comparison =
      eval::compare_sets(reference, candidate, thresholds, load_options.eval);
  const ExitCode verdict = exit_code_of(comparison.verdict);

  if (!options.json_out.empty())
    util::write_file_atomic(options.json_out, report::to_json(comparison, status(verdict)).dump(2) + "\n");
  if (!options.markdown_out.empty())
    util::write_file_atomic(options.markdown_out, report::render_markdown(comparison));
  std::cout << report::render_table(comparison) << std::flush;
  return status(verdict);
}

}  // namespace

void register_compare(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Compare two task sets (reference vs candidate configuration) and decide a verdict.\n"
      "Exit codes: 0 improved (promote), 5 neutral, 4 regressed, 2 bad usage or input, 1 internal error.");
  command->add_option("--reference", options->reference,
                      "Reference SET: a task-result JSON file, a run directory, or a directory of them");
  command->add_option("--candidate", options->candidate, "Candidate SET (same forms as --reference)");
  command->add_option("--store", options->store,
                      "Read both sides from this results store instead of --reference/--candidate SETs");
  command->add_option("--reference-agent", options->reference_agent, "With --store: the reference side's agent");
  command->add_option("--candidate-agent", options->candidate_agent, "With --store: the candidate side's agent");
  command->add_option("--reference-config", options->reference_config,
                      "With --store: the reference side's config digest (with or without an agent)");
  command->add_option("--candidate-config", options->candidate_config,
                      "With --store: the candidate side's config digest (with or without an agent)");
  command->add_option("--task", options->tasks, "With --store: only this task (repeatable)");
  command->add_option("--since", options->since, "With --store: only candidates recorded at or after this time");
  command->add_option("--until", options->until, "With --store: only candidates recorded before this time");
  options->min_composite_gain_option = command->add_option(
      "--min-composite-gain", options->min_composite_gain,
      "Summed composite deltas must exceed this to improve (default 0.01)");
  options->regression_composite_drop_option = command->add_option(
      "--regression-composite-drop", options->regression_composite_drop,
      "A per-task composite drop larger than this is a hard regression (default 0.05)");
  options->objective_drop_option = command->add_option(
      "--objective-drop-is-regression", options->objective_drop_is_regression,
      "Any drop in a task's objective checks is a hard regression: true or false (default true)");
  command->add_option("--config", options->config,
                      "hydra.toml with [compare], [eval] and [judge] tables");
  command->add_option("--json", options->json_out, "Write the comparison as JSON to this file");
  command->add_option("--markdown", options->markdown_out, "Write a Markdown report to this file");
  command->callback([options, &exit_code] { exit_code = run_compare(*options); });
}

}  // namespace hydra::cli
