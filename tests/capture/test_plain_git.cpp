// Tests for what the plain runs show of git (capture/plain_git.hpp): a
// capture's worktree (its `.git` a file) seen by a judged step without any
// `.git`, and by a plain run with a `.git` folder as a fresh clone has it,
// inside bubblewrap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/capture/plain_git.hpp>
#include <hydra/capture/plain_step.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using hydra::capture::Mount;
using hydra::capture::StepPolicy;

namespace {

void git(const fs::path& directory, const std::vector<std::string>& arguments) {
  hydra::util::ProcessRequest request;
  request.argv = {"git", "-C", directory.string(), "-c", "user.name=test", "-c", "user.email=test@example.com"};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  const auto result = hydra::util::run_process(request);
  INFO(result.output << result.error_output);
  REQUIRE(result.exit_code == 0);
}

}  // namespace

TEST_CASE("the plain run sees a clone's .git at the worktree's top, the judged run none", "[capture][sandbox]") {
  const hydra::capture::Sandbox sandbox =
      hydra::capture::find_sandbox(true, hydra::config::SandboxSettings{}, fs::path(HYDRA_TOOL_PATH));
  if (!sandbox.confined()) {
    WARN("no sandbox here: " << sandbox.description);
    return;
  }
  hydra::util::TempDir temp("hydra-plain-git");
  const fs::path repository = temp.path() / "repo", worktree = temp.path() / "trees" / "source",
                 build = temp.path() / "trees" / "build";
  fs::create_directories(repository / "src");
  hydra::util::write_file_atomic(repository / "src" / "count.cpp", "int count() { return 1; }\n");
  hydra::util::write_file_atomic(repository / "CMakeLists.txt", "project(x)\n");
  hydra::util::write_file_atomic(repository / ".gitignore", "secret.env\n");
  fs::create_symlink("src/count.cpp", repository / "link.cpp");
  git(repository, {"init", "-q", "-b", "trunk"});
  git(repository, {"add", "-A"});
  git(repository, {"commit", "-q", "-m", "base"});
  git(repository, {"worktree", "add", "-q", "--detach", worktree.string(), "HEAD"});
  hydra::util::write_file_atomic(worktree / "secret.env", "token\n");  // ignored: hidden from every step
  fs::create_directories(build);
  REQUIRE(fs::is_regular_file(worktree / ".git"));
  const std::string commit(hydra::util::trim(hydra::util::run_git(worktree, {"rev-parse", "HEAD"}).output));

  hydra::capture::Plan plan;
  plan.source = worktree;
  plan.build_dir = build;
  plan.in_git = true;
  plan.source_commit = commit;
  plan.hidden = hydra::util::paths_outside_change(worktree);
  const StepPolicy judged = hydra::capture::tree_step_policy(plan, "test", {build}, build / ".hydra-tmp", {worktree});
  const auto run = [&](const StepPolicy& policy) {
    const std::string script = "cd " + worktree.string() + " && (cat .git/HEAD 2>/dev/null || echo no-head); "
                               "(git rev-parse HEAD 2>/dev/null || echo no-repository); "
                               "(s=$(git status --porcelain 2>/dev/null) && echo \"status:$s\" || echo no-status); cat secret.env 2>/dev/null | wc -c; "
                               "readlink link.cpp; cat link.cpp; touch made 2>/dev/null || echo read-only";
    auto request = sandbox.request(policy, {"/bin/sh", "-c", script});
    request.timeout = std::chrono::seconds(120);
    return hydra::util::run_process(request);
  };
  const auto judged_run = run(judged);
  INFO(judged_run.output << judged_run.error_output);
  CHECK(judged_run.output == "no-head\nno-repository\nno-status\n0\nsrc/count.cpp\nint count() { return 1; }\nread-only\n");

  StepPolicy plain = judged;
  const hydra::util::TempDir elsewhere("tmp");
  const auto places = hydra::capture::make_plain_policy(plain, plan, elsewhere, true);
  CHECK(places.git);
  const auto plain_run = run(plain);
  INFO(plain_run.output << plain_run.error_output);
  // HEAD on a branch at the commit, the checkout clean (git status lists
  // nothing), the ignored file still hidden, the link a link, the top read-only.
  CHECK(plain_run.output == "ref: refs/heads/main\n" + commit + "\nstatus:\n0\nsrc/count.cpp\nint count() { return 1; }\n"
                            "read-only\n");
  // Nothing of the run reached the tree or the made repository.
  CHECK_FALSE(fs::exists(worktree / "made"));
  CHECK(fs::is_regular_file(worktree / ".git"));
  // The judged step's policy is as it was: no .git shown.
  CHECK(std::none_of(judged.mounts.begin(), judged.mounts.end(),
                     [&](const Mount& mount) { return mount.source == elsewhere.path() / "git"; }));
}
