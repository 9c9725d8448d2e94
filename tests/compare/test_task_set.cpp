// Tests for hydra::compare task sets: the task-result JSON format and SETs
// made of files and run directories recorded from real ctest runs.
#include <catch2/catch.hpp>

#include <fstream>

#include <hydra/compare/task_set.hpp>
#include <hydra/error.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

using namespace hydra;

namespace {

const std::filesystem::path fixtures = std::filesystem::path(HYDRA_FIXTURES_DIR) / "compare";

void write(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

/// Records a run directory from the fixture `variant` (reference or candidate).
void record_run(const std::string& variant, const std::filesystem::path& out, const std::string& task,
                const std::string& metrics_json = "") {
  pipeline::RecordRequest request;
  request.task = task;
  request.build_exit_code = 0;
  request.junit_files = {fixtures / variant / "junit.xml"};
  request.ctest_json = fixtures / variant / "ctest.json";
  if (!metrics_json.empty()) {
    // Outside the SET directory, where a *.json file would be read as task results.
    const auto metrics_file = out.parent_path().parent_path() / (out.filename().string() + "-metrics.json");
    write(metrics_file, metrics_json);
    request.metrics = metrics_file;
  }
  pipeline::record(request, out);
}

InputError parse_error_of(const std::string& text) {
  try {
    compare::parse_task_file(text, "tasks.json");
  } catch (const InputError& error) {
    return error;
  }
  FAIL("expected an InputError for " << text);
  return InputError("", "");
}

}  // namespace

TEST_CASE("parse_task_file reads task results", "[compare][task_set]") {
  SECTION("valid input") {
    const auto tasks = compare::parse_task_file(R"({
  "schema": "hydra-score/tasks/1",
  "tasks": [
    {"id": "t1", "objective": {"passed": 3, "total": 4},
     "judge": {"score0to1": 0.8, "rationale": "tidy"},
     "cost": {"tokens": 1000, "cost_usd": 0.1, "tool_calls": 3, "steps": 5, "wall_clock_ms": 20000}},
    {"id": "t2", "objective": {"passed": 0, "total": 0}}
  ]
})",
                                                "tasks.json");
    REQUIRE(tasks.size() == 2);
    CHECK(tasks[0].id == "t1");
    CHECK(tasks[0].checks.passed == 3u);
    CHECK(tasks[0].checks.total == 4u);
    CHECK_FALSE(tasks[0].checks.build_failed);
    CHECK(tasks[0].judge_score == 0.8);
    CHECK(tasks[0].judge_rationale == "tidy");
    CHECK(tasks[0].cost.tokens == 1000.0);
    CHECK(tasks[0].cost.wall_clock_ms == 20000.0);
    CHECK(tasks[0].source == "tasks.json");
    CHECK_FALSE(tasks[1].judge_score);
    CHECK_FALSE(tasks[1].cost.tokens);
  }
  SECTION("bad input") {
    struct Case {
      std::string text;
      std::uint64_t line;
      const char* needle;
    };
    const std::string head = "{\"schema\": \"hydra-score/tasks/1\",\n\"tasks\": [\n";
    for (const Case& bad : {
             Case{"{\"schema\": \"hydra-score/tasks/1\", \"tasks\": [", 1, "malformed JSON"},
             Case{"{\"schema\": \"other\",\n\"tasks\": []}", 1, "/schema: expected"},
             Case{"{\"schema\": \"hydra-score/tasks/1\"}", 1, "expected \"tasks\""},  // at the document
             Case{head + "{\"id\": \"t1\",\n \"objective\": {\"passed\": 5, \"total\": 4}}]}", 4, "passed is larger than total"},
             Case{head + "{\"id\": \"t1\", \"objective\": {\"passed\": 1, \"total\": 1}},\n{\"id\": \"t1\", \"objective\": {\"passed\": 1, \"total\": 1}}]}", 4, "given twice"},
             Case{head + "{\"id\": \"t1\", \"objective\": {\"passed\": 1, \"total\": 1},\n \"judge\": {\"score0to1\": 1.2}}]}", 4, "expected a number in [0, 1]"},
             Case{head + "{\"id\": \"t1\", \"objective\": {\"passed\": 1, \"total\": 1},\n \"cost\": {\"tokens\": -5}}]}", 4, "must be >= 0"},
             Case{head + "{\"id\": \"t1\", \"objective\": {\"passed\": 1.5, \"total\": 2}}]}", 3, "non-negative integer"},
             Case{head + "{\"id\": \"t1\", \"objective\": {\"passed\": 1, \"total\": 1},\n \"colour\": \"blue\"}]}", 4, "unknown key 'colour'"},
             Case{head + "{\"id\": \"\", \"objective\": {\"passed\": 1, \"total\": 1}}]}", 3, "non-empty string"},
             Case{head + "{\"id\": \"t1\"}]}", 3, "missing 'objective'"},
             Case{head + "{\"id\": \"t1\", \"objective\": {\"passed\": NaN, \"total\": 1}}]}", 3, "NaN"},
         }) {
      CAPTURE(bad.text);
      const InputError error = parse_error_of(bad.text);
      CHECK(error.file() == "tasks.json");
      CHECK(error.line() == bad.line);
      if (bad.line > 0) CHECK(error.column() > 0);
      CHECK_THAT(error.message(), Catch::Contains(bad.needle));
    }
  }
}

