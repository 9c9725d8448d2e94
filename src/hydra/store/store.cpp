#include <hydra/store/store.hpp>

#include <sqlite3.h>

#include <chrono>
#include <thread>

#include <hydra/error.hpp>

namespace hydra::store {
namespace {

/// PRAGMA application_id of a results store: "HYDR".
constexpr int kApplicationId = 0x48594452;
/// How long a writer waits for another (busy timeout).
constexpr int kBusyTimeoutMs = 60000;

/// The migrations: migrations[v - 1] brings a store of schema v - 1 to v.
/// Plain SQL of the common subset (tables, columns, indexes), so the schema
/// carries over to a server database.
const char* const kMigrations[] = {
    // 1: one row per ranked candidate.
    "CREATE TABLE candidates ("
    " id INTEGER PRIMARY KEY,"
    " run_id TEXT NOT NULL, task TEXT NOT NULL, agent TEXT NOT NULL, attempt INTEGER NOT NULL,"
    " recorded_at INTEGER NOT NULL, engine_version TEXT NOT NULL, config_digest TEXT NOT NULL,"
    " baseline_digest TEXT NOT NULL, run_digest TEXT NOT NULL, rank INTEGER NOT NULL,"
    " total REAL NOT NULL, mergeable INTEGER NOT NULL, resolved INTEGER, build_passed INTEGER NOT NULL,"
    " checks_passed INTEGER, checks_total INTEGER,"
    " tokens REAL, cost_usd REAL, tool_calls REAL, steps REAL, wall_clock_ms REAL, duration_seconds REAL,"
    " tools TEXT NOT NULL, dimensions TEXT NOT NULL, gates TEXT NOT NULL,"
    " UNIQUE (run_id, agent));",
    // 2: the metrics' input and output tokens; indexes for the leaderboard's filters.
    "ALTER TABLE candidates ADD COLUMN input_tokens REAL;"
    "ALTER TABLE candidates ADD COLUMN output_tokens REAL;"
    "CREATE INDEX candidates_by_agent ON candidates (agent, task, attempt);"
    "CREATE INDEX candidates_by_time ON candidates (recorded_at);",
};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == schema_version);

/// Why a SQLite call failed, naming the file. A file that is not a database
/// (or is damaged) is the user's input: InputError, exit 2.
[[noreturn]] void fail(sqlite3* db, int code, const std::string& file, const std::string& doing) {
  const std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  const int primary = code & 0xff;
  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
    throw InputError(file, "not a HydraScore results store (" + message + ")");
  if (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM)
    throw InputError(file, "cannot " + doing + ": " + message);
  throw Error(file + ": cannot " + doing + ": " + message);
}

void execute(sqlite3* db, const char* sql, const std::string& file, const std::string& doing) {
  char* error = nullptr;
  const int code = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (error) sqlite3_free(error);
  if (code != SQLITE_OK) fail(db, code, file, doing);
}

/// A prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& file) : db_(db), file_(file) {
    const int code = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &statement_, nullptr);
    if (code != SQLITE_OK) fail(db, code, file, "read the store");
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  /// Steps once: true while a row is available.
  bool step() {
    const int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    fail(db_, code, file_, "read the store");
  }
  void reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  void bind(int index, const std::string& text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  void bind(int index, std::int64_t value) { sqlite3_bind_int64(statement_, index, value); }
  void bind(int index, const std::optional<double>& value) {
    if (value) sqlite3_bind_double(statement_, index, *value);
    else sqlite3_bind_null(statement_, index);
  }
  void bind(int index, const std::optional<std::int64_t>& value) {
    if (value) sqlite3_bind_int64(statement_, index, *value);
    else sqlite3_bind_null(statement_, index);
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  double real(int column) const { return sqlite3_column_double(statement_, column); }
  bool null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  std::optional<double> optional_real(int column) const {
    return null(column) ? std::nullopt : std::optional<double>(real(column));
  }
  std::optional<std::int64_t> optional_integer(int column) const {
    return null(column) ? std::nullopt : std::optional<std::int64_t>(integer(column));
  }
  std::string text(int column) const {
    const auto* bytes = sqlite3_column_text(statement_, column);
    return bytes ? std::string(reinterpret_cast<const char*>(bytes),
                               static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)))
                 : std::string();
  }

 private:
  sqlite3* db_;
  std::string file_;
  sqlite3_stmt* statement_ = nullptr;
};

std::int64_t pragma_value(sqlite3* db, const char* pragma, const std::string& file) {
  Statement statement(db, std::string("PRAGMA ") + pragma, file);
  return statement.step() ? statement.integer(0) : 0;
}

