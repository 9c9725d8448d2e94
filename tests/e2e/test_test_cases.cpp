// Test cases end to end: the small CMake project of tests/fixtures/frameworks
// (one GoogleTest, one Catch2 v2 and one doctest program from the Debian
// packages, and one plain program) captured once as a baseline with the real
// cmake, ctest and clang-tidy through hydra-score's own test launcher; the
// candidate patches beside it captured against that baseline and scored in
// one ranking:
//  - break-multiply: one case of each framework program fails; each program
//    shows exactly that case regressed and its other cases passing;
//  - add-cases: the honest change (a new function and its cases): its new
//    cases are counted, it ranks first and is mergeable;
//  - atexit-success: the same broken code and an atexit handler that makes
//    every program exit 0: the reports still list the failed cases, so it is
//    not mergeable and the failures name the report (the plain program,
//    whose own checks pass, fails by its must-fail canary);
//  - exit-early: the programs leave before their reporter runs: failed with
//    the missing report named, not mergeable;
//  - rewrite-report: the same broken code and an atexit handler that removes
//    every failure from the GoogleTest report just written, then exits 0:
//    what GoogleTest streamed to the launcher while the cases ran disagrees,
//    so its failed case stays failed with the tampering named;
//  - atexit-plain: a static initializer of the library registers a handler
//    that calls _exit(0), and subtract is broken: the plain program's main
//    returned 1, which HydraScore's witness saw before the handler ran, so
//    the test fails with the tampering named (and every program's canary
//    names the rewritten status);
//  - rewrite-catch2-doctest: the broken multiply and a handler at exit that
//    rewrites the report its command line names (Catch2's and doctest's
//    --out): the reports went into a pipe the launcher held, so what the
//    handler writes comes after a complete report, is tampering, and the
//    failed cases stay failed.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

const fs::path kFixture = kSourceDir / "tests" / "fixtures" / "frameworks";

/// The ids of `tests` (a contract's list of test entries).
std::set<std::string> ids(const nlohmann::json& tests) {
  std::set<std::string> names;
  for (const auto& test : tests) names.insert(test.at("id").get<std::string>());
  return names;
}

}  // namespace

