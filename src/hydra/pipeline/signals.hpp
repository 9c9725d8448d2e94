// Parsed summaries of a run (signals.json): what people and audits read
// without re-parsing the raw artifacts.
#pragma once

#include <nlohmann/json.hpp>

#include <hydra/model/run.hpp>

namespace hydra::pipeline {

/// Counts and outcomes of `run`: build, tests by status, lint by severity and
/// tool, diff totals, metrics, security. Deterministic (sorted keys).
nlohmann::json signals_json(const model::Run& run);

}  // namespace hydra::pipeline
