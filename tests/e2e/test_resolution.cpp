// Resolution on a project built like fmt, end to end (real cmake, ctest,
// GoogleTest and git): tests/fixtures/resolution/project has a library, a
// GoogleTest program that links it and a second one that compiles one of
// the library's sources itself (as fmt's posix-mock-test compiles
// src/format.cc). The private test patch changes one case (Calc.Divides),
// adds one (Calc.DividesNegative) and, in the second program, uses a
// function the fix adds, so that program does not build on the base. The
// baseline is captured once with the patch; the three candidates of
// ../candidates/ in one call, and scored in one ranking:
//  - fix: the library's fix and the new function: resolved, mergeable, first;
//  - incomplete: the fix without the new function: the second program still
//    does not build with the private tests: unresolved, not mergeable;
//  - no-op: one comment line in src/calc.cpp, a source the second test
//    program also compiles: judged as code (its held-out run is built),
//    unresolved, not mergeable.
#include <catch2/catch.hpp>

#include <set>

#include <hydra/util/files.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

const fs::path kFixture = kSourceDir / "tests" / "fixtures" / "resolution";

/// The fixture's project committed as main in `root`/repo, with each of
/// `candidates` (../candidates/<name>.patch) on a branch agent/<name>.
fs::path make_repository(const fs::path& root, const std::vector<std::string>& candidates) {
  const fs::path repository = root / "repo";
  fs::copy(kFixture / "project", repository, fs::copy_options::recursive);
  commit_repository(repository);
  for (const auto& name : candidates) {
    git(repository, {"checkout", "--quiet", "-b", "agent/" + name, "main"});
    git(repository, {"apply", "--whitespace=nowarn", (kFixture / "candidates" / (name + ".patch")).string()});
    git(repository, {"commit", "--quiet", "-am", name});
    git(repository, {"checkout", "--quiet", "main"});
  }
  return repository;
}

std::vector<std::string> strings(const nlohmann::json& list) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item.get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("resolution e2e: acceptance tests are cases and programs, a library source a test compiles is code",
          "[e2e][resolution]") {
  hydra::util::TempDir temp("hydra-e2e-resolution");
  const fs::path root = temp.path();
  const fs::path repository = make_repository(root, {"fix", "incomplete", "no-op"});
  hydra::util::write_file_atomic(root / "hydra.toml", "[anti_gaming]\nprivate_test_patch = \"" +
                                                          (kFixture / "private.patch").string() + "\"\n");
  const fs::path runs = root / "runs";
  const auto baseline = run(capture_command(repository, runs / "baseline",
                                            {"--build-dir", (root / "trees" / "baseline").string(), "--agent",
                                             "baseline", "--generator", "Ninja", "--config",
                                             (root / "hydra.toml").string(), "--quiet"}));
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  const auto candidates = run(capture_command(repository, runs,
                                              {"--ref", "agent/*", "--baseline-run", (runs / "baseline").string(),
                                               "--generator", "Ninja", "--jobs", "2", "--quiet"}));
  INFO(candidates.output);
  REQUIRE(candidates.exit_code == 0);

  // The library's source is code, though a test program compiles it too.
  const auto files = read_json(runs / "baseline" / "test-files.json");
  const auto test_files = strings(files.at("files"));
  CHECK(std::find(test_files.begin(), test_files.end(), "src/calc.cpp") == test_files.end());
  CHECK(std::find(test_files.begin(), test_files.end(), "tests/mock_test.cpp") != test_files.end());
  const auto no_op = read_json(runs / "agent-no-op" / "manifest.json").at("held_out");
  CHECK(no_op.at("mode") == "built");
  CHECK(strings(no_op.at("code_files_changed")) == std::vector<std::string>{"src/calc.cpp"});

  const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                           (runs / "agent-fix").string(), "--candidate", (runs / "agent-incomplete").string(),
                           "--candidate", (runs / "agent-no-op").string(), "--json", (root / "score.json").string(),
                           "--markdown", (root / "score.md").string()});
  INFO(scored.output);
  CHECK(scored.exit_code == 0);
  const auto contract = read_json(root / "score.json");
  INFO(contract.at("rankings").dump(1).substr(0, 20000));

  // Acceptance tests: the changed case and the added one (cases of the
  // program that built), and the program that did not build (as one test).
  const std::vector<std::string> acceptance = {"calc_test/Calc/Divides", "calc_test/Calc/DividesNegative", "mock_test"};
  const auto fix = ranking_of(contract, "agent-fix");
  CHECK(contract.at("rankings").at(0).at("agent") == "agent-fix");
  CHECK(fix.at("mergeable") == true);
  CHECK(fix.at("resolution").at("resolved") == true);
  CHECK(strings(fix.at("resolution").at("acceptance_tests")) == acceptance);
  // Its new function's program built on its side only: one program on both
  // sides, never cases "added" beside a program "not run".
  for (const auto& test : fix.at("tests").at("added")) CHECK(test.at("id").get<std::string>().rfind("mock_test", 0) != 0);

  const auto incomplete = ranking_of(contract, "agent-incomplete");
  CHECK(incomplete.at("mergeable") == false);
  CHECK(incomplete.at("resolution").at("resolved") == false);
  CHECK(strings(incomplete.at("resolution").at("still_failing")) == std::vector<std::string>{"mock_test"});

  const auto noop = ranking_of(contract, "agent-no-op");
  CHECK(noop.at("mergeable") == false);
  CHECK(noop.at("resolution").at("resolved") == false);
  CHECK(strings(noop.at("resolution").at("still_failing")) == acceptance);
  CHECK(std::find(failed_gates(noop).begin(), failed_gates(noop).end(), "resolved") != failed_gates(noop).end());

  // Every report gives the verdict; no run directory quotes the private tests.
  const std::string markdown = hydra::util::read_file(root / "score.md");
  CHECK(markdown.find("| Resolved |") != std::string::npos);
  CHECK(markdown.find("UNRESOLVED") != std::string::npos);
  for (const std::string run_name : {"baseline", "agent-fix", "agent-incomplete", "agent-no-op"})
    for (const auto& entry : fs::recursive_directory_iterator(runs / run_name)) {
      if (!entry.is_regular_file()) continue;
      const std::string text = hydra::util::read_file(entry.path());
      INFO(entry.path());
      CHECK(text.find("divide(-7, 2)") == std::string::npos);
      CHECK(text.find("remainder(-7, 2)") == std::string::npos);
    }
}

