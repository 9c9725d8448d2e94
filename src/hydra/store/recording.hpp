// Recording rankings into the results store: from a ranking just scored
// (`score --store`) or from score contracts on disk (`record-results`).
// Everything is read and checked before the store is written, in one
// transaction: a bad input leaves the store as it was.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/store/contract_rows.hpp>

namespace hydra::store {

/// What a recording did.
struct RecordOutcome {
  std::size_t rows = 0;      ///< candidates read
  std::size_t inserted = 0;  ///< of them new to the store (the others were recorded before)
};

/// Records the candidates of `contract` into the store at `store_file`
/// (created when missing). `naming.recorded_at` 0 means now.
RecordOutcome record_contract(const std::filesystem::path& store_file, const nlohmann::json& contract,
                              RowNaming naming);

/// Reads every score contract of `score_files` (each must parse and be of
/// this tool's schema and version; hydra::InputError names the file
/// otherwise), then records all their candidates in one transaction.
RecordOutcome import_score_files(const std::filesystem::path& store_file,
                                 const std::vector<std::filesystem::path>& score_files, RowNaming naming);

/// Seconds since 1970-01-01 UTC of `text`: "YYYY-MM-DD" (midnight UTC),
/// "YYYY-MM-DDTHH:MM:SSZ", or a number of seconds. Throws
/// hydra::UsageError naming `option` otherwise.
std::int64_t parse_time(const std::string& text, const std::string& option);

}  // namespace hydra::store
