// The jobs of one `capture` command (capture/capture_jobs.hpp): options to
// typed requests, and the agent-name rule shared with the CMake module.
#include <catch2/catch.hpp>

#include <hydra/capture/capture_jobs.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using hydra::capture::agent_name_of_ref;
using hydra::capture::agent_name_problem;
using hydra::capture::CaptureJobOptions;
using hydra::capture::plan_capture_jobs;

namespace {

/// A resolver that answers every pattern with these refs, recording what it was asked.
struct FakeRefs {
  std::vector<hydra::util::NamedRef> refs;
  fs::path asked_repository;
  std::vector<std::string> asked_patterns;
  hydra::capture::RefResolver resolver() {
    return [this](const fs::path& repository, const std::vector<std::string>& patterns) {
      asked_repository = repository;
      asked_patterns = patterns;
      return refs;
    };
  }
};

bool hides(const hydra::capture::CaptureJob& job, const fs::path& tree) {
  const auto wanted = hydra::util::absolute_clean(tree);
  for (const auto& hidden : job.request.hidden_trees)
    if (hidden == wanted) return true;
  return false;
}

}  // namespace

TEST_CASE("capture jobs per --source: defaults, shared options, jobs and hidden peer trees", "[capture]") {
  CaptureJobOptions options;
  options.sources = {"/w/a", "/w/b"};
  options.outs = {"/runs/alpha", "/runs/beta"};
  options.agent_seconds = {12.5, 30};
  options.tree.jobs = 6;
  options.tree.generator = "Ninja";
  options.base_ref = "main";
  options.checkout = "abc123";
  options.task = "t1";
  options.quiet = true;
  options.no_lint = true;
  options.refuse_cmake_changes = true;
  options.clang_tidy = fs::path("/usr/bin/clang-tidy");
  options.step_runner = fs::path("/usr/bin/hydra-score");
  const auto planned = plan_capture_jobs(options);
  REQUIRE(planned.captures.size() == 2);
  CHECK(planned.jobs == 6);
  CHECK(planned.parallel == 2);
  const auto& alpha = planned.captures[0];
  CHECK(alpha.agent == "alpha");
  CHECK(alpha.build_dir == "/runs/alpha.build");
  CHECK(alpha.ref.empty());
  CHECK(alpha.request.source == "/w/a");
  CHECK(alpha.request.out == "/runs/alpha");
  CHECK(alpha.request.build_dir == "/runs/alpha.build");
  CHECK(alpha.request.agent == "alpha");
  CHECK(alpha.request.agent_seconds == 12.5);
  CHECK(alpha.request.generator == "Ninja");
  CHECK(alpha.request.jobs == 6);
  CHECK(alpha.request.base_ref == "main");
  CHECK(alpha.request.checkout == "abc123");
  CHECK_FALSE(alpha.request.temporary_worktree);
  CHECK(alpha.request.refuse_cmake_changes);
  CHECK(alpha.request.task == "t1");
  CHECK_FALSE(alpha.request.progress);
  CHECK_FALSE(alpha.request.lint);
  CHECK(alpha.request.sandbox);
  CHECK(alpha.request.clang_tidy == fs::path("/usr/bin/clang-tidy"));
  CHECK(alpha.request.step_runner == fs::path("/usr/bin/hydra-score"));
  CHECK_FALSE(alpha.request.config);
  CHECK_FALSE(alpha.request.baseline_run);
  // Each capture hides the other's source, run directory and build tree.
  CHECK(alpha.request.hidden_trees.size() == 3);
  CHECK(hides(alpha, "/w/b"));
  CHECK(hides(alpha, "/runs/beta"));
  CHECK(hides(alpha, "/runs/beta.build"));
  CHECK(hides(planned.captures[1], "/w/a"));

  SECTION("--agent and --build-dir name each capture; a peer tree holding one's own tree is not hidden") {
    options.sources = {"/w/a", "/w/a/nested"};
    options.agents = {"first", "second"};
    options.build_dirs = {"/b/1", "/b/2"};
    options.agent_seconds.clear();
    options.tree.jobs = 1;
    const auto named = plan_capture_jobs(options);
    CHECK(named.captures[1].agent == "second");
    CHECK(named.captures[1].build_dir == "/b/2");
    CHECK_FALSE(named.captures[1].request.agent_seconds);
    CHECK(named.parallel == 1);
    CHECK_FALSE(hides(named.captures[1], "/w/a"));  // holds its own source
    CHECK(hides(named.captures[0], "/w/a/nested"));
  }
  SECTION("no --jobs: every core, and never more captures at once than captures") {
    options.sources = {"/w/a"};
    options.outs = {"/runs/alpha"};
    options.agent_seconds.clear();
    options.tree.jobs = 0;
    const auto alone = plan_capture_jobs(options);
    CHECK(alone.jobs >= 1);
    CHECK(alone.parallel == 1);
    CHECK(alone.captures[0].request.hidden_trees.empty());
  }
}

TEST_CASE("capture job options that do not go together are usage errors", "[capture]") {
  CaptureJobOptions options;
  CHECK_THROWS_WITH(plan_capture_jobs(options), "give --source (with --out), or --ref");
  options.sources = {"/w/a", "/w/b"};
  options.outs = {"/runs/a"};
  CHECK_THROWS_WITH(plan_capture_jobs(options), "give --out once per --source");
  options.outs = {"/runs/a", "/runs/b"};
  options.agents = {"one"};
  CHECK_THROWS_WITH(plan_capture_jobs(options), "give --agent once per --source (2 times) or not at all");
  options.agents.clear();
  options.metrics_dir = "/nonexistent/metrics";
  CHECK_THROWS_WITH(plan_capture_jobs(options), "--metrics-dir /nonexistent/metrics is not a directory");

  CaptureJobOptions by_ref;
  by_ref.refs = {"agent/*"};
  by_ref.outs = {"/runs"};
  by_ref.agents = {"x"};
  FakeRefs refs;
  CHECK_THROWS_AS(plan_capture_jobs(by_ref, refs.resolver()), hydra::UsageError);
  by_ref.agents.clear();
  by_ref.outs = {"/runs", "/more"};
  CHECK_THROWS_WITH(plan_capture_jobs(by_ref, refs.resolver()),
                    "with --ref, give --out once: the directory receiving OUT/<agent>");
}

