// Test cases of framework programs read with the ctest run they belong to
// (pipeline/case_results.hpp), from what real programs wrote
// (tests/fixtures/frameworks/record.sh: ctest's JUnit and the programs' own
// reports of the baseline and of candidates that break a case, exit with
// success whatever happened, or leave before their reporter runs).
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/case_results.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using hydra::model::TestCase;
using hydra::model::TestProgram;
using hydra::model::TestStatus;
using hydra::pipeline::CaseReports;
using hydra::pipeline::TestLevels;

namespace {

fs::path recorded(const std::string& scenario, const std::string& file) {
  return fs::path(HYDRA_FIXTURES_DIR) / "frameworks" / "reports" / scenario / file;
}

/// A run directory's test results as a capture lays them out: ctest's
/// JUnit of `scenario` in junit/0.xml, the plan naming the three framework
/// programs, and each program's report (when it wrote one; with its launch
/// record when `launched`) under junit/cases/.
class RunFolder {
 public:
  explicit RunFolder(const std::string& scenario, bool launched = true, const std::string& reports_of = {}) {
    add("junit/0.xml", "junit", hydra::util::read_file(recorded(scenario, "ctest.xml")));
    nlohmann::json programs = nlohmann::json::array();
    for (const auto& [test, framework, key] : kPrograms) {
      programs.push_back({{"test", test}, {"framework", framework}, {"key", key}});
      const fs::path report = recorded(reports_of.empty() ? scenario : reports_of, framework + ".xml");
      if (fs::exists(report)) add("junit/cases/" + key + ".xml", "case_report", hydra::util::read_file(report));
      if (launched) add("junit/cases/" + key + ".launch", "case_launch", framework + "\n");
    }
    add("test-programs.json", "test_programs", nlohmann::json{{"programs", programs}}.dump());
  }

  void add(const std::string& path, const std::string& role, const std::string& content) {
    fs::create_directories((temp_.path() / path).parent_path());
    hydra::util::write_file_atomic(temp_.path() / path, content);
    roles_[path] = role;
  }

  /// The ctest run of `junit` (relative) read with its reports.
  TestLevels expand(const std::string& junit = "junit/0.xml") {
    const auto tests = hydra::pipeline::parse_test_artifact("junit", temp_.path() / junit).tests;
    const CaseReports reports(temp_.path(), roles_, run_);
    programs_.clear();
    return reports.expand(junit, tests, &programs_);
  }

  const fs::path& path() const { return temp_.path(); }
  const std::map<std::string, std::string>& roles() const { return roles_; }
  const std::vector<TestProgram>& programs() const { return programs_; }
  const TestProgram& program(const std::string& test) const {
    for (const auto& program : programs_)
      if (program.test == test) return program;
    throw std::runtime_error("no program " + test);
  }

 private:
  struct Planned {
    std::string test, framework, key;
  };
  static inline const Planned kPrograms[] = {{"gtest_calc", "googletest", "1111111111111111"},
                                             {"catch2_calc", "catch2", "2222222222222222"},
                                             {"doctest_calc", "doctest", "3333333333333333"}};
  hydra::util::TempDir temp_{"hydra-case-results"};
  std::map<std::string, std::string> roles_;
  std::vector<TestProgram> programs_;
  hydra::model::Run run_;
};

std::map<std::string, TestStatus> statuses(const std::vector<TestCase>& tests) {
  std::map<std::string, TestStatus> out;
  for (const auto& test : tests) out.emplace(test.id(), test.status);
  return out;
}

std::size_t count(const std::vector<TestCase>& tests, TestStatus status) {
  return static_cast<std::size_t>(
      std::count_if(tests.begin(), tests.end(), [&](const TestCase& test) { return test.status == status; }));
}

const TestCase& find(const std::vector<TestCase>& tests, const std::string& id) {
  for (const auto& test : tests)
    if (test.id() == id) return test;
  throw std::runtime_error("no test " + id);
}

}  // namespace

