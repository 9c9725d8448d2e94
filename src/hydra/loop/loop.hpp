// The improvement loop (docs/loop.md): an improver command
// changes the source tree, HydraScore captures and scores it, and the change
// is kept only when the score strictly beats the best so far; otherwise the
// tree is restored exactly from the best snapshot. Reference: docs/loop.md.
//
// OUT/state.json          progress, written atomically after every step (resume)
// OUT/results.tsv         iteration, timestamp, score, best_score, action, changelog
// OUT/loop.json|md|html   the convergence report (schema "hydra-score/loop/1")
// OUT/iterations/N/       run/ (the capture), improver.log, report.json
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/capture.hpp>
#include <hydra/config/config.hpp>
#include <hydra/loop/evaluation.hpp>
#include <hydra/score/score.hpp>
#include <hydra/model/run.hpp>

namespace hydra::loop {

/// The [loop] settings (read by config::parse) and the metric they name.
using LoopSettings = config::LoopSettings;
using Metric = config::LoopMetric;
using config::to_string;

struct LoopRequest : capture::BuildTreeOptions {
  std::filesystem::path source;  ///< the candidate tree the improver changes (inside a git work tree)
  std::filesystem::path out;     ///< the loop's output directory (state, results, reports, runs)
  std::filesystem::path build_dir;  ///< one build tree reused by every capture; empty: OUT/build
  /// hydra.toml for the captures. Unset: SOURCE/hydra.toml as iteration 0
  /// found it (later iterations use the copy stored in iteration 0's run).
  std::optional<std::filesystem::path> config;
  LoopSettings settings;
  std::string name;  ///< snapshot refs live under refs/hydra/loop/<name>/; empty: OUT's directory name
  bool progress = true;
  std::optional<std::filesystem::path> clang_tidy;  ///< for the composite metric's lint (capture::CaptureRequest)
};

struct LoopOutcome {
  nlohmann::json report;  ///< the loop report, as written to OUT/loop.json
  bool resumed = false;   ///< OUT held an earlier, unfinished loop that this call continued
  std::optional<int> rolled_back_iteration;  ///< an interrupted iteration that was undone
};

/// The score of one captured run and its eval cases. `metric` chooses the
/// mean pass rate or the ranking composite (/100) of `judged`, the run as
/// pipeline::evaluate scored it against iteration 0 (required for the
/// composite). A run whose build failed or that recorded no tests scores 0
/// with no cases. When `judged` failed the anti_gaming or integrity gate the
/// evaluation is `rejected` (the loop reverts it whatever its score). Pure.
struct Evaluation {
  util::Exact score;  ///< exact: keep/revert compares it with the best exactly
  std::vector<EvalCase> cases;
  std::vector<std::string> failing_tests;  ///< suite::name of tests that did not pass
  std::string summary;                     ///< one line for people
  std::string rejected;                    ///< why the change may not be kept; empty: it may
};
Evaluation evaluate(const model::Run& run, Metric metric, const score::Candidate* judged);

/// Runs (or resumes) the loop until it converges, gets stuck or reaches
/// max_iterations, and writes every output. Throws hydra::Error when the
/// loop cannot run (not a git work tree, iteration 0 cannot be captured,
/// no improver configured).
LoopOutcome run_loop(const LoopRequest& request);

}  // namespace hydra::loop
