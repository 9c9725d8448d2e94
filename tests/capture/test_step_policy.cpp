// Tests for the step policies of held-out runs: a tree shown at another
// path than its own (tree_view_mounts, seen_path), the mounts a step gets
// (tree_step_policy) and the bubblewrap command line they make.
#include <catch2/catch.hpp>

#include <algorithm>

#include <hydra/capture/sandbox/sandbox.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/capture/steps.hpp>
#include <hydra/util/files.hpp>

namespace fs = std::filesystem;
using hydra::capture::Mount;
using hydra::capture::seen_path;
using hydra::capture::tree_step_policy;
using hydra::capture::tree_view_mounts;

namespace {

std::string describe(const Mount& mount) {
  const char* access = mount.access == Mount::Access::read_write ? "rw" : mount.access == Mount::Access::read_only ? "ro" : "hidden";
  return std::string(access) + " " + mount.path.string() + (mount.source.empty() ? "" : " <- " + mount.source.string());
}

std::vector<std::string> describe(const std::vector<Mount>& mounts) {
  std::vector<std::string> out;
  for (const auto& mount : mounts) out.push_back(describe(mount));
  return out;
}

}  // namespace

TEST_CASE("a held-out tree is shown at the candidate's paths", "[capture][sandbox]") {
  // The candidate's tree /repo, its build tree inside the user's build
  // folder; the held-out worktree and build tree inside the candidate's build tree.
  const fs::path top = "/repo", build = "/repo/build/hydra/trees/agent";
  const fs::path worktree = build / ".hydra/held-out/source", held_build = build / ".hydra/held-out/build";
  const auto mounts = tree_view_mounts(top, worktree, build, held_build,
                                       {"/repo/build", build, "/repo/build/hydra/.cache", "/elsewhere/run", top});
  SECTION("valid input: the worktree read-only at the top, HydraScore's folders again, the build tree writable") {
    CHECK(describe(mounts) == std::vector<std::string>{"ro /repo <- " + worktree.string(), "ro /repo/build",
                                                       "rw " + build.string() + " <- " + held_build.string()});
  }
  SECTION("valid input: paths on HydraScore's side map to where the steps see them") {
    CHECK(seen_path(mounts, worktree / "src/count.cpp") == "/repo/src/count.cpp");
    CHECK(seen_path(mounts, held_build / "tests") == build / "tests");
    CHECK(seen_path(mounts, held_build) == build);
    CHECK(seen_path(mounts, "/repo/build/hydra/.staging/junit") == "/repo/build/hydra/.staging/junit");
    CHECK(seen_path({}, "/anything") == "/anything");
  }
}