TEST_CASE("cases: each program's report stands for it, by <ctest test>/<suite>/<case>", "[parse][cases]") {
  SECTION("every case passed") {
    RunFolder run("baseline");
    const TestLevels levels = run.expand();
    CHECK(levels.planned);
    // 8 GoogleTest + 7 Catch2 + 6 doctest cases, and plain_calc (no framework) as itself.
    CHECK(levels.cases.size() == 22);
    CHECK(count(levels.cases, TestStatus::passed) == 22);
    CHECK(statuses(levels.cases).count("gtest_calc/Values/AddZero/KeepsValue/1 # GetParam() = 7") == 1);
    CHECK(statuses(levels.cases).count("catch2_calc/global/multiplies/by zero") == 1);
    CHECK(statuses(levels.cases).count("doctest_calc/doctest_calc.cpp/adds zero<long int>") == 1);
    CHECK(statuses(levels.cases).count("ctest::plain_calc") == 1);
    CHECK(find(levels.cases, "gtest_calc/Calc/Adds").program == "gtest_calc");
    // Program level: the four CTest tests.
    CHECK(statuses(levels.programs) == std::map<std::string, TestStatus>{{"ctest::catch2_calc", TestStatus::passed},
                                                                          {"ctest::doctest_calc", TestStatus::passed},
                                                                          {"ctest::gtest_calc", TestStatus::passed},
                                                                          {"ctest::plain_calc", TestStatus::passed}});
    REQUIRE(run.programs().size() == 3);
    for (const auto& program : run.programs()) {
      CAPTURE(program.test);
      CHECK(program.report == "read");
      CHECK(program.exit_passed);
      CHECK(program.failed_cases == 0);
    }
    CHECK(run.program("gtest_calc").cases == 8);
  }
  SECTION("a case that fails is that case, the others pass") {
    RunFolder run("break-multiply");
    const TestLevels levels = run.expand();
    CHECK(levels.cases.size() == 22);
    CHECK(count(levels.cases, TestStatus::failed) == 3);
    CHECK(find(levels.cases, "gtest_calc/Calc/Multiplies").status == TestStatus::failed);
    CHECK(find(levels.cases, "catch2_calc/global/multiplies/small").status == TestStatus::failed);
    CHECK(find(levels.cases, "catch2_calc/global/multiplies/by zero").status == TestStatus::passed);
    CHECK(find(levels.cases, "doctest_calc/doctest_calc.cpp/multiplies").status == TestStatus::failed);
    CHECK(count(levels.programs, TestStatus::failed) == 3);
    CHECK(find(levels.programs, "ctest::gtest_calc").message == "1 of 8 cases failed (its GoogleTest report)");
    CHECK(run.program("catch2_calc").failed_cases == 1);
    CHECK(run.program("catch2_calc").detail.empty());  // ctest failed it too
  }
}

TEST_CASE("cases: a framework report decides over the exit code", "[parse][cases]") {
  SECTION("a program that exits with success while its report lists a failed case failed") {
    RunFolder run("atexit-success");
    // ctest believed the exit codes: every program passed.
    const auto ctest =
        hydra::pipeline::parse_test_artifact("junit", recorded("atexit-success", "ctest.xml")).tests;
    CHECK(count(ctest, TestStatus::passed) == 4);
    const TestLevels levels = run.expand();
    CHECK(count(levels.cases, TestStatus::failed) == 3);
    CHECK(find(levels.cases, "gtest_calc/Calc/Multiplies").status == TestStatus::failed);
    CHECK(count(levels.programs, TestStatus::failed) == 3);
    const TestProgram& program = run.program("doctest_calc");
    CHECK(program.report == "read");
    CHECK(program.exit_passed);
    CHECK(program.detail == "it exited with success although its doctest report lists 1 failed case(s)");
  }
  SECTION("a program that left before its reporter ran failed, and says why") {
    RunFolder run("exit-early");
    const TestLevels levels = run.expand();
    // GoogleTest wrote nothing, Catch2 and doctest an empty file: no case;
    // each program is one failed test, whatever its exit code (0) said.
    CHECK(statuses(levels.cases) == std::map<std::string, TestStatus>{{"ctest::catch2_calc", TestStatus::failed},
                                                                       {"ctest::doctest_calc", TestStatus::failed},
                                                                       {"ctest::gtest_calc", TestStatus::failed},
                                                                       {"ctest::plain_calc", TestStatus::passed}});
    CHECK(statuses(levels.programs) == statuses(levels.cases));
    for (const auto& program : run.programs()) {
      CAPTURE(program.test);
      CHECK(program.report == "missing");
      CHECK(program.exit_passed);
    }
    CHECK(find(levels.cases, "ctest::gtest_calc").message ==
          "the program wrote no GoogleTest report (it exited before its reporter ran); ctest: it passed");
  }
  SECTION("no launch record: the launcher never ran the program") {
    RunFolder run("exit-early", false);
    run.expand();
    CHECK(run.program("catch2_calc").detail ==
          "no Catch2 report: HydraScore's test launcher did not run the program; ctest: it passed");
  }
  SECTION("a program that failed although its report lists no failed case: its cases are not believed") {
    RunFolder run("break-multiply", true, "baseline");  // ctest failed them; the reports say all passed
    const TestLevels levels = run.expand();
    CHECK(statuses(levels.cases).count("ctest::gtest_calc") == 1);
    CHECK(statuses(levels.cases).count("gtest_calc/Calc/Adds") == 0);
    CHECK(find(levels.cases, "ctest::gtest_calc").status == TestStatus::failed);
    CHECK(run.program("gtest_calc").report == "contradicted");
    CHECK_THAT(run.program("gtest_calc").detail,
               Catch::StartsWith("its GoogleTest report lists no failed case, but ctest says it failed"));
  }
  SECTION("a report that does not parse") {
    RunFolder run("baseline");
    const std::string whole = hydra::util::read_file(recorded("baseline", "googletest.xml"));
    run.add("junit/cases/1111111111111111.xml", "case_report", whole.substr(0, whole.size() / 2));
    const TestLevels levels = run.expand();
    CHECK(find(levels.cases, "ctest::gtest_calc").status == TestStatus::failed);
    CHECK(run.program("gtest_calc").report == "unparsable");
    CHECK_THAT(run.program("gtest_calc").detail, Catch::Contains("report does not parse"));
    CHECK(run.program("catch2_calc").report == "read");  // the others stand
  }
  SECTION("a report that lists no case leaves ctest's result") {
    RunFolder run("baseline");
    run.add("junit/cases/1111111111111111.xml", "case_report", "<testsuites name=\"AllTests\"/>");
    const TestLevels levels = run.expand();
    CHECK(find(levels.cases, "ctest::gtest_calc").status == TestStatus::passed);
    CHECK(run.program("gtest_calc").report == "empty");
  }
}

