// The CI templates run: tests/ci/simulate_runner.py executes each template's
// jobs on simulated runners on this machine (a checkout of their own, own
// HOME, temporary folder and caches, the GITHUB_*/CI_* variables, artifacts
// and caches as local copies), from installing the tool's .deb (made here
// with cpack, as the templates' tool job makes it) to the ranking and every
// report, for a baseline and two candidates on separate runners.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "e2e/e2e_support.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kCiScripts = e2e::kSourceDir / "tests" / "ci";

/// hydra-score's .deb, made with cpack from the tested build.
fs::path make_deb(const fs::path& directory) {
  const auto result = e2e::run({HYDRA_CPACK_COMMAND, "--config", std::string(HYDRA_BINARY_DIR) + "/CPackConfig.cmake",
                                "-B", directory.string()});
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  for (const auto& entry : fs::directory_iterator(directory))
    if (entry.path().extension() == ".deb") return entry.path();
  FAIL("cpack made no .deb in " << directory);
  return {};
}

std::string deb_field(const fs::path& deb, const std::string& field) {
  const auto result = e2e::run({"dpkg-deb", "-f", deb.string(), field});
  REQUIRE(result.exit_code == 0);
  return result.output;
}

/// The origin repository the simulated runners check out: example-project
/// on main, candidates on agent/clean-fix and agent/breaks-test.
fs::path make_origin(const fs::path& root) {
  const auto origin = root / "origin";
  e2e::make_example_repository(origin);
  e2e::make_agent_branch(origin, "clean-fix");
  e2e::make_agent_branch(origin, "breaks-test");
  return origin;
}

hydra::util::ProcessResult simulate(const std::string& system, const std::string& tool_job, const std::string& matrix,
                                    const fs::path& root, const fs::path& deb) {
  const auto template_file = e2e::kSourceDir / "templates" / "ci" / (system == "github" ? "github-actions.yml" : "gitlab-ci.yml");
  return e2e::run({"/usr/bin/python3", (kCiScripts / "simulate_runner.py").string(), system, template_file.string(),
                   "--origin", make_origin(root).string(), "--work", (root / "ci").string(),
                   "--tool", tool_job + "=" + deb.string(), "--matrix", matrix});
}

std::string runner_logs(const fs::path& work) {
  std::string text;
  for (const auto& entry : fs::recursive_directory_iterator(work / "runners"))
    if (entry.path().filename() == "runner.log") text += "--- " + entry.path().string() + "\n" + hydra::util::read_file(entry.path());
  return text;
}

/// The ranking both templates must reach: clean-fix first and mergeable,
/// breaks-test below it and held by a gate.
void check_ranking(const fs::path& score_json) {
  REQUIRE(fs::exists(score_json));
  const auto contract = e2e::read_json(score_json);
  REQUIRE(contract.at("rankings").size() == 2);
  CHECK(contract.at("rankings").at(0).at("agent") == "clean-fix");
  CHECK(contract.at("rankings").at(0).at("mergeable") == true);
  CHECK(e2e::ranking_of(contract, "breaks-test").at("mergeable") == false);
}

/// Every capture ran with the tool the .deb installed, each on its own runner.
void check_runners(const fs::path& work, const std::vector<std::string>& capture_runners) {
  std::set<std::string> homes;
  for (const auto& name : capture_runners) {
    CAPTURE(name);
    const auto log = hydra::util::read_file(work / "runners" / name / "runner.log");
    CHECK(log.find("installed hydra-score from hydra-score_") != std::string::npos);
    CHECK(log.find("with its Recommends") != std::string::npos);
    CHECK(fs::is_symlink(work / "runners" / name / "bin" / "hydra-score"));
    homes.insert((work / "runners" / name / "home").string());
  }
  CHECK(homes.size() == capture_runners.size());
}

/// The baseline's runner sent its caches through the template's shared
/// cache and every candidate's runner took hits from it (docs/caches.md).
void check_shared_cache(const fs::path& work) {
  int baselines = 0, candidates = 0;
  for (const auto& entry : fs::recursive_directory_iterator(work / "artifacts")) {
    if (entry.path().filename() != "manifest.json") continue;
    const auto manifest = e2e::read_json(entry.path());
    if (!manifest.contains("caches") || !manifest.contains("agent")) continue;
    CAPTURE(entry.path().string());
    REQUIRE(manifest["caches"].contains("shared"));
    const auto& shared = manifest["caches"]["shared"];
    CHECK_FALSE(shared.contains("unavailable"));
    if (manifest["agent"] == "baseline") {
      ++baselines;
      CHECK(shared["role"] == "writer");
      CHECK(shared["writes"].get<int>() > 0);
    } else {
      ++candidates;
      CHECK(shared["role"] == "reader");
      CHECK(shared["hits"].get<int>() > 0);
      CHECK(shared["writes"] == 0);
    }
  }
  CHECK(baselines == 1);
  CHECK(candidates == 2);
}

}  // namespace

