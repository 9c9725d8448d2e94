// A score contract (docs/output-contract.md) as rows of the results store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/store/row.hpp>

namespace hydra::store {

/// How a ranking is named in the store.
struct RowNaming {
  /// The task; empty: the baseline's task, else "<project>@<commit, 12 digits>",
  /// else "baseline-<digest, 12 digits>".
  std::string task;
  std::int64_t attempt = 1;      ///< the attempt every candidate of the ranking makes
  std::int64_t recorded_at = 0;  ///< seconds since 1970-01-01 UTC
};

/// The default task name of a contract (see RowNaming::task).
std::string default_task(const nlohmann::json& contract);

/// One row per ranked candidate. A candidate whose run names a task
/// (`run.task`) keeps it unless `naming.task` is given. Throws
/// hydra::InputError naming `source_name` for a contract of another schema
/// or tool version (a different major.minor engine_version) and for
/// missing or mistyped keys.
std::vector<CandidateRow> rows_from_contract(const nlohmann::json& contract, const std::string& source_name,
                                             const RowNaming& naming);

/// The engine versions whose contracts this tool imports: the same major.minor.
bool compatible_engine_version(const std::string& version);

}  // namespace hydra::store
