// hydra-score score / replay.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include <hydra/cli/commands.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>
#include <hydra/report/report.hpp>
#include <hydra/store/recording.hpp>
#include <hydra/pipeline/scoring.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::cli {

void register_score(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "score", "Rank candidates against a baseline; print the table; write the reports");
  struct Options {
    std::string baseline;
    std::vector<std::string> candidates, candidate_lists;
    std::string config, json, markdown, html, sarif, junit;
    bool quiet = false;
    bool no_gate_exit = false;
    std::string store, task, recorded_at;
    std::int64_t attempt = 1;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--baseline", options->baseline, "Run directory of the baseline")->required();
  command->add_option("--candidate", options->candidates, "Run directory of a candidate (repeatable)");
  command->add_option("--candidate-list", options->candidate_lists,
                      "A file naming candidate run directories, one per line (as `capture --list` writes; repeatable)");
  command->add_option("--config", options->config,
                      "hydra.toml to score with (default: the one stored in the baseline run, never a candidate's)");
  command->add_option("--json", options->json, "Write the output contract (JSON) here");
  command->add_option("--markdown", options->markdown, "Write a Markdown report here");
  command->add_option("--html", options->html, "Write a self-contained HTML report here");
  command->add_option("--sarif", options->sarif, "Write SARIF 2.1.0 of the new lint findings here");
  command->add_option("--junit", options->junit, "Write JUnit XML of the gates here");
  command->add_option("--store", options->store,
                      "Record the ranking into this results store (SQLite; created when missing)");
  command->add_option("--task", options->task,
                      "The task's name in the store (default: the runs' task, else <project>@<base commit>)");
  command->add_option("--attempt", options->attempt, "The candidates' attempt at the task, from 1 (default 1)");
  command->add_option("--recorded-at", options->recorded_at,
                      "When the ranking happened, for the store: YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or seconds (default now)");
  command->add_flag("--quiet", options->quiet, "Do not print the table");
  command->add_flag("--no-gate-exit", options->no_gate_exit,
                    "Exit 0 even when the top candidate is not mergeable (reports still say so)");
  command->callback([options, &exit_code] {
    store::RowNaming naming;
    naming.task = options->task;
    naming.attempt = options->attempt;
    if (options->attempt < 1) throw UsageError("--attempt must be 1 or more");
    if (!options->recorded_at.empty()) naming.recorded_at = store::parse_time(options->recorded_at, "--recorded-at");
    pipeline::ScoreRequest request;
    request.baseline = options->baseline;
    for (const auto& candidate : options->candidates) request.candidates.emplace_back(candidate);
    for (const auto& list : options->candidate_lists) {
      const std::string text = util::read_file(list);
      const auto lines = util::split(text, '\n');
      for (std::size_t line = 1; line <= lines.size(); ++line) {
        std::string entry(lines[line - 1]);
        if (!entry.empty() && entry.back() == '\r') entry.pop_back();
        if (entry.empty()) continue;
        if (!std::filesystem::is_directory(entry))
          throw InputError(list, "\"" + entry + "\" is not a run directory", line, 1);
        request.candidates.emplace_back(entry);
      }
    }
    if (request.candidates.empty())
      throw UsageError("no candidates to rank: give --candidate RUN" +
                       std::string(options->candidate_lists.empty() ? "" : " (the --candidate-list files are empty)"));
    if (!options->config.empty()) request.config = options->config;
    const nlohmann::json contract = pipeline::score_runs(request);
    if (!options->json.empty()) util::write_file_atomic(options->json, pipeline::contract_text(contract));
    if (!options->markdown.empty()) util::write_file_atomic(options->markdown, report::render_markdown(contract));
    if (!options->html.empty()) util::write_file_atomic(options->html, report::render_html(contract));
    if (!options->sarif.empty()) util::write_file_atomic(options->sarif, report::render_sarif(contract));
    if (!options->junit.empty()) util::write_file_atomic(options->junit, report::render_gates_junit(contract));
    if (!options->store.empty()) {
      const store::RecordOutcome recorded = store::record_contract(options->store, contract, naming);
      if (!options->quiet)
        std::cerr << "recorded " << recorded.inserted << " of " << recorded.rows << " candidates into "
                  << options->store << (recorded.inserted < recorded.rows ? " (the others were recorded before)" : "")
                  << "\n";
    }
    if (!options->quiet) {
      report::TerminalOptions terminal;
      terminal.color = report::use_color(STDOUT_FILENO);
      std::cout << report::render_terminal(contract, terminal);
    }
    exit_code = status(pipeline::top_candidate_mergeable(contract) || options->no_gate_exit ? ExitCode::success
                                                                                             : ExitCode::not_mergeable);
  });
}

void register_replay(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "replay", "Re-score a score JSON (or re-parse a run directory) from stored artifacts; fail if anything differs");
  auto target = std::make_shared<std::string>();
  command->add_option("RUN_OR_SCORE", *target, "A score JSON written by `score --json`, or a run directory")->required();
  command->callback([target, &exit_code] {
    const pipeline::ReplayResult result = pipeline::replay(*target);
    if (result.matches) {
      std::cout << "replay: " << *target << ": " << result.detail << "\n";
      exit_code = status(ExitCode::success);
    } else {
      std::cerr << "replay: " << *target << ": MISMATCH: " << result.detail << "\n";
      exit_code = status(ExitCode::mismatch);
    }
  });
}

}  // namespace hydra::cli