TEST_CASE("the hydra-score .deb depends on every library the tool loads and recommends what a capture drives",
          "[e2e][ci]") {
  hydra::util::TempDir dir("hydra-deb");
  const auto deb = make_deb(dir.path() / "deb");
  const auto runtime = e2e::run({"/usr/bin/python3", (kCiScripts / "check_packages.py").string(), "runtime",
                                 e2e::kTool.string(), deb.string()});
  INFO(runtime.output);
  CHECK(runtime.exit_code == 0);
  const std::string recommends = deb_field(deb, "Recommends");
  std::istringstream tools(hydra::util::read_file(e2e::kSourceDir / "scripts" / "packages" / "tools.txt"));
  int named = 0;
  for (std::string line; std::getline(tools, line);) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    for (std::string package; words >> package; ++named) {
      CAPTURE(package);
      CHECK(std::regex_search(recommends, std::regex("(^|, )" + package + "(,|\\s|$)")));
    }
  }
  CHECK(named >= 5);
}

TEST_CASE("the GitHub Actions template runs on simulated runners from the .deb to the ranking and its reports",
          "[e2e][ci]") {
  hydra::util::TempDir dir("hydra-ci-github");
  const auto deb = make_deb(dir.path() / "deb");
  const auto result = simulate("github", "tool", "agent=clean-fix,breaks-test", dir.path(), deb);
  const fs::path work = dir.path() / "ci";
  INFO(result.output << (fs::exists(work / "runners") ? runner_logs(work) : std::string()));
  REQUIRE(result.exit_code == 0);
  const auto report = e2e::read_json(work / "report.json");
  for (const char* job : {"baseline", "candidate", "score"}) CHECK(report.at("results").at(job) == "success");
  check_runners(work, {"baseline", "candidate-clean-fix", "candidate-breaks-test"});
  check_shared_cache(work);

  const fs::path reports = work / "artifacts" / "hydra-score-report";
  check_ranking(reports / "score.json");
  for (const char* name : {"score.md", "score.html", "score.sarif", "gates.xml"}) CHECK(fs::exists(reports / name));
  // One root for all the paths: their least common ancestor, the workspace.
  for (const char* name : {"hydra-results/results.db", "leaderboard.json", "leaderboard.md", "leaderboard.html"}) {
    CAPTURE(name);
    CHECK(fs::exists(work / "artifacts" / "hydra-results-store" / name));
  }
  CHECK(fs::exists(work / "caches" / "hydra-results-4242-1" / "hydra-results" / "results.db"));
  CHECK(fs::exists(work / "published" / "code-scanning-hydra-score.sarif"));
  CHECK(fs::exists(work / "published" / "checks-gates.xml"));
  const auto summary = hydra::util::read_file(work / "runners" / "score" / "summary.md");
  CHECK(summary.find("clean-fix") != std::string::npos);
  CHECK(summary.find("## HydraScore leaderboard") != std::string::npos);
}

TEST_CASE("the GitLab CI template runs on simulated runners from the .deb to the ranking and its reports",
          "[e2e][ci]") {
  hydra::util::TempDir dir("hydra-ci-gitlab");
  const auto deb = make_deb(dir.path() / "deb");
  const auto result = simulate("gitlab", "hydra-score-tool", "AGENT=clean-fix,breaks-test", dir.path(), deb);
  const fs::path work = dir.path() / "ci";
  INFO(result.output << (fs::exists(work / "runners") ? runner_logs(work) : std::string()));
  REQUIRE(result.exit_code == 0);
  const auto report = e2e::read_json(work / "report.json");
  for (const char* job : {"hydra-baseline", "hydra-candidate", "hydra-score"})
    CHECK(report.at("results").at(job) == "success");
  check_runners(work, {"hydra-baseline", "hydra-candidate-clean-fix", "hydra-candidate-breaks-test"});
  check_shared_cache(work);

  const fs::path artifacts = work / "artifacts" / "hydra-score";
  check_ranking(artifacts / "score.json");
  for (const char* name : {"score.md", "score.html", "score.sarif", "gates.xml", "hydra-results/results.db",
                           "leaderboard.md", "leaderboard.html", "leaderboard.json"}) {
    CAPTURE(name);
    CHECK(fs::exists(artifacts / name));
  }
  CHECK(fs::exists(work / "caches" / "hydra-results" / "hydra-results" / "results.db"));
  CHECK(fs::exists(work / "published" / "junit-gates.xml"));
  // The score job installs the .deb alone: scoring needs none of the capture's programs.
  const auto score_log = hydra::util::read_file(work / "runners" / "hydra-score" / "runner.log");
  CHECK(score_log.find("installed hydra-score from") != std::string::npos);
  CHECK(score_log.find("with its Recommends") == std::string::npos);
}
