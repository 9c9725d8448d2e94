// End to end: a hanging test is killed at the step's timeout, recorded as
// failed, and no process outlives the capture.
#include <catch2/catch.hpp>

#include <hydra/config/config.hpp>
#include <hydra/pipeline/run_dir.hpp>

#include "capture/process_table.hpp"
#include "e2e_support.hpp"

using namespace e2e;

TEST_CASE("a hanging test is killed at the timeout and recorded as failed", "[e2e][capture]") {
  hydra::util::TempDir temp("hydra-hang");
  const fs::path source = temp.path() / "example-project";
  make_example_repository(source);
  apply_candidate(source, "hang");
  // A short test budget; build and lint keep theirs.
  const fs::path config = temp.path() / "hydra.toml";
  hydra::util::write_file_atomic(config, "[scoring.timeouts]\ntest = 8\n");

  const fs::path out = temp.path() / "run";
  const auto captured = run(capture_command(source, out,
                                            {"--build-dir", (temp.path() / "tree").string(), "--config",
                                             config.string(), "--agent", "hang", "--generator", "Ninja"}));
  INFO(captured.output);
  REQUIRE(captured.exit_code == 0);

  // Nothing that the capture started is still running.
  const auto left = process_table::live_processes_where(
      [&](const process_table::Entry& entry) { return entry.command.find(temp.path().string()) != std::string::npos; });
  INFO(process_table::describe(left));
  CHECK(left.empty());

  const auto manifest = read_json(out / "manifest.json");
  nlohmann::json test_step;
  for (const auto& step : manifest["steps"])
    if (step["name"] == "test") test_step = step;
  REQUIRE(test_step.is_object());
  CHECK(test_step["seconds"].get<double>() < 60.0);  // sanity bound, far above the 8 s budget

  const auto run = hydra::pipeline::load(out, hydra::config::Config{});
  REQUIRE(run.tests.has_value());
  bool found = false;
  for (const auto& test : *run.tests) {
    if (test.name == "count.waits_for_three_lines") {
      found = true;
      CHECK(test.status == hydra::model::TestStatus::failed);
    }
  }
  if (!found) {
    // The step timeout (the backstop) fired before ctest wrote its JUnit: the
    // run is then fail-closed, with the reason recorded.
    CHECK(test_step["timed_out"] == true);
    CHECK(!run.integrity_problems.empty());
  }
}

TEST_CASE("a step that ran out of time beside another capture is captured again alone, and the report says so",
          "[e2e][capture]") {
  // A python-profile project whose build step hangs when the file `hang`
  // exists, with a 3 s build budget. Two candidates are captured side by
  // side with --jobs 2 (1 job each, so a budget of 3 * 2 / 1 = 6 s): the
  // hanging one runs out of time, is captured again alone with both jobs (a
  // budget of 3 s), and runs out of time again: then it counts.
  hydra::util::TempDir temp("hydra-retry-alone");
  const fs::path repository = temp.path() / "repo";
  fs::create_directories(repository / "tests");
  hydra::util::write_file_atomic(repository / "hydra.toml",
                                 "[scoring.profile]\nname = \"python\"\nbuild = \"test ! -f hang || sleep 300\"\n"
                                 "lint = \"\"\n\n[scoring.timeouts]\nbuild = 3\n");
  hydra::util::write_file_atomic(repository / "tests" / "test_ok.py", "def test_ok():\n    assert 1 + 1 == 2\n");
  commit_repository(repository);
  const fs::path runs = temp.path() / "runs";
  const auto baseline = run(capture_command(repository, runs / "baseline", {"--jobs", "2", "--quiet"}));
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);

  for (const char* name : {"hangs", "quick"}) {
    const fs::path tree = temp.path() / name;
    git(repository, {"worktree", "add", "--quiet", "--detach", tree.string(), "HEAD"});
    hydra::util::write_file_atomic(tree / (std::string(name) == "hangs" ? "hang" : "README"), "a change\n");
  }
  const auto captured = run({kTool.string(), "capture", "--baseline-run", (runs / "baseline").string(), "--jobs", "2",
                             "--source", (temp.path() / "hangs").string(), "--out", (runs / "hangs").string(),
                             "--source", (temp.path() / "quick").string(), "--out", (runs / "quick").string()});
  INFO(captured.output);
  REQUIRE(captured.exit_code == 0);
  CHECK(captured.output.find("hydra[hangs]: its build step ran out of time with 1 of 2 jobs while 1 other capture "
                             "ran beside it; captured again alone with 2 jobs") != std::string::npos);

  const auto hangs = read_json(runs / "hangs" / "manifest.json");
  CHECK(hangs["retried_alone"]["reason"].get<std::string>().find("captured again alone with 2 jobs") !=
        std::string::npos);
  // The run kept is the capture alone: both jobs, the configured 3 s.
  CHECK(hangs["capture"]["jobs"] == 2);
  CHECK(hangs["time_budget"]["factor"] == 1.0);
  CHECK(hangs["build"]["timed_out"] == true);
  const auto quick = read_json(runs / "quick" / "manifest.json");
  CHECK_FALSE(quick.contains("retried_alone"));
  CHECK(quick["capture"]["jobs"] == 1);
  CHECK(quick["time_budget"]["factor"] == 2.0);           // the baseline's 2 jobs / 1
  CHECK(quick["time_budget"]["build_seconds"] == 6.0);    // 3 * 2

  const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                           (runs / "hangs").string(), "--candidate", (runs / "quick").string(), "--json",
                           (temp.path() / "score.json").string(), "--markdown", (temp.path() / "score.md").string()});
  INFO(scored.output);
  CHECK(scored.output.find("Captured again alone:") != std::string::npos);
  const auto contract = read_json(temp.path() / "score.json");
  const auto hangs_entry = ranking_of(contract, "hangs");
  CHECK(hangs_entry["mergeable"] == false);
  CHECK(hangs_entry["run"]["retried_alone"] == hangs["retried_alone"]["reason"]);
  CHECK_FALSE(ranking_of(contract, "quick")["run"].contains("retried_alone"));
  CHECK(hydra::util::read_file(temp.path() / "score.md").find("**Captured again alone:**") != std::string::npos);
}
