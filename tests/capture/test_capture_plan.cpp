// Tests for the capture plan's pure parts (steps.hpp): which exclusions
// apply to a source tree, where a capture of a commit keeps its trees, and
// how a step's time budget follows the jobs it was given.
#include <catch2/catch.hpp>

#include <hydra/capture/steps.hpp>
#include <hydra/error.hpp>

#include <cstdlib>

using namespace hydra::capture;
namespace fs = std::filesystem;

TEST_CASE("exclusions_inside keeps the trees that do not hold the source", "[capture]") {
  SECTION("valid input: build trees and outputs inside or beside the source stay excluded") {
    const std::vector<fs::path> excluded = {"/work/project/build", "/work/project/build/hydra/baseline",
                                            "/elsewhere/runs"};
    CHECK(exclusions_inside("/work/project", excluded) == excluded);
  }
  SECTION("a ref's worktree inside the user's build tree: that build tree is not excluded") {
    // The hydra_score target passes --exclude <build>; a ref's worktree is
    // <build>/hydra/trees/<agent>/source. Excluding <build> would leave
    // nothing to lint.
    const fs::path source = "/work/build/hydra/trees/agent-x/source";
    const std::vector<fs::path> excluded = {"/work/build/hydra/trees/agent-x/build", "/work/build/hydra/agent-x",
                                            "/work/build", "/work/build/hydra/trees/agent-x/source"};
    CHECK(exclusions_inside(source, excluded) ==
          std::vector<fs::path>{"/work/build/hydra/trees/agent-x/build", "/work/build/hydra/agent-x"});
  }
  SECTION("a project in a subdirectory of its worktree") {
    CHECK(exclusions_inside("/w/trees/a/source/sub", {"/w/trees/a/source", "/w/trees/a/source/sub/build"}) ==
          std::vector<fs::path>{"/w/trees/a/source/sub/build"});
  }
  SECTION("a sibling whose name starts like the source's is not its parent") {
    CHECK(exclusions_inside("/w/project-2", {"/w/project"}) == std::vector<fs::path>{"/w/project"});
  }
}

TEST_CASE("checkout_layout puts every capture of a commit's worktree and build tree in one folder", "[capture]") {
  const CheckoutLayout baseline = checkout_layout("/work/build/hydra/trees/baseline");
  const CheckoutLayout candidate = checkout_layout("/work/build/hydra/trees/agent-clean-fix/");
  CHECK(baseline.folder == "/work/build/hydra/trees/baseline");
  CHECK(baseline.source == "/work/build/hydra/trees/baseline/source");
  CHECK(baseline.build == "/work/build/hydra/trees/baseline/build");
  CHECK(candidate.source == "/work/build/hydra/trees/agent-clean-fix/source");
  // The same path from build tree to source for both: ccache's command lines match.
  CHECK(baseline.source.lexically_relative(baseline.build) == candidate.source.lexically_relative(candidate.build));
  CHECK(baseline.source.lexically_relative(baseline.build) == "../source");
}

TEST_CASE("time_budget scales the configured timeouts by the reference's jobs over the capture's", "[capture]") {
  hydra::config::Config config;  // build 300 s, test 600 s, lint 300 s
  SECTION("a candidate with one of the two jobs its baseline had: twice the time") {
    const TimeBudget budget = time_budget(1, 2, "the baseline run's jobs");
    CHECK(budget.factor == 2.0);  // 2 / 1
    CHECK(budget.seconds(config.build_timeout_seconds) == 600.0);  // 300 * 2
    const auto record = budget.to_json(config);
    CHECK(record["jobs"] == 1);
    CHECK(record["reference_jobs"] == 2);
    CHECK(record["reference"] == "the baseline run's jobs");
    CHECK(record["build_seconds"] == 600.0);   // 300 * 2
    CHECK(record["test_seconds"] == 1200.0);   // 600 * 2
    CHECK(record["lint_seconds"] == 600.0);    // 300 * 2
  }
  SECTION("three jobs against a reference of eight") {
    CHECK(time_budget(3, 8, "").factor == Approx(8.0 / 3.0));  // 2.666...
  }
  SECTION("as many jobs as the reference, or more: the configured timeouts") {
    CHECK(time_budget(2, 2, "").factor == 1.0);
    CHECK(time_budget(4, 2, "").seconds(300) == 300.0);  // never below: max(1, 2/4)
  }
  SECTION("an unknown reference (0) is the capture's own jobs; 0 jobs count as 1") {
    CHECK(time_budget(2, 0, "").reference_jobs == 2);
    CHECK(time_budget(2, 0, "").factor == 1.0);
    CHECK(time_budget(0, 2, "").jobs == 1);
    CHECK(time_budget(0, 2, "").factor == 2.0);
  }
}

TEST_CASE("the shared cache: a baseline capture writes, a candidate reads, a bad address is a usage error",
          "[capture][shared_cache]") {
  namespace capture = hydra::capture;
  capture::Plan plan;
  plan.out = "/runs/baseline";
  capture::CaptureRequest request;
  request.cache = true;
  ::setenv("HYDRA_SCORE_CACHE_REMOTE", "redis+unix:/nowhere/redis.sock", 1);
  capture::resolve_cache_dir(plan, request);
  REQUIRE(plan.shared_cache);
  CHECK(plan.shared_cache->role() == hydra::remote::Role::writer);
  request.base_ref = "origin/main";  // a candidate as a CI job captures it
  capture::resolve_cache_dir(plan, request);
  CHECK(plan.shared_cache->role() == hydra::remote::Role::reader);
  request.base_ref.clear();
  request.baseline_run = "/runs/baseline";
  capture::resolve_cache_dir(plan, request);
  CHECK(plan.shared_cache->role() == hydra::remote::Role::reader);
  request.cache = false;  // --no-cache: no shared cache either
  capture::resolve_cache_dir(plan, request);
  CHECK_FALSE(plan.shared_cache);
  request.cache = true;
  ::setenv("HYDRA_SCORE_CACHE_REMOTE", "ftp://cache", 1);
  try {
    capture::resolve_cache_dir(plan, request);
    FAIL("a bad address was accepted");
  } catch (const hydra::UsageError& error) {
    CHECK_THAT(error.what(), Catch::Contains("HYDRA_SCORE_CACHE_REMOTE") && Catch::Contains("ftp://cache"));
  }
  ::unsetenv("HYDRA_SCORE_CACHE_REMOTE");
}
