// The score output contract (docs/output-contract.md): the one JSON document
// `hydra-score score --json` writes and every report is rendered from.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <hydra/config/config.hpp>
#include <hydra/model/run.hpp>
#include <hydra/score/score.hpp>

namespace hydra::score {

/// Schema identifier written as "schema".
inline constexpr const char* contract_schema = "hydra-score/score/1";

/// At most this many entries of each list of test changes and lint findings
/// are written per candidate (`tests.regressed`, `lint.introduced`, ...); a
/// list that was cut is followed by `<list>_omitted` (how many were left out).
/// A candidate can flood its linter or its test list; GitHub code scanning
/// takes at most 25,000 SARIF results per run.
inline constexpr std::size_t max_listed_entries = 25000;

/// The run id of a scoring: the first 16 hex digits of the SHA-256 over the
/// engine version, `config_digest`, the baseline's digest and the candidates'
/// digests in the order they were given to rank(), each followed by "\n".
std::string run_id(const std::string& config_digest, const model::Run& baseline,
                   const Ranking& ranking);

/// The output contract for `ranking` (as returned by rank() with `config`
/// and `baseline`). Keys are sorted and no wall-clock time is included, so
/// the same inputs give byte-identical `dump()` output.
nlohmann::json to_contract(const config::Config& config, const model::Run& baseline,
                           const Ranking& ranking);

}  // namespace hydra::score
