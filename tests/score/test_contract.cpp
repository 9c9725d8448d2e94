// The output contract (docs/output-contract.md) produced by to_contract.
#include <catch2/catch.hpp>

#include <hydra/score/contract.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/version.hpp>

#include "score/run_builders.hpp"

using hydra::model::Run;
using hydra::model::Severity;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using namespace hydra::test;
namespace score = hydra::score;
namespace config = hydra::config;
using nlohmann::json;

namespace {

struct ContractFixture {
  config::Config config;
  Run baseline = make_run("baseline", passing_tests(10), make_findings("b", 2, 5));
  std::vector<Run> candidates;

  ContractFixture() {
    std::vector<TestCase> tests;
    add_tests(tests, "t", 8);
    tests.push_back(make_test("t8", TestStatus::failed));
    tests.push_back(make_test("t9", TestStatus::failed));
    Run codex = make_run("codex", tests, make_findings("b", 1, 5));
    codex.diff = hydra::model::DiffSummary{};
    codex.diff->files.push_back(make_diff_file("src/b.cpp", 4, 4));
    Run claude = make_run("claude", passing_tests(10));  // lint did not run: no clang-tidy
    claude.lint_unavailable_outside_tree = true;
    claude.diff = hydra::model::DiffSummary{};
    claude.diff->files.push_back(make_diff_file("src/a.cpp", 10, 2));
    candidates = {codex, claude};
  }
};

}  // namespace