TEST_CASE("test cases e2e: GoogleTest, Catch2 and doctest programs scored per case, their reports over exit codes",
          "[e2e][cases]") {
  hydra::util::TempDir temp("hydra-e2e-cases");
  const fs::path root = temp.path();
  const fs::path repository = root / "repo";
  fs::create_directories(repository);
  fs::copy(kFixture / "project", repository, fs::copy_options::recursive);
  commit_repository(repository);

  const auto baseline = capture_agent(root, repository, "baseline");
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  const std::vector<std::string> agents = {"break-multiply", "add-cases",    "atexit-success",
                                           "exit-early",     "rewrite-report", "atexit-plain",
                                           "rewrite-catch2-doctest"};
  for (const auto& agent : agents) {
    git(repository, {"checkout", "--quiet", "--", "."});
    git(repository, {"clean", "-fdq"});
    git(repository, {"apply", "--whitespace=nowarn", (kFixture / "candidates" / (agent + ".patch")).string()});
    const auto captured = capture_agent(root, repository, agent);
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
  }

  std::vector<std::string> argv = {kTool.string(), "score", "--baseline", (root / "runs" / "baseline").string(),
                                   "--json", (root / "score.json").string(), "--markdown",
                                   (root / "score.md").string()};
  for (const auto& agent : agents) argv.insert(argv.end(), {"--candidate", (root / "runs" / agent).string()});
  const auto scored = run(argv);
  INFO(scored.output);
  const auto contract = read_json(root / "score.json");
  REQUIRE(contract.at("rankings").size() == agents.size());
  INFO(contract.at("rankings").dump(1).substr(0, 20000));
  // One capture for all the checks below (no SECTIONs: each would capture again).

  // The top candidate is mergeable: the score exits 0.
  CHECK(scored.exit_code == 0);
  // 22 cases: GoogleTest 8 (4 TESTs, a TEST_P with 2 values, a TYPED_TEST
  // with 2 types), Catch2 7 (4 TEST_CASEs, "multiplies" counting as its 2
  // SECTIONs, a TEMPLATE_TEST_CASE with 2 types), doctest 6 (4 TEST_CASEs, a
  // TEST_CASE_TEMPLATE with 2 types), and the plain program as 1.
  const auto& summary = contract.at("baseline").at("summary").at("tests");
  CHECK(summary.at("total") == 22);
  CHECK(summary.at("passed") == 22);
  CHECK(summary.at("programs") == nlohmann::json{{"passed", 4}, {"total", 4}, {"with_cases", 3}});

  {  // a broken case regresses alone; its program's other cases pass
    const auto entry = ranking_of(contract, "break-multiply");
    CHECK(entry.at("mergeable") == false);
    CHECK(ids(entry.at("tests").at("regressed")) ==
          std::set<std::string>{"gtest_calc/Calc/Multiplies", "catch2_calc/global/multiplies/small",
                                "doctest_calc/doctest_calc.cpp/multiplies"});
    CHECK(entry.at("tests").at("dropped").empty());
    const auto& evidence = entry.at("dimensions").at("tests").at("evidence");
    // Every other case ran and passed: 22 cases, 22 - 3 passing.
    CHECK(evidence.at("A_total") == 22);
    CHECK(evidence.at("A_pass") == 19);
    CHECK(evidence.at("granularity") == "case");
    // At program level the three framework programs failed; the plain one passed.
    CHECK(evidence.at("programs") == nlohmann::json{{"A_pass", 1}, {"A_total", 4}, {"B_pass", 4}, {"B_total", 4}});
  }

  {  // the honest change's new cases are counted; it ranks first and is mergeable
    const auto entry = ranking_of(contract, "add-cases");
    CHECK(contract.at("rankings").at(0).at("agent") == "add-cases");
    CHECK(entry.at("mergeable") == true);
    CHECK(entry.at("tests").at("regressed").empty());
    // Two new GoogleTest cases, one Catch2 case, one doctest case.
    CHECK(ids(entry.at("tests").at("added")) ==
          std::set<std::string>{"gtest_calc/Calc/Negates", "gtest_calc/Calc/NegatesZero",
                                "catch2_calc/global/negates", "doctest_calc/doctest_calc.cpp/negates"});
    const auto& evidence = entry.at("dimensions").at("tests").at("evidence");
    CHECK(evidence.at("new_tests") == 4);
    CHECK(evidence.at("A_total") == 26);
    CHECK(evidence.at("A_pass") == 26);
  }

  // The cases break-multiply breaks, and the plain program: what a handler
  // that exits 0 at exit fails (the plain program through its canary).
  auto broken_and_plain = ids(ranking_of(contract, "break-multiply").at("tests").at("regressed"));
  broken_and_plain.insert("ctest::plain_calc");

  {  // exit codes that hide failed cases or a missing report are not believed
    // atexit: every program exited 0, yet their reports list the failed cases.
    // The plain program passes its own checks, but its must-fail canary
    // exits 0 too: its result is not believed.
    const auto hidden = ranking_of(contract, "atexit-success");
    CHECK(hidden.at("mergeable") == false);
    CHECK(ids(hidden.at("tests").at("regressed")) == broken_and_plain);
    // exit-early: no report at all; each framework program fails as a
    // whole, so each of the baseline's cases of it fails (a program held
    // as one test on one side only is one program on both, never "added"),
    // the reason named.
    const auto early = ranking_of(contract, "exit-early");
    CHECK(early.at("mergeable") == false);
    CHECK(early.at("tests").at("added").empty());
    std::map<std::string, std::string> messages;
    for (const auto& test : early.at("tests").at("regressed"))
      messages[test.at("id").get<std::string>()] = test.at("message").get<std::string>();
    CHECK(messages["gtest_calc/Calc/Multiplies"] ==
          "the program wrote no GoogleTest report (it exited before its reporter ran); ctest: it passed");
    CHECK(messages["catch2_calc/global/multiplies/small"].find("no Catch2 report") != std::string::npos);
    CHECK(messages["doctest_calc/doctest_calc.cpp/multiplies"].find("no doctest report") != std::string::npos);
    const std::string markdown = hydra::util::read_file(root / "score.md");
    CHECK(markdown.find("the program wrote no GoogleTest report") != std::string::npos);
  }

  {  // a report rewritten at exit: the streamed verdicts stand, the tampering named
    const auto rewritten = ranking_of(contract, "rewrite-report");
    CHECK(rewritten.at("mergeable") == false);
    CHECK(ids(rewritten.at("tests").at("regressed")) == broken_and_plain);
    bool named = false;
    for (const auto& test : rewritten.at("tests").at("regressed"))
      if (test.at("id") == "gtest_calc/Calc/Multiplies")
        named = test.value("message", std::string()).find("tampering") != std::string::npos;
    CHECK(named);
  }

  {  // a plain program's status rewritten by a static initializer's handler: main's own result stands
    const auto rewritten = ranking_of(contract, "atexit-plain");
    CHECK(rewritten.at("mergeable") == false);
    std::map<std::string, std::string> messages;
    for (const auto& test : rewritten.at("tests").at("regressed"))
      messages[test.at("id").get<std::string>()] = test.value("message", std::string());
    REQUIRE(messages.count("ctest::plain_calc") == 1);
    CHECK(messages["ctest::plain_calc"].find("hydra-score: tampering: main returned 1") != std::string::npos);
    CHECK(messages["ctest::plain_calc"].find("canary of plain_calc: the must-fail canary") != std::string::npos);
  }

  {  // Catch2's and doctest's reports rewritten at exit: the piped reports stand, the tampering named
    const auto rewritten = ranking_of(contract, "rewrite-catch2-doctest");
    CHECK(rewritten.at("mergeable") == false);
    CHECK(ids(rewritten.at("tests").at("regressed")) == broken_and_plain);
    std::map<std::string, std::string> messages;
    for (const auto& test : rewritten.at("tests").at("regressed"))
      messages[test.at("id").get<std::string>()] = test.value("message", std::string());
    for (const char* id : {"catch2_calc/global/multiplies/small", "doctest_calc/doctest_calc.cpp/multiplies"})
      CHECK(messages[id].find("wrote more into its report pipe after its complete report") != std::string::npos);
  }
}
