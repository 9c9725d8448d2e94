// The compare verdict's output: JSON (the contract), a terminal table and Markdown,
// all rendered from a Comparison. Deterministic: the same comparison gives
// the same bytes. Reference: docs/compare.md ("Output").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <hydra/eval/verdict.hpp>

namespace hydra::report {

/// The schema string of the compare JSON output.
inline constexpr const char* compare_output_schema = "hydra-score/compare/1";

/// The comparison as JSON: thresholds, weights, per-task scores, deltas and
/// reasons, the summed delta, hard regressions, added tasks, verdict, promote
/// and `exit_code`, the status the command ends with for that verdict.
/// Non-finite numbers are written as null.
nlohmann::json to_json(const eval::Comparison& comparison, int exit_code);

/// A plain-text table for the terminal, ending with the verdict line.
std::string render_table(const eval::Comparison& comparison);

/// A Markdown report (for a pull request comment or CI summary).
std::string render_markdown(const eval::Comparison& comparison);

}  // namespace hydra::report
