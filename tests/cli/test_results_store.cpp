// The results store through the command line: several processes recording
// at once lose no row and duplicate none; bad input (a store of a newer
// schema, a corrupt store, a score JSON of another tool or version, negative
// or non-numeric costs) exits 2 naming the file and leaves the store as it was.
#include "cli/cli_support.hpp"

#include <sqlite3.h>

#include <string>
#include <thread>
#include <vector>

#include <hydra/util/sha256.hpp>

using cli_test::run_tool;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// The report fixture's real contract (4 candidates) with its run_id replaced,
/// so that each copy is a ranking of its own.
std::string contract_with_run_id(const std::string& run_id) {
  json contract = cli_test::read_json(cli_test::fixtures_dir / "report" / "contract.json");
  contract["run_id"] = run_id;
  return contract.dump(2) + "\n";
}

std::string digest_of(const fs::path& file) { return hydra::util::sha256_hex(cli_test::read_bytes(file)); }

std::int64_t rows_in(const fs::path& store) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(store.string().c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM candidates", -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  const std::int64_t count = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return count;
}

}  // namespace

TEST_CASE("processes recording into one store at once lose no row and duplicate none", "[cli][store]") {
  hydra::util::TempDir dir("hydra-cli-store");
  constexpr int kProcesses = 6;
  constexpr int kFilesEach = 4;
  cli_test::write_bytes(dir.path() / "shared.json", contract_with_run_id("shared"));
  std::vector<std::vector<std::string>> commands;
  for (int process = 0; process < kProcesses; ++process) {
    std::vector<std::string> command = {"record-results", "--store", "ci/results.db", "shared.json"};
    for (int file = 0; file < kFilesEach; ++file) {
      const std::string name = "job" + std::to_string(process) + "-" + std::to_string(file) + ".json";
      cli_test::write_bytes(dir.path() / name, contract_with_run_id(name));
      command.push_back(name);
    }
    commands.push_back(command);
  }
  // Every process starts on a store that does not exist yet: creation,
  // WAL and migration race too.
  std::vector<cli_test::ToolResult> results(kProcesses);
  std::vector<std::thread> threads;
  for (int process = 0; process < kProcesses; ++process)
    threads.emplace_back([&, process] {
      hydra::util::ProcessRequest request;
      request.argv = {cli_test::tool_path.string()};
      request.argv.insert(request.argv.end(), commands[process].begin(), commands[process].end());
      request.working_directory = dir.path();
      request.timeout = std::chrono::minutes(5);
      const auto result = hydra::util::run_process(request);
      results[process] = {result.exit_code, result.output};
    });
  for (auto& thread : threads) thread.join();
  for (const auto& result : results) {
    INFO(result.output);
    CHECK(result.exit_code == 0);
  }
  // 6 processes x 4 rankings x 4 candidates, and the shared ranking's 4 once.
  CHECK(rows_in(dir.path() / "ci" / "results.db") == kProcesses * kFilesEach * 4 + 4);
  const auto board = run_tool({"leaderboard", "--store", "ci/results.db", "--json", "board.json", "--quiet"}, dir.path());
  REQUIRE(board.exit_code == 0);
  // Every ranking names the same task (the fixture's project and commit): 25 attempts per agent.
  CHECK(cli_test::read_json(dir.path() / "board.json")["agents"][0]["attempts"] == kProcesses * kFilesEach + 1);
}