TEST_CASE("tree_step_policy puts the tree mounts first and makes their mount points", "[capture][sandbox]") {
  hydra::util::TempDir temp("hydra-policy");
  const fs::path top = temp.path() / "repo";
  const fs::path build = top / "build/trees/agent";
  const fs::path worktree = temp.path() / "held/source", held_build = temp.path() / "held/build";
  const fs::path staging = top / "build/.staging";
  for (const auto& folder : {top / "src", build, worktree / "src", held_build, staging / "junit"}) fs::create_directories(folder);

  hydra::capture::Plan plan;
  plan.source = worktree;
  plan.build_dir = held_build;
  plan.evidence = {staging, top / "build"};
  plan.tree_mounts = tree_view_mounts(top, worktree, build, held_build, {top / "build", build});
  const auto policy = tree_step_policy(plan, "test", {held_build, staging / "junit"}, held_build / ".hydra-tmp");
  SECTION("valid input: tree mounts, then the writable folders at the paths the step sees") {
    // Then the evidence hidden (the writable folders inside it stay visible:
    // deeper paths win), then the system's hidden folders and tools.
    const auto described = describe(policy.mounts);
    REQUIRE(described.size() >= 6);
    CHECK(std::vector<std::string>(described.begin(), described.begin() + 6) ==
          std::vector<std::string>{"ro " + top.string() + " <- " + worktree.string(), "ro " + (top / "build").string(),
                                   "rw " + build.string() + " <- " + held_build.string(),
                                   "rw " + (staging / "junit").string(), "hidden " + staging.string(),
                                   "hidden " + (top / "build").string()});
    CHECK(policy.temporary == build / ".hydra-tmp");
  }
  SECTION("valid input: the folder a later mount needs exists in the worktree") {
    CHECK(fs::is_directory(worktree / "build"));
  }
  SECTION("valid input: bubblewrap's command line holds the mounts in order") {
    hydra::capture::Sandbox sandbox;
    sandbox.bwrap = "/usr/bin/bwrap";
    const auto argv = sandbox.wrap(policy, {"ctest"});
    const auto at = std::find(argv.begin(), argv.end(), worktree.string());
    REQUIRE(at != argv.end());
    CHECK(*(at - 1) == "--ro-bind");
    CHECK(*(at + 1) == top.string());
    const auto held = std::find(argv.begin(), argv.end(), held_build.string());
    REQUIRE(held != argv.end());
    CHECK(held > at);
    CHECK(*(held - 1) == "--bind");
    CHECK(argv.back() == "ctest");
  }
  SECTION("valid input: what the tree hides is judged where the step sees the worktree") {
    // The candidate's tree has a .git folder and an ignored file; the
    // held-out worktree shown in its place has a .git file and no such file.
    fs::create_directories(top / ".git");
    hydra::util::write_file_atomic(top / "ignored.txt", "x");
    hydra::util::write_file_atomic(worktree / ".git", "gitdir: /elsewhere\n");
    hydra::capture::Plan hiding = plan;
    hiding.hidden = {top / ".git", top / "ignored.txt"};
    const auto hidden = tree_step_policy(hiding, "test", {held_build}, held_build / ".hydra-tmp");
    const auto described = describe(hidden.mounts);
    CHECK(std::find(described.begin(), described.end(),
                    "hidden " + (top / ".git").string() + " <- " + (worktree / ".git").string()) != described.end());
    CHECK(std::none_of(described.begin(), described.end(),
                       [&](const std::string& mount) { return mount.find("ignored.txt") != std::string::npos; }));
    hydra::capture::Sandbox sandbox;
    sandbox.bwrap = "/usr/bin/bwrap";
    const auto argv = sandbox.wrap(hidden, {"ctest"});
    const auto at = std::find(argv.begin(), argv.end(), (top / ".git").string());
    REQUIRE(at != argv.end());
    CHECK(*(at - 1) == "/dev/null");  // a file: no folder made over it
  }
  SECTION("valid input: a capture's own trees have no tree mounts") {
    hydra::capture::Plan own;
    own.source = top;
    own.build_dir = build;
    // Run directories inside the build tree are hidden, the results folder inside them writable.
    const fs::path runs = build / "runs", results = build / "runs/.staging/junit";
    fs::create_directories(results);
    own.evidence = {runs, top / "build"};
    const auto own_policy = tree_step_policy(own, "test", {build, results}, build / ".hydra-tmp");
    const auto described = describe(own_policy.mounts);
    REQUIRE(described.size() >= 4);
    CHECK(std::vector<std::string>(described.begin(), described.begin() + 4) ==
          std::vector<std::string>{"rw " + build.string(), "rw " + results.string(), "hidden " + runs.string(),
                                   "hidden " + (top / "build").string()});
  }
}

TEST_CASE("lint's folder in the build tree is hidden from every other step", "[capture][sandbox]") {
  hydra::util::TempDir temp("hydra-lint-folder");
  const fs::path top = temp.path() / "top", build = temp.path() / "build";
  const fs::path lint_folder = build / hydra::capture::kLintFolder;
  fs::create_directories(top);
  fs::create_directories(lint_folder / "database");
  hydra::capture::Plan plan;
  plan.source = top;
  plan.build_dir = build;
  const auto has = [](const hydra::capture::StepPolicy& policy, const std::string& line) {
    const auto described = describe(policy.mounts);
    return std::find(described.begin(), described.end(), line) != described.end();
  };
  // The tests (and the plain run, the builds, the relink) may run while
  // lint reads its view: they can neither read nor write it.
  for (const char* step : {"test", "build", "relink"}) {
    INFO(step);
    const auto policy = tree_step_policy(plan, step, {build}, build / ".hydra-tmp", {top});
    CHECK(has(policy, "rw " + build.string()));
    CHECK(has(policy, "hidden " + lint_folder.string()));
  }
  // Lint itself reads it (its TMPDIR and HOME are inside it).
  const auto lint = tree_step_policy(plan, "lint", {lint_folder / "tmp", lint_folder / ".hydra-home"}, lint_folder / "tmp",
                                     {top, build});
  CHECK_FALSE(has(lint, "hidden " + lint_folder.string()));
  CHECK(has(lint, "rw " + (lint_folder / "tmp").string()));
}
