// What candidate code could reach, as the score contract says it
// (score/confinement.hpp): `alerts`, and each run's `unconfined` / `network`.
#include <catch2/catch.hpp>

#include <hydra/score/confinement.hpp>
#include <hydra/score/contract.hpp>

#include "score/run_builders.hpp"

using hydra::model::Run;
using namespace hydra::test;
namespace score = hydra::score;
using nlohmann::json;

namespace {

Run captured(const std::string& agent, bool sandboxed, bool network = false) {
  Run run = make_run(agent, passing_tests(3));
  run.sandbox = sandboxed ? "bubblewrap: ..." : "none: bubblewrap (bwrap) is not installed";
  run.sandboxed = sandboxed;
  run.network = network;
  return run;
}

}  // namespace

TEST_CASE("every run whose code ran unconfined or with network is an alert, the baseline first", "[score]") {
  const hydra::config::Config config;
  SECTION("confined without network, or recorded (nothing ran): no alert, and the contract keeps its bytes") {
    Run recorded = make_run("recorded", passing_tests(3));  // sandboxed unknown: `record` ran nothing
    const auto ranking = score::rank(config, captured("baseline", true), {captured("codex", true), recorded});
    CHECK(score::sandbox_warnings(captured("baseline", true), ranking).empty());
    const json contract = score::to_contract(config, captured("baseline", true), ranking);
    CHECK(contract.count("alerts") == 0);
    CHECK(contract["rankings"][0]["run"].count("unconfined") == 0);
    CHECK(contract["rankings"][0]["run"].count("network") == 0);
  }
  SECTION("unconfined and with network, in order") {
    const Run baseline = captured("baseline", false);
    const auto ranking = score::rank(config, baseline, {captured("codex", true, true), captured("claude", false)});
    const auto lines = score::sandbox_warnings(baseline, ranking);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] ==
          "the baseline's (baseline) code ran UNCONFINED (bubblewrap (bwrap) is not installed): it could read the "
          "user's files and secrets, reach the network and write outside its trees");
    // Ranking order: both pass everything, ties go by agent name.
    CHECK(lines[1] ==
          "candidate claude's code ran UNCONFINED (bubblewrap (bwrap) is not installed): it could read the user's "
          "files and secrets, reach the network and write outside its trees");
    CHECK(lines[2] == "candidate codex's code ran with network access ([sandbox] network = true)");
    const json contract = score::to_contract(config, baseline, ranking);
    CHECK(contract["alerts"] == json(lines));
    CHECK(contract.begin().key() == "alerts");
    CHECK(contract["baseline"]["unconfined"] == true);
    CHECK(contract["rankings"][0]["run"]["unconfined"] == true);
    CHECK(contract["rankings"][1]["run"]["network"] == true);
    CHECK(contract["rankings"][1]["run"].count("unconfined") == 0);
  }
}

TEST_CASE("a baseline whose plain configure failed is an alert: the configure differential cannot judge", "[score]") {
  const hydra::config::Config config;
  Run baseline = captured("baseline", true);
  baseline.records.configure_differential = std::vector<hydra::model::ConfigureDifference>{
      {"configure", "the configure failed outside HydraScore's capture (exit 1): CMake Error at CMakeLists.txt:3"}};
  const auto ranking = score::rank(config, baseline, {captured("codex", true)});
  CHECK(score::configure_differential_warning(baseline) ==
        "the baseline's (baseline) plain configure failed (exit 1): the configure differential cannot judge a "
        "candidate whose plain configure fails too");
  const json contract = score::to_contract(config, baseline, ranking);
  CHECK(contract["alerts"] == json::array({score::configure_differential_warning(baseline)}));
  baseline.records.configure_differential = std::vector<hydra::model::ConfigureDifference>{};
  CHECK(score::configure_differential_warning(baseline).empty());
}