TEST_CASE("load_task_set reads files, run directories and directories of both", "[compare][task_set]") {
  util::TempDir directory("hydra-task-set-test");
  const auto& root = directory.path();
  SECTION("valid input") {
    write(root / "set" / "a.json",
          R"({"schema":"hydra-score/tasks/1","tasks":[{"id":"zeta","objective":{"passed":1,"total":1}}]})");
    write(root / "set" / "notes.txt", "not a task file: skipped");
    record_run("candidate", root / "set" / "run-alpha", "alpha", R"({"tokens": 1200, "steps": 4})");
    record_run("reference", root / "set" / "beta", "");  // no task id: the directory name

    const eval::TaskSet set = compare::load_task_set(root / "set", {});
    REQUIRE(set.tasks.size() == 3);
    CHECK(set.tasks[0].id == "alpha");  // sorted by id
    CHECK(set.tasks[0].checks.passed == 2u);  // candidate fixture: math.divide failed
    CHECK(set.tasks[0].checks.total == 3u);
    CHECK(set.tasks[0].cost.tokens == 1200.0);
    CHECK(set.tasks[0].cost.steps == 4.0);
    CHECK(set.tasks[1].id == "beta");
    CHECK(set.tasks[1].checks.passed == 3u);  // reference fixture: all pass
    CHECK(set.tasks[2].id == "zeta");
    REQUIRE(set.find("beta") != nullptr);
    CHECK(set.find("missing") == nullptr);

    const eval::TaskSet single_run = compare::load_task_set(root / "set" / "run-alpha", {});
    REQUIRE(single_run.tasks.size() == 1);
    CHECK(single_run.tasks[0].id == "alpha");

    const eval::TaskSet single_file = compare::load_task_set(root / "set" / "a.json", {});
    REQUIRE(single_file.tasks.size() == 1);
  }
  SECTION("label selection applies to run directories") {
    record_run("candidate", root / "set" / "gamma", "gamma");
    compare::LoadOptions options;
    options.eval.check_labels = {"slow"};
    const eval::TaskSet set = compare::load_task_set(root / "set", options);
    REQUIRE(set.tasks.size() == 1);
    CHECK(set.tasks[0].checks.passed == 1u);  // io.roundtrip is the only "slow" test
    CHECK(set.tasks[0].checks.total == 1u);
  }
  SECTION("a configured judge grades run directories") {
    record_run("candidate", root / "set" / "delta", "delta");
    std::ofstream(root / "judge.sh") << "#!/bin/sh\ncat > /dev/null\necho '{\"score0to1\": 0.6, \"rationale\": \"ok\"}'\n";
    std::filesystem::permissions(root / "judge.sh", std::filesystem::perms::owner_all);
    compare::LoadOptions options;
    options.judge = eval::JudgeSettings{};
    options.judge->command = (root / "judge.sh").string();
    const eval::TaskSet set = compare::load_task_set(root / "set", options);
    REQUIRE(set.tasks.size() == 1);
    CHECK(set.tasks[0].judge_score == 0.6);
    CHECK(set.tasks[0].judge_rationale == "ok");
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(compare::load_task_set(root / "missing", {}), InputError);

    std::filesystem::create_directories(root / "not-runs" / "plain-directory");
    CHECK_THROWS_AS(compare::load_task_set(root / "not-runs", {}), InputError);

    write(root / "twice" / "a.json",
          R"({"schema":"hydra-score/tasks/1","tasks":[{"id":"t","objective":{"passed":1,"total":1}}]})");
    write(root / "twice" / "b.json",
          R"({"schema":"hydra-score/tasks/1","tasks":[{"id":"t","objective":{"passed":0,"total":1}}]})");
    try {
      compare::load_task_set(root / "twice", {});
      FAIL("expected an InputError");
    } catch (const InputError& error) {
      CHECK_THAT(error.message(), Catch::Contains("task id 't' is also given by"));
    }
  }
}
