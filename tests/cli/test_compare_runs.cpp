// compare over task sets built from real captures of example-project
// (tests/fixtures/runs, recorded by `hydra-score capture`): each task is a
// run directory; the directory's name is the task id.
#include <catch2/catch.hpp>

#include <hydra/util/files.hpp>

#include "cli/cli_support.hpp"

using namespace cli_test;

namespace {

/// A task set directory holding `tasks` (task id -> recorded run name).
fs::path make_set(const fs::path& root, const std::string& name,
                  const std::vector<std::pair<std::string, std::string>>& tasks) {
  const fs::path set = root / name;
  for (const auto& [task, run] : tasks) copy_tree(runs_dir / run, set / task);
  return set;
}

}  // namespace

TEST_CASE("compare gives a verdict between configurations captured on example-project", "[cli][compare]") {
  hydra::util::TempDir temp("hydra-compare-runs");
  // Configuration A left the bug in one task and broke a test in the other.
  const auto reference = make_set(temp.path(), "config-a", {{"fix-lines", "baseline"}, {"keep-counts", "breaks-test"}});

  SECTION("valid input: configuration B fixes both tasks: improved, promoted") {
    const auto candidate = make_set(temp.path(), "config-b", {{"fix-lines", "clean-fix"}, {"keep-counts", "clean-fix"}});
    const auto result = run_tool({"compare", "--reference", reference.string(), "--candidate", candidate.string(),
                                  "--json", "verdict.json"},
                                 temp.path());
    INFO(result.output);
    CHECK(result.exit_code == 0);
    const auto verdict = read_json(temp.path() / "verdict.json");
    CHECK(verdict["verdict"] == "improved");
    CHECK(verdict["promote"] == true);
    // fix-lines: obj01 9/10 = 0.9 -> 12/12 = 1.0 (no judge, no cost signals):
    // composite delta +0.1. keep-counts: 8/10 = 0.8 -> 1.0: +0.2. Sum 0.3 > 0.01.
    CHECK(verdict["composite_delta_sum"].get<double>() == Approx(0.3).margin(1e-6));
  }
  SECTION("valid input: configuration B deletes tests in one task: regressed, never promoted") {
    const auto candidate =
        make_set(temp.path(), "config-c", {{"fix-lines", "deletes-tests"}, {"keep-counts", "clean-fix"}});
    const auto result = run_tool({"compare", "--reference", reference.string(), "--candidate", candidate.string(),
                                  "--json", "verdict.json"},
                                 temp.path());
    INFO(result.output);
    // fix-lines: 9 of 10 checks passed -> 8 of 8: the pass rate rises but the
    // number of passed checks drops (9 -> 8): a hard regression.
    CHECK(result.exit_code == 4);
    const auto verdict = read_json(temp.path() / "verdict.json");
    CHECK(verdict["verdict"] == "regressed");
    CHECK(verdict["promote"] == false);
  }
  SECTION("bad input: a task missing from the candidate is a hard regression") {
    const auto candidate = make_set(temp.path(), "config-d", {{"fix-lines", "clean-fix"}});
    const auto result = run_tool({"compare", "--reference", reference.string(), "--candidate", candidate.string()},
                                 temp.path());
    CHECK(result.exit_code == 4);
    CHECK(result.output.find("keep-counts") != std::string::npos);
  }
}