TEST_CASE("to_contract produces the documented output contract", "[score]") {
  ContractFixture fixture;
  const auto ranking = score::rank(fixture.config, fixture.baseline, fixture.candidates);
  const json contract = score::to_contract(fixture.config, fixture.baseline, ranking);

  SECTION("valid input: top-level shape") {
    CHECK(contract["schema"] == "hydra-score/score/1");
    CHECK(contract["engine_version"] == hydra::engine_version);
    CHECK(contract["config_digest"] == config::digest(fixture.config));
    CHECK(contract["config"] == config::to_json(fixture.config));
    CHECK(contract["weights"] == json{{"build", 30.0}, {"tests", 30.0}, {"lint", 15.0},
                                      {"diff_scope", 15.0}, {"speed", 10.0}, {"judge", 0.0}});
    CHECK(contract["baseline"]["agent"] == "baseline");
    CHECK(contract["baseline"]["path"] == "runs/baseline");
    CHECK(contract["baseline"]["digest"] == "digest-baseline");
    CHECK(contract["baseline"]["summary"]["tests"] ==
          json{{"total", 10}, {"passed", 10}, {"failed", 0}, {"skipped", 0}, {"flaky", 0}});
    CHECK(contract["baseline"]["summary"]["lint"] == json{{"errors", 2}, {"warnings", 5}});
    CHECK(contract["baseline"]["summary"]["build"]["passed"] == true);
  }

  SECTION("valid input: a run captured again alone says why; others say nothing") {
    CHECK_FALSE(contract["rankings"][0]["run"].contains("retried_alone"));
    CHECK_FALSE(contract["baseline"].contains("retried_alone"));
    ContractFixture retried;
    retried.candidates[0].retried_alone = "its build step ran out of time with 1 of 2 jobs";
    retried.baseline.retried_alone = "its test step ran out of time";
    const json with_retry = score::to_contract(
        retried.config, retried.baseline, score::rank(retried.config, retried.baseline, retried.candidates));
    CHECK(with_retry["rankings"][1]["agent"] == "codex");
    CHECK(with_retry["rankings"][1]["run"]["retried_alone"] == "its build step ran out of time with 1 of 2 jobs");
    CHECK_FALSE(with_retry["rankings"][0]["run"].contains("retried_alone"));
    CHECK(with_retry["baseline"]["retried_alone"] == "its test step ran out of time");
  }

  SECTION("valid input: run_id is derived from the inputs in input order") {
    // sha256 of "<engine version>\n<config digest>\n<baseline digest>\n<candidate digests in input order>\n..."
    const std::string expected =
        hydra::util::sha256_hex(std::string(hydra::engine_version) + "\n" +
                                config::digest(fixture.config) + "\ndigest-baseline\n" +
                                "digest-codex\ndigest-claude\n")
            .substr(0, 16);
    CHECK(contract["run_id"] == expected);
    // Ranking puts claude first, but the id follows the input order.
    CHECK(contract["rankings"][0]["agent"] == "claude");

    std::vector<Run> swapped{fixture.candidates[1], fixture.candidates[0]};
    const auto other = score::rank(fixture.config, fixture.baseline, swapped);
    CHECK(score::to_contract(fixture.config, fixture.baseline, other)["run_id"] != expected);
  }

  SECTION("valid input: rankings carry breakdown, weights, dimensions, gates and changes") {
    REQUIRE(contract["rankings"].size() == 2);
    const json& first = contract["rankings"][0];
    // claude: build 100 (w30), tests 100 (w30), diff_scope 100 (w15); lint
    // (no clang-tidy for claude: inactive for the whole ranking) and speed
    // (no durations) inactive -> (3000 + 3000 + 1500) / 75 = 100
    CHECK(first["rank"] == 1);
    CHECK(first["agent"] == "claude");
    CHECK(first["run"] == json{{"path", "runs/claude"}, {"digest", "digest-claude"}, {"sandbox", ""},
                               {"tools", json::object()}});
    CHECK(first["mergeable"] == true);
    CHECK(first["total"] == 100.0);
    CHECK(first["breakdown"] == json{{"build", 100.0}, {"tests", 100.0}, {"lint", nullptr},
                                     {"diff_scope", 100.0}, {"speed", nullptr}});
    // effective weights: 30/75 = 0.4, 30/75 = 0.4, 15/75 = 0.2
    CHECK(first["effective_weights"] ==
          json{{"build", 0.4}, {"tests", 0.4}, {"diff_scope", 0.2}});
    CHECK(first["dimensions"]["lint"]["active"] == false);
    CHECK(first["dimensions"]["lint"]["score"] == nullptr);
    CHECK(first["dimensions"]["lint"]["reason"] == "claude: clang-tidy not found");
    CHECK_FALSE(first["dimensions"]["build"].contains("reason"));
    CHECK(first["gates"].size() == 7);
    CHECK(first["gate_failures"].empty());

    const json& second = contract["rankings"][1];
    // codex: build 100; tests 80 - 2/10*60 = 68; lint 2e5w -> 1e5w:
    // new 0/0, resolved max(0, 7 - 6) = 1 -> 100 + 1 clamped = 100, but lint is
    // inactive for the ranking; diff scope 100 (8 lines, 1 file); speed inactive
    // total = (100*30 + 68*30 + 100*15) / 75 = 6540 / 75 = 87.2
    CHECK(second["rank"] == 2);
    CHECK(second["total"] == 87.2);
    CHECK(second["breakdown"]["tests"] == 68.0);
    CHECK(second["breakdown"]["lint"] == nullptr);
    CHECK(second["mergeable"] == false);
    REQUIRE(second["gate_failures"].size() == 1);
    CHECK(second["gate_failures"][0] ==
          json{{"gate", "max_test_regression_percent"},
               {"detail", "2 regressions (regressed or dropped tests) against 10 baseline-passing tests (20% > 0%)"}});
    REQUIRE(second["tests"]["regressed"].size() == 2);
    CHECK(second["tests"]["regressed"][0] == json{{"id", "ctest::t8"},
                                                  {"suite", "ctest"},
                                                  {"name", "t8"},
                                                  {"status", "failed"},
                                                  {"message", ""},
                                                  {"labels", json::array()},
                                                  {"duration_seconds", 0.0}});
    REQUIRE(second["lint"]["resolved"].size() == 1);
    CHECK(second["lint"]["resolved"][0]["message"] == "finding be1");
    CHECK(second["lint"]["resolved"][0]["fingerprint"].get<std::string>().size() == 16);
    CHECK(second["lint"]["resolved"][0]["severity"] == "error");
    CHECK(second["lint"]["introduced"].empty());
  }

  SECTION("valid input: the same inputs give byte-identical output") {
    const auto again = score::rank(fixture.config, fixture.baseline, fixture.candidates);
    CHECK(score::to_contract(fixture.config, fixture.baseline, again).dump() == contract.dump());
  }
}
