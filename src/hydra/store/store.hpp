// The results store: every ranking's candidates in one SQLite file, kept
// across tasks and over time (docs/leaderboard.md, "The results store").
//
// Many processes may append at once: the file is in WAL mode, writers wait
// for each other (busy timeout) and write in BEGIN IMMEDIATE transactions;
// (run_id, agent) is unique, so a ranking recorded twice keeps one row.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <hydra/store/row.hpp>

struct sqlite3;

namespace hydra::store {

/// The schema version this tool writes (PRAGMA user_version). Older stores
/// are migrated when opened; a newer one is refused.
inline constexpr int schema_version = 2;

/// Which rows a query returns; empty lists and unset bounds select everything.
struct RowFilter {
  std::vector<std::string> tasks;
  std::vector<std::string> agents;
  std::optional<std::int64_t> since;  ///< recorded_at >= since (seconds since 1970 UTC)
  std::optional<std::int64_t> until;  ///< recorded_at < until
  std::vector<std::string> config_digests;
};

/// An open results store. Not copyable; one per thread.
class Store {
 public:
  enum class Mode {
    create,    ///< create the file (and its folder) when missing
    existing,  ///< the file must exist
  };

  /// Opens (and when needed creates or migrates) the store at `file`.
  /// Throws hydra::InputError naming the file for a file that is not a
  /// SQLite database, a database that is not a results store, and a store
  /// of a newer schema; none of these changes the file.
  Store(const std::filesystem::path& file, Mode mode);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  /// Appends `rows` in one transaction; a row whose (run_id, agent) is
  /// already stored is left as it is. Returns how many rows were new.
  std::size_t record(const std::vector<CandidateRow>& rows);

  /// Which columns rows() reads.
  enum class Columns {
    all,          ///< every field
    no_details,   ///< all but tools, dimensions and gates (left empty)
    leaderboard,  ///< agent, task, attempt, recorded_at, total, mergeable, resolved, cost_usd; unordered
  };

  /// The rows `filter` selects, ordered by agent, task, attempt, recorded_at,
  /// run_id (except Columns::leaderboard); fields not read stay empty.
  std::vector<CandidateRow> rows(const RowFilter& filter, Columns columns = Columns::all) const;

  /// Number of rows stored.
  std::int64_t size() const;

  const std::filesystem::path& file() const noexcept { return file_; }

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
};

/// Creates a new store at `file` with only the migrations up to `version`
/// (for the tests of migrations: Store migrates older stores on open).
void create_at_schema(const std::filesystem::path& file, int version);

}  // namespace hydra::store