TEST_CASE("capture jobs per --ref: agents named after refs, worktrees, metrics and shared repository", "[capture]") {
  hydra::util::TempDir temp("hydra-capture-jobs");
  const fs::path metrics = temp.path() / "metrics";
  fs::create_directories(metrics);
  hydra::util::write_file_atomic(metrics / "agent-fix.json", "{}\n");
  CaptureJobOptions options;
  options.refs = {"agent/*"};
  options.outs = {"/runs"};
  options.metrics_dir = metrics.string();
  options.refuse_cmake_changes = true;
  FakeRefs refs;
  refs.refs = {{"agent/fix", "c1"}, {"agent/other", "c2"}};
  const auto planned = plan_capture_jobs(options, refs.resolver());
  CHECK(refs.asked_repository == ".");
  CHECK(refs.asked_patterns == std::vector<std::string>{"agent/*"});
  REQUIRE(planned.captures.size() == 2);
  const auto& fix = planned.captures[0];
  CHECK(fix.agent == "agent-fix");
  CHECK(fix.ref == "agent/fix");
  CHECK(fix.source == ".");
  CHECK(fix.out == "/runs/agent-fix");
  CHECK(fix.build_dir == "/runs/trees/agent-fix");
  CHECK(fix.request.checkout == "c1");
  CHECK(fix.request.temporary_worktree);
  CHECK(fix.request.base_ref == "HEAD");  // no baseline run, no --base-ref
  CHECK_FALSE(fix.request.refuse_cmake_changes);
  CHECK(fix.request.metrics == metrics / "agent-fix.json");
  CHECK_FALSE(planned.captures[1].request.metrics);
  // The repository is shared: only the other's run directory and build tree are hidden.
  CHECK(fix.request.hidden_trees.size() == 2);
  CHECK(hides(fix, "/runs/agent-other"));
  CHECK(hides(fix, "/runs/trees/agent-other"));

  SECTION("a baseline run keeps its commit as the base") {
    options.baseline_run = "/runs/baseline";
    CHECK(plan_capture_jobs(options, refs.resolver()).captures[0].request.base_ref.empty());
  }
  SECTION("a ref named like a folder HydraScore keeps is refused") {
    refs.refs = {{"trees", "c3"}};
    CHECK_THROWS_WITH(plan_capture_jobs(options, refs.resolver()),
                      "ref trees would be agent \"trees\", a name HydraScore reserves");
  }
  SECTION("two refs making one agent name are refused") {
    refs.refs = {{"agent/fix", "c1"}, {"agent-fix", "c4"}};
    CHECK_THROWS_WITH(plan_capture_jobs(options, refs.resolver()),
                      "refs agent/fix and agent-fix both make the agent name \"agent-fix\"");
  }
}

TEST_CASE("an agent name from a ref is a file name", "[capture]") {
  CHECK(agent_name_of_ref("agent/clean-fix") == "agent-clean-fix");
  CHECK(agent_name_of_ref("v1.2_rc") == "v1.2_rc");
  CHECK(agent_name_of_ref("a b:c") == "a-b-c");
  CHECK(agent_name_of_ref(".hidden") == "hidden");
  CHECK(agent_name_of_ref("...") == "ref");
}

TEST_CASE("the tool and the CMake module refuse the same agent names", "[capture]") {
  // The module's check (_hydra_score_agent_name_problem in HydraScore.cmake)
  // runs in script mode on the same names as the tool's. The module is
  // included in a scope of its own, as add_subdirectory and FetchContent do.
  const std::vector<std::string> names = {"baseline", "trees",    "worktrees", "current", "agent-fix", "v1.2_rc",
                                          "Baseline", "baseline2", "a/b",      "a b",     "a;b",       "ünï",
                                          ".",        "..",        ".hidden",   "-",       "v.",        "_x"};
  hydra::util::TempDir temp("hydra-agent-names");
  std::string script = "block()\ninclude(\"" HYDRA_SOURCE_DIR "/cmake/HydraScore.cmake\")\nendblock()\n";
  for (const auto& name : names)
    script += "_hydra_score_agent_name_problem(\"" + name + "\" problem)\nmessage(\"" + name + "=${problem}\")\n";
  hydra::util::write_file_atomic(temp.path() / "check.cmake", script);
  hydra::util::ProcessRequest request;
  request.argv = {"cmake", "-P", (temp.path() / "check.cmake").string()};
  const auto result = hydra::util::run_process(request);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::size_t refused = 0;
  for (const auto& name : names) {
    const std::string problem = agent_name_problem(name);
    INFO(name << ": " << problem);
    CHECK(result.output.find(name + "=" + problem + "\n") != std::string::npos);
    refused += problem.empty() ? 0 : 1;
  }
  // The three reserved names, four with other characters, and three that
  // start with a dot ("." and ".." name the output folder and its parent).
  CHECK(refused == 10);
  CHECK(agent_name_problem("..").find("does not match") != std::string::npos);
  CHECK(agent_name_problem("worktrees") == "a name HydraScore reserves");
  CHECK(agent_name_problem("current").empty());
}
