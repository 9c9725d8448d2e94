// Flaky tests end to end: a small CMake project (tests/fixtures/flaky/project)
// whose test counter.timing fails on its first run after configure (it
// rewrites a state file of the build tree in place) and passes when it runs
// again; its baseline and three no-op candidates (a comment line
// each) are captured with the real cmake, ctest and clang-tidy and scored. The
// same for pytest (tests/fixtures/flaky/python). Every candidate is mergeable
// with one total, and every report names the flaky test with its attempts.
#include <catch2/catch.hpp>

#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

const fs::path kFlakyFixtures = kSourceDir / "tests" / "fixtures" / "flaky";

fs::path make_repository(const fs::path& root, const std::string& fixture) {
  const fs::path repository = root / "repo";
  make_repository_from(kFlakyFixtures / fixture, repository);
  return repository;
}

/// Captures the baseline and `candidates` no-op candidates (a comment line
/// appended to `file`), each from the committed tree.
std::vector<std::string> capture_no_ops(const fs::path& root, const fs::path& repository, const std::string& file,
                                        const std::string& comment, int candidates) {
  const auto baseline = capture_agent(root, repository, "baseline");
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  std::vector<std::string> agents;
  for (int index = 1; index <= candidates; ++index) {
    git(repository, {"checkout", "--quiet", "--", "."});
    std::string text = hydra::util::read_file(repository / file);
    hydra::util::write_file_atomic(repository / file, text + comment + " no-op " + std::to_string(index) + "\n");
    const std::string agent = "no-op-" + std::to_string(index);
    const auto captured = capture_agent(root, repository, agent);
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
    agents.push_back(agent);
  }
  git(repository, {"checkout", "--quiet", "--", "."});
  return agents;
}

std::vector<std::string> score_argv(const fs::path& root, const std::vector<std::string>& agents) {
  std::vector<std::string> argv = {kTool.string(), "score", "--baseline", (root / "runs" / "baseline").string(),
                                   "--json", (root / "score.json").string(), "--markdown", (root / "score.md").string(),
                                   "--html", (root / "score.html").string(), "--sarif", (root / "score.sarif").string(),
                                   "--junit", (root / "gates.xml").string()};
  for (const auto& agent : agents) argv.insert(argv.end(), {"--candidate", (root / "runs" / agent).string()});
  return argv;
}

/// The flaky test `id` of the contract's `flaky_tests`.
nlohmann::json flaky_entry(const nlohmann::json& contract, const std::string& id) {
  for (const auto& entry : contract.at("flaky_tests"))
    if (entry.at("id") == id) return entry;
  FAIL("not listed as flaky: " << id << "\n" << contract.at("flaky_tests").dump(1));
  return nullptr;
}

nlohmann::json attempts_of(const nlohmann::json& flaky, const std::string& run) {
  for (const auto& entry : flaky.at("attempts"))
    if (entry.at("run") == run) return entry.at("attempts");
  return nullptr;
}

}  // namespace

