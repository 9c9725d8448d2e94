// The launcher differential judged (guard/launcher_differential.hpp).
#include <catch2/catch.hpp>

#include <hydra/guard/launcher_differential.hpp>

using hydra::guard::judge_launcher_differential;
using hydra::guard::plain_results;
using hydra::model::TestCase;
using hydra::model::TestStatus;
using nlohmann::json;

namespace {

TestCase make(const std::string& program, const std::string& name, TestStatus status) {
  TestCase test;
  test.program = program;
  test.suite = program.empty() ? "ctest" : "suite";
  test.name = name;
  test.status = status;
  return test;
}

}  // namespace

TEST_CASE("plain results come from the candidate's own run and its held-out run", "[guard]") {
  hydra::model::Run run;
  run.records.launcher_differential = std::vector<hydra::model::PlainResult>{{"candidate", "a", "failed", 2}};
  run.records.held_out_launcher_differential = {{"held-out", "b", "passed", 1}};
  bool judged = false;
  const auto results = plain_results(run, judged);
  CHECK(judged);
  REQUIRE(results.size() == 2);
  CHECK(results[0].run == "candidate");
  CHECK(results[0].test == "a");
  CHECK(results[1].run == "held-out");
  CHECK(results[1].plain == "passed");
  bool none = true;
  CHECK(plain_results(hydra::model::Run{}, none).empty());
  CHECK_FALSE(none);
}

TEST_CASE("a test that passed only under the launcher fails, one that failed under it keeps its failure", "[guard]") {
  std::vector<TestCase> tests = {make("", "plain_fails", TestStatus::passed),
                                 make("gtest_prog", "Case.One", TestStatus::passed),
                                 make("gtest_prog", "Case.Two", TestStatus::failed),
                                 make("", "plain_passes", TestStatus::passed),
                                 make("", "timed", TestStatus::passed)};
  const std::vector<hydra::guard::PlainResult> results = {{"candidate", "plain_fails", "failed", 2},
                                                          {"held-out", "gtest_prog", "failed", 1},
                                                          {"candidate", "plain_passes", "passed", 1},
                                                          {"candidate", "timed", "timed out", 1},
                                                          {"candidate", "unknown", "not run", 0}};
  const auto judged = judge_launcher_differential(results, true, {}, tests);
  CHECK(judged.differing.size() == 3);
  CHECK(tests[0].status == TestStatus::failed);
  CHECK(tests[0].message.find("launcher differential") == 0);
  CHECK(tests[1].status == TestStatus::failed);  // every case of the program
  CHECK(tests[2].status == TestStatus::failed);
  CHECK(tests[2].message.empty());  // its own failure stands
  CHECK(tests[3].status == TestStatus::passed);
  CHECK(tests[4].status == TestStatus::failed);
  CHECK(judged.evidence["differing"][1] ==
        json::parse(R"({"run": "held-out", "test": "gtest_prog", "judged": "passed", "plain": "failed"})"));
  CHECK(judged.evidence["ran_plain"].size() == 5);
}

TEST_CASE("a test the baseline's own code fails plain too is excused", "[guard]") {
  hydra::model::Run baseline;
  // The baseline's run: "needs_home" passed judged and failed plain (a test
  // that needs something of the judged run), "fine" passed both.
  baseline.records.launcher_differential =
      std::vector<hydra::model::PlainResult>{{"candidate", "needs_home", "failed", 2}, {"candidate", "fine", "passed", 1}};
  const auto excused = hydra::guard::failing_plain(baseline);
  CHECK(excused == std::set<std::string>{"needs_home"});
  CHECK(hydra::guard::failing_plain(hydra::model::Run{}).empty());
  std::vector<TestCase> tests = {make("", "needs_home", TestStatus::passed), make("", "fine", TestStatus::passed)};
  const std::vector<hydra::guard::PlainResult> results = {{"candidate", "needs_home", "failed", 2},
                                                          {"candidate", "fine", "failed", 2}};
  const auto judged = judge_launcher_differential(results, true, excused, tests);
  REQUIRE(judged.differing.size() == 1);
  CHECK(judged.differing[0].test == "fine");  // the baseline passed it plain: the candidate's doing
  CHECK(tests[0].status == TestStatus::passed);
  CHECK(tests[1].status == TestStatus::failed);
  CHECK(judged.evidence["excused"] == json::parse(R"([{"run": "candidate", "test": "needs_home", "judged": "passed",
                                                      "plain": "failed", "baseline_plain": "failed"}])"));
}

TEST_CASE("tampering the launcher caught is the candidate's unless the baseline's runs caught it on that test",
          "[guard]") {
  hydra::model::Run baseline, candidate;
  // The baseline's own leak checker rewrites its test's status: caught there too.
  baseline.records.tampering_caught = {{"candidate", "leaks", "hydra-score: tampering: main returned 1 (...)"}};
  candidate.records.tampering_caught = {{"candidate", "leaks", "hydra-score: tampering: main returned 1 (...)"},
                                {"held-out", "count", "hydra-score: tampering: main returned 1 (x), yet the process exited 0"}};
  const auto judged = hydra::guard::judge_caught_tampering(baseline, candidate);
  REQUIRE(judged.own.size() == 1);
  CHECK(judged.own[0].test == "count");
  CHECK(judged.own[0].run == "held-out");
  CHECK(judged.evidence == json::parse(R"j([
    {"run": "candidate", "test": "leaks", "message": "hydra-score: tampering: main returned 1 (...)", "in_baseline": true},
    {"run": "held-out", "test": "count", "message": "hydra-score: tampering: main returned 1 (x), yet the process exited 0",
     "in_baseline": false}])j"));
  // Nothing caught: nothing to say.
  CHECK(hydra::guard::judge_caught_tampering(baseline, hydra::model::Run{}).evidence.empty());
  // Without the baseline's record, the same test is the candidate's.
  CHECK(hydra::guard::judge_caught_tampering(hydra::model::Run{}, candidate).own.size() == 2);
}