TEST_CASE("a baseline step forced past its budget leaves the candidates' verdicts, that dimension inactive",
          "[e2e][resolution][budget]") {
  hydra::util::TempDir temp("hydra-e2e-budget");
  const fs::path root = temp.path();
  const fs::path repository = make_repository(root, {"fix"});
  hydra::util::write_file_atomic(root / "hydra.toml", "[scoring.timeouts]\nlint = 15\n");
  // The baseline's clang-tidy never finishes (a machine too busy for it):
  // its lint runs out of its budget. The candidate's is the real one.
  const fs::path slow = root / "slow-clang-tidy";
  hydra::util::write_file_atomic(slow, "#!/bin/sh\nexec sleep 100000\n");
  fs::permissions(slow, fs::perms::owner_all, fs::perm_options::add);
  const fs::path runs = root / "runs";
  const auto baseline = run(capture_command(repository, runs / "baseline",
                                            {"--build-dir", (root / "trees" / "baseline").string(), "--agent",
                                             "baseline", "--generator", "Ninja", "--config",
                                             (root / "hydra.toml").string(), "--no-sandbox", "--quiet"}),
                            {}, {{"HYDRA_SCORE_CLANG_TIDY", slow.string()}});
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  const auto manifest = read_json(runs / "baseline" / "manifest.json");
  REQUIRE(manifest.contains("incomplete_steps"));
  CHECK(manifest.at("incomplete_steps").at(0).at("step") == "lint");
  const auto candidate = run(capture_command(repository, runs,
                                             {"--ref", "agent/*", "--baseline-run", (runs / "baseline").string(),
                                              "--generator", "Ninja", "--no-sandbox", "--quiet"}));
  INFO(candidate.output);
  REQUIRE(candidate.exit_code == 0);
  const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                           (runs / "agent-fix").string(), "--json", (root / "score.json").string()});
  INFO(scored.output);
  CHECK(scored.exit_code == 0);
  const auto fix = ranking_of(read_json(root / "score.json"), "agent-fix");
  INFO(fix.dump(1));
  // Build and tests as they are; lint unmeasurable for every candidate, and
  // no integrity gate failure for what the baseline could not finish.
  CHECK(fix.at("mergeable") == true);
  CHECK(failed_gates(fix).empty());
  CHECK(fix.at("dimensions").at("lint").at("active") == false);
  CHECK(fix.at("dimensions").at("build").at("score") == 100);
  CHECK(fix.at("dimensions").at("tests").at("active") == true);
}
