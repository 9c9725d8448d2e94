// End to end: several agents' branches of example-project ranked by the
// hydra_score target alone (HYDRA_SCORE_CANDIDATES=agent/*), then the winner
// applied with the hydra_apply target; real cmake, ctest, clang-tidy and git.
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace e2e;
using hydra::util::TempDir;

namespace {

/// The work tree (tracked and untracked files) equals `ref`; a throw-away
/// index keeps the repository's own index as it is.
bool tree_equals(const fs::path& repository, const std::string& ref, const fs::path& scratch) {
  const std::map<std::string, std::string> index = {{"GIT_INDEX_FILE", (scratch / "index").string()}};
  if (run({"git", "-C", repository.string(), "read-tree", "HEAD"}, {}, index).exit_code != 0) return false;
  if (run({"git", "-C", repository.string(), "add", "--all"}, {}, index).exit_code != 0) return false;
  return run({"git", "-C", repository.string(), "diff", "--cached", "--quiet", ref}, {}, index).exit_code == 0;
}

}  // namespace

TEST_CASE("hydra_score ranks agent branches (HYDRA_SCORE_CANDIDATES) and hydra_apply applies the winner",
          "[e2e][cmake][apply]") {
  TempDir temp("hydra-e2e-candidates");
  const fs::path source = temp.path() / "example-project";
  const fs::path build = temp.path() / "build";
  const fs::path hydra = build / "hydra";
  make_example_repository(source);
  for (const char* name : {"clean-fix", "breaks-test", "no-build"}) make_agent_branch(source, name);

  // The agents' durations come from a directory outside their trees.
  const fs::path metrics = temp.path() / "metrics";
  fs::create_directories(metrics);
  hydra::util::write_file_atomic(metrics / "agent-clean-fix.json", "{\"duration_seconds\": 300}\n");
  hydra::util::write_file_atomic(metrics / "agent-breaks-test.json", "{\"duration_seconds\": 200}\n");
  hydra::util::write_file_atomic(metrics / "agent-no-build.json", "{\"duration_seconds\": 100}\n");

  // A project that never mentions HydraScore; only cache variables.
  const auto configured =
      run({"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug",
           "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + kModule.string(), "-DHYDRA_SCORE_EXECUTABLE=" + kTool.string(),
           "-DHYDRA_SCORE_CANDIDATES=agent/*", "-DHYDRA_SCORE_METRICS_DIR=" + metrics.string(),
           "-DHYDRA_SCORE_JOBS=2"});
  INFO(configured.output);
  REQUIRE(configured.exit_code == 0);

  // Only hydra_score: it captures the baseline (HEAD), skips the unchanged
  // current tree and captures the three branches, then ranks them.
  const auto scored = run({"cmake", "--build", build.string(), "--target", "hydra_score"});
  INFO(scored.output);
  REQUIRE(scored.exit_code == 0);  // the top candidate is mergeable
  CHECK(scored.output.find("not captured") != std::string::npos);  // the current tree equals the base
  const auto contract = read_json(hydra / "score.json");
  REQUIRE(contract["rankings"].size() == 3);
  CHECK(contract["rankings"][0]["agent"] == "agent-clean-fix");
  CHECK(contract["rankings"][0]["mergeable"] == true);
  CHECK(contract["rankings"][1]["agent"] == "agent-breaks-test");
  CHECK(contract["rankings"][1]["mergeable"] == false);
  CHECK(failed_gates(contract["rankings"][1]) == std::vector<std::string>{"max_test_regression_percent"});
  CHECK(contract["rankings"][2]["agent"] == "agent-no-build");
  CHECK(contract["rankings"][2]["mergeable"] == false);
  CHECK(contract["rankings"][2]["breakdown"]["build"] == 0);
  // Speed from HYDRA_SCORE_METRICS_DIR: the clean fix is the only successful
  // agent (300 s): 300/300*100 = 100; the faster failed ones score 100 too.
  CHECK(contract["rankings"][0]["dimensions"]["speed"]["active"] == true);
  CHECK(contract["rankings"][0]["dimensions"]["speed"]["evidence"]["duration_seconds"] == 300);
  CHECK(contract["rankings"][2]["dimensions"]["speed"]["evidence"]["fastest_successful_seconds"] == 300);
  // The clean fix's run is as good as when it was captured from a work tree:
  // its held-out run judged the tests, and it scores 100.
  CHECK(contract["rankings"][0]["total"] == 100);
  // Lint ran on the worktrees although they lie inside the user's build tree
  // (which the target excludes): the baseline's 2 warnings, as in a work tree.
  CHECK(read_json(hydra / "baseline" / "signals.json")["lint"]["warnings"] == 2);
  CHECK(contract["rankings"][0]["dimensions"]["lint"]["active"] == true);
  // The refs' builds took the baseline's objects from ccache (one layout for
  // every capture of a commit): the clean fix changes src/count.cpp only, so
  // at least the other units were hits. Each ref had 1 of the 2 jobs, its
  // budget scaled by the baseline's 2 jobs / 1.
  const auto clean_manifest = read_json(hydra / "agent-clean-fix" / "manifest.json");
  if (clean_manifest["caches"]["compiler"]["used"] == true)
    CHECK(clean_manifest["caches"]["compiler"]["hits"].get<int>() >= 2);
  CHECK(clean_manifest["capture"]["jobs"] == 1);
  CHECK(clean_manifest["time_budget"]["factor"] == 2.0);
  const auto baseline_budget = read_json(hydra / "baseline" / "manifest.json")["time_budget"];
  CHECK(baseline_budget["factor"] == 1.0);  // captured alone with its 2 jobs
  // example-project's hydra.toml: timeout_per_check_seconds = 120; the refs' 120 * 2 / 1 = 240 s.
  CHECK(baseline_budget["build_seconds"] == 120.0);
  CHECK(clean_manifest["time_budget"]["build_seconds"] == 240.0);
  // Worktrees are gone, run directories stay; the user's tree is untouched.
  for (const char* agent : {"agent-clean-fix", "agent-breaks-test", "agent-no-build"}) {
    CAPTURE(agent);
    CHECK(fs::exists(hydra / agent / "manifest.json"));
    CHECK_FALSE(fs::exists(hydra / "trees" / agent / "source"));
    CHECK(fs::exists(hydra / "trees" / agent / "build" / "CMakeCache.txt"));
  }
  CHECK(run({"git", "-C", source.string(), "status", "--porcelain"}).output.empty());

  // A second run reuses the captured refs.
  const auto again = run({"cmake", "--build", build.string(), "--target", "hydra_score"});
  INFO(again.output);
  CHECK(again.exit_code == 0);
  CHECK(again.output.find(hydra.string() + "/agent-clean-fix is up to date") != std::string::npos);

  // The non-building candidate is refused without --force; nothing is written.
  const auto refused = run({kTool.string(), "apply", "--score", (hydra / "score.json").string(), "--agent",
                            "agent-no-build", "--confirm"},
                           source);
  CHECK(refused.exit_code == 3);
  CHECK(refused.output.find("agent \"agent-no-build\" is not mergeable") != std::string::npos);
  CHECK(tree_equals(source, "main", temp.path()));

  // hydra_apply: a dry run by default...
  const auto dry = run({"cmake", "--build", build.string(), "--target", "hydra_apply"});
  INFO(dry.output);
  CHECK(dry.exit_code == 0);
  CHECK(dry.output.find("Would apply agent \"agent-clean-fix\" (rank 1, mergeable)") != std::string::npos);
  CHECK(dry.output.find("  M  src/count.cpp") != std::string::npos);
  CHECK(tree_equals(source, "main", temp.path()));

  // ... and HYDRA_APPLY_CONFIRM=1 writes the clean fix: the tree is its branch.
  const auto applied = run({"cmake", "--build", build.string(), "--target", "hydra_apply"}, {},
                           {{"HYDRA_APPLY_CONFIRM", "1"}});
  INFO(applied.output);
  CHECK(applied.exit_code == 0);
  CHECK(applied.output.find("Applied agent \"agent-clean-fix\"") != std::string::npos);
  CHECK(tree_equals(source, "agent/clean-fix", temp.path()));
}
