// End to end: one change scores the same whichever documented flow captured
// it. example-project's protected-lint change (code, a test, a protected
// CMake file, two new clang-tidy warnings) is captured
//  - from the work tree by the hydra_baseline and hydra_score targets,
//  - from the branch agent/protected-lint by hydra_score with
//    HYDRA_SCORE_CANDIDATES=agent/* (the baseline at HEAD through a worktree),
//  - by `hydra-score capture --ref` against the work-tree baseline,
//  - by the demo (cmake/HydraScoreDemo.cmake: the patch in a worktree of its
//    own outside the build tree, captured with --source),
// and the signals and the scored dimensions of the four are compared.
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace e2e;
using hydra::util::TempDir;
using nlohmann::json;

namespace {

const std::string kChange = "protected-lint";

void configure(const fs::path& source, const fs::path& build, std::vector<std::string> extra) {
  std::vector<std::string> argv = {"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja",
                                   "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + kModule.string(),
                                   "-DHYDRA_SCORE_EXECUTABLE=" + kTool.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto result = run(argv);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
}

/// What a run says about the change, without what names the run (agent)
/// or measures the machine (durations), and without the agent's metrics
/// (only the demo gives them).
json signals_of(const fs::path& run_dir) {
  json signals = read_json(run_dir / "signals.json");
  signals.erase("agent");
  signals.erase("metrics");
  signals["build"].erase("seconds");
  return signals;
}

/// The scored entry of the one candidate of `contract`, without what names
/// the run or measures the machine (the build's seconds, each test's).
json scored_of(const json& contract) {
  REQUIRE(contract.at("rankings").size() == 1);
  json entry = contract["rankings"][0];
  for (const char* key : {"agent", "run", "rank"}) entry.erase(key);
  entry["dimensions"]["build"]["evidence"].erase("seconds");
  for (auto& [list, tests] : entry["tests"].items())
    if (tests.is_array())
      for (auto& test : tests) test.erase("duration_seconds");
  return entry;
}

/// `scored` without the speed dimension and what depends on it (the
/// composite, the weights, the active-dimensions gate): the demo gives
/// agent durations, the other flows do not.
json without_speed(json scored) {
  scored["breakdown"].erase("speed");
  scored["dimensions"].erase("speed");
  for (const char* key : {"total", "effective_weights", "gates"}) scored.erase(key);
  return scored;
}

}  // namespace

TEST_CASE("one change scores the same in every documented flow", "[e2e][cmake][flows]") {
  TempDir temp("hydra-e2e-flows");
  const fs::path source = temp.path() / "example-project";
  make_example_repository(source);
  make_agent_branch(source, kChange);

  // Branches: hydra_score alone captures the baseline (HEAD) and the ref.
  const fs::path refs_build = temp.path() / "build-refs";
  configure(source, refs_build, {"-DHYDRA_SCORE_CANDIDATES=agent/*", "-DHYDRA_SCORE_JOBS=2"});
  const auto by_branch = run({"cmake", "--build", refs_build.string(), "--target", "hydra_score"});
  INFO(by_branch.output);
  const fs::path branch_run = refs_build / "hydra" / ("agent-" + kChange);
  REQUIRE(fs::exists(branch_run / "signals.json"));

  // Work tree: hydra_baseline on the clean tree, then the change in the tree.
  const fs::path tree_build = temp.path() / "build-tree";
  // The change edits CMakeLists.txt: the working-tree flow scores it only
  // when the user opts in (cmake --build runs its configure unsandboxed).
  configure(source, tree_build, {"-DHYDRA_SCORE_AGENT=" + kChange, "-DHYDRA_SCORE_ALLOW_CMAKE_CHANGES=ON"});
  const auto baseline = run({"cmake", "--build", tree_build.string(), "--target", "hydra_baseline"});
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  apply_candidate(source, kChange);
  const auto by_tree = run({"cmake", "--build", tree_build.string(), "--target", "hydra_score"});
  INFO(by_tree.output);
  apply_candidate(source, "");
  const fs::path tree_hydra = tree_build / "hydra";
  REQUIRE(fs::exists(tree_hydra / kChange / "signals.json"));

  // capture --ref against the work tree's baseline, then score.
  const fs::path ref_runs = temp.path() / "ref-runs";
  const auto by_ref = run(capture_command(source, ref_runs,
                                         {"--ref", "agent/" + kChange, "--baseline-run",
                                          (tree_hydra / "baseline").string(), "--generator", "Ninja",
                                          "--initial-cache", (tree_build / "hydra" / "initial-cache.cmake").string(),
                                          "--jobs", "2"}));
  INFO(by_ref.output);
  REQUIRE(by_ref.exit_code == 0);
  const fs::path ref_run = ref_runs / ("agent-" + kChange);
  const auto ref_scored = run({kTool.string(), "score", "--baseline", (tree_hydra / "baseline").string(),
                               "--candidate", ref_run.string(), "--json", (temp.path() / "ref.json").string(),
                               "--quiet", "--no-gate-exit"});
  INFO(ref_scored.output);
  REQUIRE(ref_scored.exit_code == 0);

  // The demo, with this one patch.
  const fs::path demo = temp.path() / "demo";
  const auto by_demo = run({"cmake", "-DHYDRA_SCORE_EXECUTABLE=" + kTool.string(),
                            "-DEXAMPLE_SOURCE_DIR=" + kExample.string(), "-DDEMO_DIR=" + demo.string(),
                            "-DCMAKE_GENERATOR=Ninja", "-DDEMO_CANDIDATES=" + kChange, "-P",
                            (kSourceDir / "cmake" / "HydraScoreDemo.cmake").string()});
  INFO(by_demo.output);
  REQUIRE(by_demo.exit_code == 0);
  const fs::path demo_hydra = demo / "build" / "hydra";

  // The baselines agree: lint found the 2 warnings in every one of them
  // (the branches flow's worktree lies inside the user's build tree).
  const json tree_baseline = signals_of(tree_hydra / "baseline");
  CHECK(tree_baseline["lint"]["warnings"] == 2);
  CHECK(signals_of(refs_build / "hydra" / "baseline") == tree_baseline);
  CHECK(signals_of(demo_hydra / "baseline") == tree_baseline);

  // The change's signals and its scored dimensions are the same every way.
  const json tree_signals = signals_of(tree_hydra / kChange);
  CHECK(tree_signals["lint"]["warnings"] == 4);  // the baseline's 2 and 2 new
  CHECK(signals_of(branch_run) == tree_signals);
  CHECK(signals_of(ref_run) == tree_signals);
  CHECK(signals_of(demo_hydra / kChange) == tree_signals);

  const json tree_scored = scored_of(read_json(tree_hydra / "score.json"));
  // 100 - 2 new warnings * 2 - 1 suppression * 2 (-Wconversion taken out of
  // every unit's compile command).
  CHECK(tree_scored["breakdown"]["lint"] == 94);
  CHECK(tree_scored["breakdown"]["diff_scope"] == 30);
  CHECK(scored_of(read_json(refs_build / "hydra" / "score.json")) == tree_scored);
  CHECK(scored_of(read_json(temp.path() / "ref.json")) == tree_scored);
  // The demo gives the agents' durations (candidates/metrics/): speed is active there.
  const json demo_scored = scored_of(read_json(demo_hydra / "score.json"));
  CHECK(demo_scored["dimensions"]["speed"]["active"] == true);
  CHECK(without_speed(demo_scored) == without_speed(tree_scored));

  // The held-out runs judged the change the same way too.
  const json tree_held_out = read_json(tree_hydra / kChange / "manifest.json")["held_out"];
  for (const fs::path& other : {branch_run, ref_run, demo_hydra / kChange}) {
    CAPTURE(other);
    const json held_out = read_json(other / "manifest.json")["held_out"];
    CHECK(held_out["mode"] == tree_held_out["mode"]);
    CHECK(held_out["test_files_changed"] == tree_held_out["test_files_changed"]);
    CHECK(held_out["code_files_changed"] == tree_held_out["code_files_changed"]);
  }
}
