// The results store: rows in and out, idempotent recording, filters, schema
// migrations, and what it refuses (a newer schema, a file that is not a
// store) without changing the file.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <string>

#include <hydra/error.hpp>
#include <hydra/store/recording.hpp>
#include <hydra/store/store.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>

namespace fs = std::filesystem;
using hydra::store::CandidateRow;
using hydra::store::Store;

namespace {

CandidateRow row(const std::string& run_id, const std::string& task, const std::string& agent, std::int64_t attempt,
                 std::int64_t recorded_at, double total, bool mergeable) {
  CandidateRow out;
  out.run_id = run_id;
  out.task = task;
  out.agent = agent;
  out.attempt = attempt;
  out.recorded_at = recorded_at;
  out.engine_version = "0.1.0";
  out.config_digest = "config-" + run_id.substr(0, 1);
  out.baseline_digest = "b";
  out.run_digest = run_id + agent;
  out.rank = 1;
  out.total = total;
  out.mergeable = mergeable;
  out.build_passed = true;
  out.checks_passed = 9;
  out.checks_total = 10;
  out.metrics.cost_usd = 0.25;
  out.metrics.input_tokens = 1000;
  out.dimensions_json = R"({"build":{"score":100}})";
  return out;
}

/// Runs `sql` on the SQLite file `file` directly (not through the store).
void raw_sql(const fs::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.string().c_str(), &db) == SQLITE_OK);
  char* error = nullptr;
  const int code = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  INFO((error ? error : ""));
  sqlite3_free(error);
  sqlite3_close(db);
  REQUIRE(code == SQLITE_OK);
}

std::string digest_of(const fs::path& file) { return hydra::util::sha256_hex(hydra::util::read_file(file)); }

}  // namespace

TEST_CASE("a store keeps every candidate once and returns it as recorded", "[store]") {
  hydra::util::TempDir dir("hydra-store");
  const fs::path file = dir.path() / "hydra" / "results.db";
  Store store(file, Store::Mode::create);
  CHECK(fs::exists(file));
  const std::vector<CandidateRow> rows = {row("r1", "t1", "alpha", 1, 100, 100, true),
                                          row("r1", "t1", "beta", 1, 100, 91.11, false),
                                          row("r2", "t2", "alpha", 2, 86500, 95.5, true)};
  CHECK(store.record(rows) == 3);
  SECTION("recording the same ranking again adds nothing") {
    CHECK(store.record(rows) == 0);
    CHECK(store.size() == 3);
    Store reopened(file, Store::Mode::existing);
    CHECK(reopened.record({rows[1]}) == 0);
    CHECK(reopened.size() == 3);
  }
  SECTION("rows come back with every field") {
    const auto back = store.rows({});
    REQUIRE(back.size() == 3);
    CHECK(back[0].agent == "alpha");
    CHECK(back[0].task == "t1");
    CHECK(back[1].task == "t2");
    CHECK(back[1].attempt == 2);
    CHECK(back[2].agent == "beta");
    CHECK(back[2].total == 91.11);
    CHECK_FALSE(back[2].mergeable);
    CHECK_FALSE(back[2].resolved.has_value());
    CHECK(back[0].checks_passed == 9);
    CHECK(back[0].metrics.cost_usd == 0.25);
    CHECK(back[0].metrics.input_tokens == 1000);
    CHECK_FALSE(back[0].metrics.tokens.has_value());
    CHECK(back[0].dimensions_json == R"({"build":{"score":100}})");
    CHECK(back[0].gates_json == "[]");
  }
  SECTION("filters: tasks, agents, time range, config digest") {
    hydra::store::RowFilter filter;
    filter.agents = {"alpha"};
    CHECK(store.rows(filter).size() == 2);
    filter.tasks = {"t2"};
    CHECK(store.rows(filter).size() == 1);
    hydra::store::RowFilter time;
    time.since = 86400;
    CHECK(store.rows(time).size() == 1);
    time.since.reset();
    time.until = 86400;
    CHECK(store.rows(time).size() == 2);
    hydra::store::RowFilter config;
    config.config_digests = {"config-r"};
    CHECK(store.rows(config).size() == 3);
    config.config_digests = {"other"};
    CHECK(store.rows(config).empty());
  }
}