/// The number of tables in the database (0: a new, empty file).
std::int64_t table_count(sqlite3* db, const std::string& file) {
  Statement statement(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", file);
  return statement.step() ? statement.integer(0) : 0;
}

/// Refuses a database that is not a store, or a store newer than this tool;
/// reads only, so a refused file stays as it was.
void check_identity(sqlite3* db, const std::string& file) {
  const std::int64_t application = pragma_value(db, "application_id", file);
  const std::int64_t version = pragma_value(db, "user_version", file);
  if (application == 0 && version == 0 && table_count(db, file) == 0) return;  // new
  if (application != kApplicationId)
    throw InputError(file, "not a HydraScore results store (a SQLite database of another application)");
  if (version > schema_version)
    throw InputError(file, "results store of schema version " + std::to_string(version) +
                               ", newer than this hydra-score reads (" + std::to_string(schema_version) +
                               "): use a newer hydra-score");
}

/// check_identity in one read transaction: its reads see one snapshot, even
/// while another process creates the store.
void check_identity_consistently(sqlite3* db, const std::string& file) {
  execute(db, "BEGIN", file, "read the store");
  try {
    check_identity(db, file);
    execute(db, "COMMIT", file, "read the store");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

/// Brings the store to `target` inside one BEGIN IMMEDIATE transaction
/// (concurrent openers wait; the second finds the work done).
void migrate_to(sqlite3* db, int target, const std::string& file) {
  execute(db, "BEGIN IMMEDIATE", file, "lock the store");
  try {
    check_identity(db, file);
    const auto version = static_cast<int>(pragma_value(db, "user_version", file));
    if (version < target) {
      for (int next = version + 1; next <= target; ++next)
        execute(db, kMigrations[next - 1], file, "migrate the store to schema " + std::to_string(next));
      execute(db, ("PRAGMA application_id = " + std::to_string(kApplicationId)).c_str(), file, "write the store");
      execute(db, ("PRAGMA user_version = " + std::to_string(target)).c_str(), file, "write the store");
    }
    execute(db, "COMMIT", file, "write the store");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

sqlite3* open_database(const std::filesystem::path& file, Store::Mode mode) {
  const std::string name = file.string();
  if (mode == Store::Mode::existing && !std::filesystem::is_regular_file(file))
    throw InputError(name, "no such results store");
  if (mode == Store::Mode::create && file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (mode == Store::Mode::create ? SQLITE_OPEN_CREATE : 0) |
                    SQLITE_OPEN_NOMUTEX;
  const int code = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
  if (code != SQLITE_OK) {
    const std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    sqlite3_close(db);
    throw InputError(name, "cannot open the results store: " + message);
  }
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  return db;
}

/// WAL: readers never block the writer. Switching takes a moment's
/// exclusive lock; a busy answer is retried. synchronous = NORMAL: in WAL
/// mode a power loss may lose the last commits, never corrupt the file.
void use_wal(sqlite3* db, const std::string& file) {
  for (int tries = 0;; ++tries) {
    char* error = nullptr;
    const int code = sqlite3_exec(db, "PRAGMA journal_mode = WAL", nullptr, nullptr, &error);
    if (error) sqlite3_free(error);
    if (code == SQLITE_OK) {
      execute(db, "PRAGMA synchronous = NORMAL", file, "configure the store");
      return;
    }
    if ((code & 0xff) != SQLITE_BUSY || tries > 600) fail(db, code, file, "switch the store to WAL mode");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

const char* const kColumns =
    "run_id, task, agent, attempt, recorded_at, engine_version, config_digest, baseline_digest, run_digest,"
    " rank, total, mergeable, resolved, build_passed, checks_passed, checks_total,"
    " tokens, input_tokens, output_tokens, cost_usd, tool_calls, steps, wall_clock_ms, duration_seconds";

}  // namespace

Store::Store(const std::filesystem::path& file, Mode mode) : file_(file) {
  db_ = open_database(file, mode);
  try {
    check_identity_consistently(db_, file_.string());  // before anything writes to the file
    use_wal(db_, file_.string());
    migrate_to(db_, schema_version, file_.string());
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

Store::~Store() { sqlite3_close(db_); }

std::size_t Store::record(const std::vector<CandidateRow>& rows) {
  const std::string file = file_.string();
  execute(db_, "BEGIN IMMEDIATE", file, "lock the store");
  std::size_t inserted = 0;
  try {
    Statement insert(db_,
                     std::string("INSERT INTO candidates (") + kColumns +
                         ", tools, dimensions, gates) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
                         " ON CONFLICT (run_id, agent) DO NOTHING",
                     file);
    for (const auto& row : rows) {
      int at = 0;
      insert.bind(++at, row.run_id);
      insert.bind(++at, row.task);
      insert.bind(++at, row.agent);
      insert.bind(++at, row.attempt);
      insert.bind(++at, row.recorded_at);
      insert.bind(++at, row.engine_version);
      insert.bind(++at, row.config_digest);
      insert.bind(++at, row.baseline_digest);
      insert.bind(++at, row.run_digest);
      insert.bind(++at, row.rank);
      insert.bind(++at, std::optional<double>(row.total));
      insert.bind(++at, std::int64_t{row.mergeable});
      insert.bind(++at, row.resolved ? std::optional<std::int64_t>(*row.resolved) : std::nullopt);
      insert.bind(++at, std::int64_t{row.build_passed});
      insert.bind(++at, row.checks_passed);
      insert.bind(++at, row.checks_total);
      insert.bind(++at, row.metrics.tokens);
      insert.bind(++at, row.metrics.input_tokens);
      insert.bind(++at, row.metrics.output_tokens);
      insert.bind(++at, row.metrics.cost_usd);
      insert.bind(++at, row.metrics.tool_calls);
      insert.bind(++at, row.metrics.steps);
      insert.bind(++at, row.metrics.wall_clock_ms);
      insert.bind(++at, row.metrics.duration_seconds);
      insert.bind(++at, row.tools_json.empty() ? std::string("{}") : row.tools_json);
      insert.bind(++at, row.dimensions_json.empty() ? std::string("{}") : row.dimensions_json);
      insert.bind(++at, row.gates_json.empty() ? std::string("[]") : row.gates_json);
      insert.step();
      inserted += static_cast<std::size_t>(sqlite3_changes(db_));
      insert.reset();
    }
    execute(db_, "COMMIT", file, "write the store");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return inserted;
}

std::vector<CandidateRow> Store::rows(const RowFilter& filter, Columns columns) const {
  const bool lean = columns == Columns::leaderboard;
  std::string sql = std::string("SELECT ") +
                    (lean ? "agent, task, attempt, recorded_at, total, mergeable, resolved, cost_usd" : kColumns) +
                    (columns == Columns::all ? ", tools, dimensions, gates" : "") + " FROM candidates WHERE 1";
  std::vector<std::string> texts;
  const auto any_of = [&](const char* column, const std::vector<std::string>& values) {
    if (values.empty()) return;
    sql += std::string(" AND ") + column + " IN (";
    for (std::size_t index = 0; index < values.size(); ++index) {
      sql += index ? ",?" : "?";
      texts.push_back(values[index]);
    }
    sql += ")";
  };
  any_of("task", filter.tasks);
  any_of("agent", filter.agents);
  any_of("config_digest", filter.config_digests);
  if (filter.since) sql += " AND recorded_at >= " + std::to_string(*filter.since);
  if (filter.until) sql += " AND recorded_at < " + std::to_string(*filter.until);
  if (!lean) sql += " ORDER BY agent, task, attempt, recorded_at, run_id";
  Statement query(db_, sql, file_.string());
  for (std::size_t index = 0; index < texts.size(); ++index) query.bind(static_cast<int>(index + 1), texts[index]);
  std::vector<CandidateRow> out;
  while (query.step()) {
    CandidateRow row;
    int at = 0;
    if (lean) {
      row.agent = query.text(at++);
      row.task = query.text(at++);
      row.attempt = query.integer(at++);
      row.recorded_at = query.integer(at++);
      row.total = query.real(at++);
      row.mergeable = query.integer(at++) != 0;
      if (const auto resolved = query.optional_integer(at++)) row.resolved = *resolved != 0;
      row.metrics.cost_usd = query.optional_real(at++);
      out.push_back(std::move(row));
      continue;
    }
    row.run_id = query.text(at++);
    row.task = query.text(at++);
    row.agent = query.text(at++);
    row.attempt = query.integer(at++);
    row.recorded_at = query.integer(at++);
    row.engine_version = query.text(at++);
    row.config_digest = query.text(at++);
    row.baseline_digest = query.text(at++);
    row.run_digest = query.text(at++);
    row.rank = query.integer(at++);
    row.total = query.real(at++);
    row.mergeable = query.integer(at++) != 0;
    if (const auto resolved = query.optional_integer(at++)) row.resolved = *resolved != 0;
    row.build_passed = query.integer(at++) != 0;
    row.checks_passed = query.optional_integer(at++);
    row.checks_total = query.optional_integer(at++);
    row.metrics.tokens = query.optional_real(at++);
    row.metrics.input_tokens = query.optional_real(at++);
    row.metrics.output_tokens = query.optional_real(at++);
    row.metrics.cost_usd = query.optional_real(at++);
    row.metrics.tool_calls = query.optional_real(at++);
    row.metrics.steps = query.optional_real(at++);
    row.metrics.wall_clock_ms = query.optional_real(at++);
    row.metrics.duration_seconds = query.optional_real(at++);
    if (columns == Columns::all) {
      row.tools_json = query.text(at++);
      row.dimensions_json = query.text(at++);
      row.gates_json = query.text(at++);
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::int64_t Store::size() const {
  Statement count(db_, "SELECT count(*) FROM candidates", file_.string());
  return count.step() ? count.integer(0) : 0;
}

void create_at_schema(const std::filesystem::path& file, int version) {
  sqlite3* db = open_database(file, Store::Mode::create);
  try {
    check_identity_consistently(db, file.string());
    migrate_to(db, version, file.string());
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  sqlite3_close(db);
}

}  // namespace hydra::store