TEST_CASE("bad input to the store exits 2, names the file and leaves the store unchanged", "[cli][store]") {
  hydra::util::TempDir dir("hydra-cli-store");
  cli_test::write_bytes(dir.path() / "good.json", contract_with_run_id("good"));
  const auto first = run_tool({"record-results", "--store", "results.db", "good.json"}, dir.path());
  REQUIRE(first.exit_code == 0);
  const fs::path store = dir.path() / "results.db";
  // Fold the WAL into the file, so that its digest is the store's content.
  { const auto board = run_tool({"leaderboard", "--store", "results.db", "--quiet"}, dir.path()); }
  const auto record_one = [&](const std::string& name, const std::string& bytes) {
    cli_test::write_bytes(dir.path() / name, bytes);
    cli_test::write_bytes(dir.path() / "valid.json", contract_with_run_id("valid"));
    // The valid file comes first: nothing of it may be recorded either.
    return run_tool({"record-results", "--store", "results.db", "valid.json", name}, dir.path());
  };
  const std::int64_t rows_before = rows_in(store);

  SECTION("a score JSON of another schema") {
    json contract = json::parse(contract_with_run_id("foreign"));
    contract["schema"] = "another-tool/score/3";
    const auto result = record_one("foreign.json", contract.dump());
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("foreign.json: not a score contract this hydra-score reads") != std::string::npos);
  }
  SECTION("a score JSON of another tool version") {
    json contract = json::parse(contract_with_run_id("future"));
    contract["engine_version"] = "3.0.0";
    const auto result = record_one("future.json", contract.dump());
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("future.json: written by hydra-score 3.0.0, another tool version") != std::string::npos);
  }
  SECTION("malformed JSON") {
    const auto result = record_one("broken.json", "{\"schema\": ");
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("broken.json:1:") != std::string::npos);
  }
  SECTION("negative and non-numeric costs in a score JSON") {
    json contract = json::parse(contract_with_run_id("cost"));
    contract["rankings"][1]["run"]["metrics"] = {{"cost_usd", -0.5}};
    auto result = record_one("negative.json", contract.dump());
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("negative.json: rankings[1].run.metrics.cost_usd must be a finite number >= 0") !=
          std::string::npos);
    contract["rankings"][1]["run"]["metrics"] = {{"cost_usd", "0.5 USD"}};
    result = record_one("text.json", contract.dump());
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("text.json: rankings[1].run.metrics.cost_usd must be a number, not string") !=
          std::string::npos);
  }
  SECTION("a store of a newer schema") {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(store.string().c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "PRAGMA user_version = 7", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    const std::string before = digest_of(store);
    const auto result = run_tool({"record-results", "--store", "results.db", "good.json"}, dir.path());
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("results.db: results store of schema version 7, newer than this hydra-score reads") !=
          std::string::npos);
    const auto board = run_tool({"leaderboard", "--store", "results.db"}, dir.path());
    CHECK(board.exit_code == 2);
    CHECK(digest_of(store) == before);
    return;
  }
  SECTION("a corrupt store") {
    cli_test::write_bytes(dir.path() / "corrupt.db", "SQLite format 3" + std::string(5000, '\x07'));
    const std::string before = digest_of(dir.path() / "corrupt.db");
    for (const auto& arguments : std::vector<std::vector<std::string>>{
             {"record-results", "--store", "corrupt.db", "good.json"},
             {"leaderboard", "--store", "corrupt.db"},
             {"compare", "--store", "corrupt.db", "--reference-agent", "a", "--candidate-agent", "b"}}) {
      const auto result = run_tool(arguments, dir.path());
      INFO(result.output);
      CHECK(result.exit_code == 2);
      CHECK(result.output.find("corrupt.db: not a HydraScore results store") != std::string::npos);
    }
    CHECK(digest_of(dir.path() / "corrupt.db") == before);
    return;
  }
  SECTION("a metrics file with a negative or non-numeric cost never reaches the store") {
    cli_test::write_bytes(dir.path() / "negative.metrics.json", R"({"cost_usd": -2})");
    cli_test::write_bytes(dir.path() / "text.metrics.json", R"({"cost_usd": "two dollars"})");
    for (const std::string metrics : {"negative.metrics.json", "text.metrics.json"}) {
      auto arguments = cli_test::record_arguments("clean-fix", "candidate");
      arguments.insert(arguments.end(), {"--metrics", metrics});
      const auto result = run_tool(arguments, dir.path());
      CHECK(result.exit_code == 2);
      CHECK(result.output.find(metrics + ":1:") != std::string::npos);
      CHECK_FALSE(fs::exists(dir.path() / "candidate"));
    }
  }
  CHECK(rows_in(store) == rows_before);
}
