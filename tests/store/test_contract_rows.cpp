// A score contract as rows of the store: what each candidate carries, the
// default task, and contracts of another tool refused with the file named.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/store/contract_rows.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

using hydra::store::rows_from_contract;
using nlohmann::json;

namespace {

json real_contract() {
  return json::parse(hydra::util::read_file(std::string(HYDRA_FIXTURES_DIR) + "/report/contract.json"));
}

}  // namespace

TEST_CASE("every ranked candidate of a contract is one row", "[store]") {
  json contract = real_contract();
  hydra::store::RowNaming naming;
  naming.recorded_at = 42;
  SECTION("default task: the project and base commit") {
    const auto rows = rows_from_contract(contract, "score.json", naming);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].agent == "clean-fix");
    CHECK(rows[0].task == "baseline@648a76c3d1b9");
    CHECK(rows[0].attempt == 1);
    CHECK(rows[0].recorded_at == 42);
    CHECK(rows[0].run_id == contract["run_id"]);
    CHECK(rows[0].config_digest == contract["config_digest"]);
    CHECK(rows[0].total == 100);
    CHECK(rows[0].mergeable);
    CHECK(rows[0].build_passed);
    // clean-fix passes 12 of 12 tests.
    CHECK(rows[0].checks_passed == 12);
    CHECK(rows[0].checks_total == 12);
    CHECK_FALSE(rows[0].resolved.has_value());
    CHECK(json::parse(rows[0].dimensions_json).contains("diff_scope"));
    CHECK(json::parse(rows[0].gates_json).size() == contract["rankings"][0]["gates"].size());
    CHECK_FALSE(rows[1].mergeable);
  }
  SECTION("a given task, the run's own task, resolution and metrics") {
    contract["rankings"][0]["run"]["task"] = "own-task";
    contract["rankings"][0]["run"]["metrics"] = {{"cost_usd", 0.5}, {"input_tokens", 100}, {"output_tokens", 20}};
    contract["rankings"][0]["resolution"] = {{"resolved", true}, {"acceptance_tests", json::array()}, {"still_failing", json::array()}};
    auto rows = rows_from_contract(contract, "score.json", naming);
    CHECK(rows[0].task == "own-task");
    CHECK(rows[1].task == "baseline@648a76c3d1b9");
    CHECK(rows[0].metrics.cost_usd == 0.5);
    CHECK(rows[0].metrics.output_tokens == 20);
    CHECK(rows[0].resolved == true);
    naming.task = "given";
    naming.attempt = 3;
    rows = rows_from_contract(contract, "score.json", naming);
    CHECK(rows[0].task == "given");
    CHECK(rows[3].attempt == 3);
  }
}

TEST_CASE("a contract of another tool or version is refused, naming the file", "[store]") {
  json contract = real_contract();
  const hydra::store::RowNaming naming;
  SECTION("another schema") {
    contract["schema"] = "other-tool/score/7";
    CHECK_THROWS_WITH(rows_from_contract(contract, "ci/score.json", naming),
                      Catch::StartsWith("ci/score.json: not a score contract this hydra-score reads: schema \"other-tool/score/7\""));
  }
  SECTION("another tool version") {
    contract["engine_version"] = "9.4.0";
    CHECK_THROWS_WITH(rows_from_contract(contract, "ci/score.json", naming),
                      Catch::StartsWith("ci/score.json: written by hydra-score 9.4.0, another tool version"));
  }
  SECTION("a missing ranking key") {
    contract["rankings"][1].erase("mergeable");
    CHECK_THROWS_WITH(rows_from_contract(contract, "ci/score.json", naming),
                      Catch::Contains("rankings[1].mergeable is missing or not a boolean"));
  }
  SECTION("negative and non-numeric costs") {
    contract["rankings"][2]["run"]["metrics"] = {{"cost_usd", -1}};
    CHECK_THROWS_WITH(rows_from_contract(contract, "ci/score.json", naming),
                      Catch::Contains("ci/score.json: rankings[2].run.metrics.cost_usd must be a finite number >= 0"));
    contract["rankings"][2]["run"]["metrics"] = {{"cost_usd", "cheap"}};
    CHECK_THROWS_WITH(rows_from_contract(contract, "ci/score.json", naming),
                      Catch::Contains("rankings[2].run.metrics.cost_usd must be a number, not string"));
  }
  CHECK(hydra::store::compatible_engine_version("0.1.7"));
  CHECK_FALSE(hydra::store::compatible_engine_version("0.2.0"));
}
