// The one evaluation path: run directories in, a judgement out. Every command
// that turns run directories into a judgement (score, replay, the loop with
// either metric) goes through evaluate(), so a rule added to it (seal checks,
// anti-gaming, the scoring formulas) holds everywhere.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/config/config.hpp>
#include <hydra/model/run.hpp>
#include <hydra/pipeline/scoring.hpp>
#include <hydra/score/score.hpp>

namespace hydra::pipeline {

/// Which hydra.toml a capture, a judgement or the loop uses.
struct ConfigFile {
  std::optional<std::filesystem::path> file;  ///< nullopt: the built-in defaults
  std::string source;  ///< the explicit file's path, "baseline", "tree" or "defaults"
};

/// The one rule for choosing hydra.toml, first found wins: `explicit_file`;
/// the copy stored in the run directory `baseline_run` (a candidate is never
/// scored with its own config); `tree`/hydra.toml (capturing a baseline, or
/// the loop's iteration 0); else the defaults.
ConfigFile find_config_file(const std::optional<std::filesystem::path>& explicit_file,
                            const std::optional<std::filesystem::path>& baseline_run,
                            const std::optional<std::filesystem::path>& tree);

/// The configuration a judgement uses and where it came from.
struct ChosenConfig {
  config::Config config;
  std::string source;  ///< the explicit file, "baseline" or "defaults" (recorded in the contract's "inputs")
};

/// `explicit_config` when given; else the hydra.toml stored in the baseline
/// run `baseline` (never a candidate's); else the defaults.
ChosenConfig choose_config(const std::optional<std::filesystem::path>& explicit_config,
                           const std::filesystem::path& baseline);

/// Everything one judgement produced.
struct Evaluation {
  config::Config config;               ///< the configuration used (choose_config)
  model::Run baseline;                 ///< the baseline run, verified and parsed
  std::vector<model::Run> candidates;  ///< the candidates, in request order, with their anti-gaming analysis
  score::Ranking ranking;
  nlohmann::json contract;  ///< the output contract (docs/output-contract.md) with its "inputs"
};

/// Verifies and loads every run, runs the anti-gaming detectors on each
/// candidate against the baseline, scores and ranks them, and builds the
/// contract. Throws hydra::InputError / hydra::Tampered / hydra::UsageError
/// (no candidate, two candidates with one agent name).
Evaluation evaluate(const ScoreRequest& request);

}  // namespace hydra::pipeline