TEST_CASE("an older store is migrated on open and keeps its rows", "[store]") {
  hydra::util::TempDir dir("hydra-store");
  const fs::path file = dir.path() / "results.db";
  hydra::store::create_at_schema(file, 1);
  raw_sql(file,
          "INSERT INTO candidates (run_id, task, agent, attempt, recorded_at, engine_version, config_digest,"
          " baseline_digest, run_digest, rank, total, mergeable, resolved, build_passed, tools, dimensions, gates,"
          " tokens, cost_usd) VALUES ('old', 't', 'a', 1, 5, '0.1.0', 'c', 'b', 'd', 1, 88.5, 1, NULL, 1, '{}', '{}',"
          " '[]', 1234, 0.5)");
  Store store(file, Store::Mode::existing);
  const auto rows = store.rows({});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].total == 88.5);
  CHECK(rows[0].metrics.tokens == 1234);
  CHECK_FALSE(rows[0].metrics.input_tokens.has_value());  // a column schema 2 added
  CHECK(store.record({row("new", "t", "a", 1, 6, 90, true)}) == 1);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.string().c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  CHECK(sqlite3_column_int(statement, 0) == hydra::store::schema_version);
  sqlite3_finalize(statement);
  sqlite3_close(db);
}

TEST_CASE("a store the tool cannot read is refused and left unchanged", "[store]") {
  hydra::util::TempDir dir("hydra-store");
  const fs::path file = dir.path() / "results.db";
  SECTION("a newer schema") {
    { Store store(file, Store::Mode::create); }
    raw_sql(file, "PRAGMA user_version = 99");
    const std::string before = digest_of(file);
    try {
      Store store(file, Store::Mode::existing);
      FAIL("a newer store opened");
    } catch (const hydra::InputError& error) {
      CHECK(error.file() == file.string());
      CHECK(std::string(error.what()).find("schema version 99, newer than this hydra-score reads (2)") !=
            std::string::npos);
    }
    CHECK(digest_of(file) == before);
  }
  SECTION("a corrupt file") {
    hydra::util::write_file_atomic(file, std::string(4096, '\x5a'));
    const std::string before = digest_of(file);
    CHECK_THROWS_AS(Store(file, Store::Mode::create), hydra::InputError);
    try {
      Store store(file, Store::Mode::create);
    } catch (const hydra::InputError& error) {
      CHECK(std::string(error.what()).find(file.string() + ": not a HydraScore results store") == 0);
    }
    CHECK(digest_of(file) == before);
  }
  SECTION("another application's database") {
    raw_sql(file, "CREATE TABLE other (x INTEGER)");
    const std::string before = digest_of(file);
    CHECK_THROWS_WITH(Store(file, Store::Mode::create),
                      Catch::Contains("not a HydraScore results store (a SQLite database of another application)"));
    CHECK(digest_of(file) == before);
  }
  SECTION("a missing store to read") {
    CHECK_THROWS_WITH(Store(dir.path() / "missing.db", Store::Mode::existing), Catch::Contains("no such results store"));
    CHECK_FALSE(fs::exists(dir.path() / "missing.db"));
  }
}

TEST_CASE("times on the command line read as UTC", "[store]") {
  using hydra::store::parse_time;
  CHECK(parse_time("1970-01-01", "--since") == 0);
  CHECK(parse_time("2026-03-01", "--since") == 1772323200);
  CHECK(parse_time("2026-03-01T12:30:05Z", "--since") == 1772323200 + 12 * 3600 + 30 * 60 + 5);
  CHECK(parse_time("1700000000", "--since") == 1700000000);
  CHECK_THROWS_AS(parse_time("yesterday", "--since"), hydra::UsageError);
  CHECK_THROWS_AS(parse_time("2026-13-01", "--since"), hydra::UsageError);
  CHECK_THROWS_WITH(parse_time("2026-03-01 12:00", "--until"), Catch::Contains("--until"));
}
