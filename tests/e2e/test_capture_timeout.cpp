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
  const auto captured = run({kTool.string(), "capture", "--source", source.string(), "--out", out.string(),
                             "--build-dir", (temp.path() / "tree").string(), "--config", config.string(),
                             "--agent", "hang", "--generator", "Ninja"});
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
