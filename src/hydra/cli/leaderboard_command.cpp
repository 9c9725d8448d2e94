// hydra-score record-results / leaderboard: the results store and the
// leaderboard over it. Reference: docs/leaderboard.md.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <hydra/cli/commands.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>
#include <hydra/leaderboard/leaderboard.hpp>
#include <hydra/report/leaderboard.hpp>
#include <hydra/store/recording.hpp>
#include <hydra/store/store.hpp>
#include <hydra/util/files.hpp>

namespace hydra::cli {

void register_record_results(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "record-results", "Import score JSON files (score --json, e.g. CI artifacts) into a results store");
  struct Options {
    std::string store, task, recorded_at;
    std::int64_t attempt = 1;
    std::vector<std::string> files;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--store", options->store, "The results store (SQLite; created when missing)")->required();
  command->add_option("SCORE_JSON", options->files, "Score JSON files written by `score --json`")->required();
  command->add_option("--task", options->task,
                      "The task's name for every file (default: each ranking's task, else <project>@<base commit>)");
  command->add_option("--attempt", options->attempt, "The candidates' attempt at the task, from 1 (default 1)");
  command->add_option("--recorded-at", options->recorded_at,
                      "When the rankings happened: YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or seconds (default now)");
  command->callback([options, &exit_code] {
    store::RowNaming naming;
    naming.task = options->task;
    naming.attempt = options->attempt;
    if (!options->recorded_at.empty()) naming.recorded_at = store::parse_time(options->recorded_at, "--recorded-at");
    const std::vector<std::filesystem::path> files(options->files.begin(), options->files.end());
    const store::RecordOutcome recorded = store::import_score_files(options->store, files, naming);
    std::cout << "recorded " << recorded.inserted << " of " << recorded.rows << " candidates from " << files.size()
              << " score files into " << options->store
              << (recorded.inserted < recorded.rows ? " (the others were recorded before)" : "") << "\n";
    exit_code = status(ExitCode::success);
  });
}

void register_leaderboard(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "leaderboard", "Rank the agents of a results store over tasks and time: rates with bootstrap intervals, "
                     "pass@k, cost per success, Pareto frontier, pairwise sign tests");
  struct Options {
    std::string store, since, until, json, markdown, html;
    std::vector<std::string> tasks, agents, config_digests;
    std::uint64_t seed = leaderboard::default_seed;
    std::size_t resamples = leaderboard::default_resamples;
    bool quiet = false;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--store", options->store, "The results store to read")->required();
  command->add_option("--task", options->tasks, "Only this task (repeatable)");
  command->add_option("--agent", options->agents, "Only this agent (repeatable)");
  command->add_option("--since", options->since, "Only candidates recorded at or after: YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or seconds");
  command->add_option("--until", options->until, "Only candidates recorded before this time (same forms)");
  command->add_option("--config-digest", options->config_digests, "Only rankings scored with this config digest (repeatable)");
  command->add_option("--seed", options->seed, "The bootstrap's seed (default 20240601)");
  command->add_option("--resamples", options->resamples, "Bootstrap resamples (default 2000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  command->add_option("--json", options->json, "Write the leaderboard JSON here");
  command->add_option("--markdown", options->markdown, "Write Markdown here (append it to $GITHUB_STEP_SUMMARY for a job summary)");
  command->add_option("--html", options->html, "Write a self-contained HTML page here");
  command->add_flag("--quiet", options->quiet, "Do not print the table");
  command->callback([options, &exit_code] {
    store::RowFilter filter;
    filter.tasks = options->tasks;
    filter.agents = options->agents;
    filter.config_digests = options->config_digests;
    if (!options->since.empty()) filter.since = store::parse_time(options->since, "--since");
    if (!options->until.empty()) filter.until = store::parse_time(options->until, "--until");
    const store::Store store(options->store, store::Store::Mode::existing);
    leaderboard::Settings settings;
    settings.seed = options->seed;
    settings.resamples = options->resamples;
    const leaderboard::Leaderboard board = leaderboard::compute(store.rows(filter, store::Store::Columns::leaderboard), settings);
    if (!options->json.empty())
      util::write_file_atomic(options->json, report::to_json(board, filter).dump(2) + "\n");
    if (!options->markdown.empty()) util::write_file_atomic(options->markdown, report::render_markdown(board));
    if (!options->html.empty()) util::write_file_atomic(options->html, report::render_html(board));
    if (!options->quiet) std::cout << report::render_table(board) << std::flush;
    exit_code = status(ExitCode::success);
  });
}

}  // namespace hydra::cli