TEST_CASE("flaky e2e: a CMake project's flaky test is rerun, named in every report, and blames no no-op candidate",
          "[e2e][flaky]") {
  hydra::util::TempDir temp("hydra-e2e-flaky");
  const fs::path root = temp.path();
  const fs::path repository = make_repository(root, "project");
  const auto agents = capture_no_ops(root, repository, "src/counter.cpp", "//", 3);

  // Scored: the top candidate is mergeable (exit 0); the table names the flaky test.
  const auto scored = run(score_argv(root, agents));
  INFO(scored.output);
  REQUIRE(scored.exit_code == 0);
  CHECK(scored.output.find("Flaky tests (1):") != std::string::npos);
  CHECK(scored.output.find("ctest::counter.timing") != std::string::npos);

  const auto contract = read_json(root / "score.json");
  REQUIRE(contract.at("rankings").size() == 3);
  const double total = contract["rankings"][0]["total"].get<double>();
  for (const auto& entry : contract["rankings"]) {
    INFO(entry.dump(1).substr(0, 4000));
    CHECK(entry["mergeable"] == true);
    CHECK(entry["total"].get<double>() == total);  // one total for the same code
    CHECK(entry["tests"]["regressed"].empty());
    CHECK(entry["dimensions"]["tests"]["score"] == 100.0);
    CHECK(entry["dimensions"]["tests"]["evidence"]["flaky"] == 1);
  }
  const auto flaky = flaky_entry(contract, "ctest::counter.timing");
  // The baseline's rerun ran after its first attempt had rewritten a file
  // of the build tree in place: believed for the baseline (failed, then
  // passed), not for a candidate, whose test failed once and is forgiven as
  // the baseline's flaky test.
  CHECK(flaky["seen_flaky_in"] == nlohmann::json::array({"baseline"}));
  CHECK(attempts_of(flaky, "baseline") == nlohmann::json::array({"failed", "passed"}));
  for (const std::string run_name : {"no-op-1", "no-op-2", "no-op-3"})
    CHECK(attempts_of(flaky, run_name) == nlohmann::json::array({"failed"}));
  {
    const auto candidate = read_json(root / "runs" / "no-op-1" / "manifest.json");
    INFO(candidate.value("test_attempts", nlohmann::json()).dump(1));
    REQUIRE(candidate.at("test_attempts").at("runs").size() >= 1);
    CHECK(candidate["test_attempts"]["runs"][0].value("discarded", std::string())
              .find("an earlier attempt changed files of the build tree in place") != std::string::npos);
  }
  CHECK(contract["baseline"]["summary"]["tests"]["flaky"] == 1);

  // Every report lists it.
  const std::string markdown = hydra::util::read_file(root / "score.md");
  CHECK(markdown.find("### Flaky tests (1)") != std::string::npos);
  CHECK(markdown.find("baseline: failed, passed") != std::string::npos);
  CHECK(hydra::util::read_file(root / "score.html").find("id=\"flaky-tests\"") != std::string::npos);
  const auto sarif = read_json(root / "score.sarif");
  REQUIRE(sarif["properties"]["hydraFlakyTests"].size() == 1);
  CHECK(sarif["properties"]["hydraFlakyTests"][0]["id"] == "ctest::counter.timing");
  CHECK(hydra::util::read_file(root / "gates.xml").find("name=\"flaky_test\"") != std::string::npos);

  // The run directory keeps every attempt, sealed; replay re-derives it.
  const auto manifest = read_json(root / "runs" / "baseline" / "manifest.json");
  REQUIRE(manifest.contains("test_attempts"));
  CHECK(manifest["test_attempts"]["attempts"] == 3);
  REQUIRE(manifest["test_attempts"]["runs"].size() == 1);  // the rerun passed: no third attempt
  const auto& rerun = manifest["test_attempts"]["runs"][0];
  CHECK(rerun["kind"] == "rerun");
  CHECK(rerun["tests"] == nlohmann::json::array({"counter.timing"}));
  CHECK(rerun["results"] == "attempts/2/junit.xml");
  CHECK(manifest["test_attempts"].value("notes", nlohmann::json()).dump().find("timing.state: written") !=
        std::string::npos);
  bool sealed = false;
  for (const auto& artifact : manifest.at("artifacts"))
    sealed = sealed || (artifact["path"] == "attempts/2/junit.xml" && artifact["role"] == "rerun_junit");
  CHECK(sealed);
  const auto replayed = run({kTool.string(), "replay", (root / "runs" / "baseline").string()});
  INFO(replayed.output);
  CHECK(replayed.exit_code == 0);
  CHECK(read_json(root / "runs" / "baseline" / "signals.json")["tests"]["flaky"] == 1);
}

TEST_CASE("flaky e2e: pytest's --last-failed rerun finds the python profile's flaky test", "[e2e][flaky]") {
  hydra::util::TempDir temp("hydra-e2e-flaky-python");
  const fs::path root = temp.path();
  const fs::path repository = make_repository(root, "python");
  const auto agents = capture_no_ops(root, repository, "counter.py", "#", 1);
  const auto scored = run(score_argv(root, agents));
  INFO(scored.output);
  REQUIRE(scored.exit_code == 0);
  const auto contract = read_json(root / "score.json");
  CHECK(contract["rankings"][0]["mergeable"] == true);
  const auto flaky = flaky_entry(contract, "tests.test_timing::test_timing");
  CHECK(attempts_of(flaky, "baseline") == nlohmann::json::array({"failed", "passed"}));
  CHECK(attempts_of(flaky, "no-op-1") == nlohmann::json::array({"failed", "passed"}));
  const auto manifest = read_json(root / "runs" / "no-op-1" / "manifest.json");
  REQUIRE(manifest["test_attempts"]["runs"].size() == 1);
  bool rerun_step = false;
  for (const auto& step : manifest.at("steps"))
    rerun_step = rerun_step || (step["name"] == "test rerun" &&
                                step["command"].get<std::string>().find("--last-failed") != std::string::npos);
  CHECK(rerun_step);
}