TEST_CASE("cases: a plan applies to the ctest runs of its own tree only", "[parse][cases]") {
  RunFolder run("baseline");
  // A held-out run's JUnit beside the run's own: the run's plan is not its plan.
  run.add("held-out/junit/0.xml", "held_out_junit", hydra::util::read_file(recorded("break-multiply", "ctest.xml")));
  const TestLevels levels = run.expand("held-out/junit/0.xml");
  CHECK_FALSE(levels.planned);
  CHECK(levels.cases.size() == 4);
  CHECK(statuses(levels.cases) == statuses(levels.programs));
}

TEST_CASE("cases: a rerun of a program is an attempt of each of its cases", "[parse][cases]") {
  RunFolder first("break-multiply");
  RunFolder later("baseline");
  SECTION("a case that failed, then passed, is flaky") {
    const auto merged = hydra::pipeline::merge_case_attempts(first.expand().cases, {later.expand().cases});
    const TestCase& multiplies = find(merged, "gtest_calc/Calc/Multiplies");
    CHECK(multiplies.status == TestStatus::passed);
    CHECK(multiplies.attempts.size() == 2);
  }
  SECTION("a program that wrote no report, then did: each case failed once") {
    RunFolder crashed("exit-early");
    const auto merged = hydra::pipeline::merge_case_attempts(crashed.expand().cases, {later.expand().cases});
    CHECK(merged.size() == 22);
    const TestCase& adds = find(merged, "catch2_calc/global/adds");
    REQUIRE(adds.attempts.size() == 2);
    CHECK(adds.attempts[0].status == TestStatus::failed);
    CHECK(adds.attempts[0].message == "the program wrote no Catch2 report (it exited before its reporter ran); ctest: it passed");
    CHECK(adds.status == TestStatus::passed);  // flaky
  }
}

TEST_CASE("cases: a run directory holds both levels, granularity chooses", "[parse][cases]") {
  RunFolder run("break-multiply");
  nlohmann::json roles = nlohmann::json::object();
  for (const auto& [path, role] : run.roles()) roles[path] = role;
  const nlohmann::json manifest = {{"schema", hydra::pipeline::kSchema}, {"artifacts", nlohmann::json::array()}};
  hydra::model::Run parsed = hydra::pipeline::parse_artifacts(run.path(), manifest, roles);
  REQUIRE(parsed.tests);
  REQUIRE(parsed.program_tests);
  CHECK(parsed.tests->size() == 22);
  CHECK(parsed.program_tests->size() == 4);
  CHECK(parsed.test_programs.size() == 3);
  CHECK(parsed.integrity_problems.empty());
  SECTION("case") {
    hydra::pipeline::select_test_level(parsed, hydra::config::Tests::Granularity::test_case);
    CHECK(parsed.tests->size() == 22);
  }
  SECTION("program") {
    hydra::pipeline::select_test_level(parsed, hydra::config::Tests::Granularity::program);
    CHECK(parsed.tests->size() == 4);
    CHECK_FALSE(parsed.program_tests);
  }
  SECTION("a plan that is not one is an integrity problem") {
    run.add("test-programs.json", "test_programs", "{\"programs\": [{\"test\": 1}]}");
    const auto broken = hydra::pipeline::parse_artifacts(run.path(), manifest, roles);
    REQUIRE(broken.integrity_problems.size() == 1);
    CHECK_THAT(broken.integrity_problems[0], Catch::StartsWith("test-programs.json: not a test-program plan"));
  }
}
