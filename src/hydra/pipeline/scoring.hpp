// Scoring run directories end to end: load the baseline and candidates,
// choose the config, rank, and build the output contract. Used by
// `hydra-score score` and `hydra-score replay`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::pipeline {

struct ScoreRequest {
  std::filesystem::path baseline;
  std::vector<std::filesystem::path> candidates;
  /// An explicit hydra.toml. Unset: the baseline's stored config (never a
  /// candidate's), or the defaults when the baseline has none.
  std::optional<std::filesystem::path> config;
};

/// Loads and verifies every run, ranks the candidates and returns the output
/// contract (docs/output-contract.md) with an "inputs" object that lets
/// `replay` redo it. Throws hydra::InputError / hydra::Tampered /
/// hydra::UsageError (duplicate agent names, no candidate).
nlohmann::json score_runs(const ScoreRequest& request);

/// The exact bytes written for a contract (2-space indented, trailing newline).
std::string contract_text(const nlohmann::json& contract);

/// True when the first-ranked candidate is mergeable.
bool top_candidate_mergeable(const nlohmann::json& contract);

/// Result of a replay: `matches` is false when anything differs; `detail`
/// names the first difference.
struct ReplayResult {
  bool matches = false;
  std::string detail;
};

/// Re-scores a score JSON from its recorded inputs, or re-parses a run
/// directory and compares with its stored signals.json, byte for byte.
/// Paths recorded in a score JSON are tried relative to the current
/// directory, then to the score file's directory.
ReplayResult replay(const std::filesystem::path& run_or_score);

}  // namespace hydra::pipeline
