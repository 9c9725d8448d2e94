// Test cases of framework programs, read from a run directory
// (docs/formulas.md, "Test cases"; docs/run-directory.md, "Framework
// reports"): each ctest run's program-level results (its JUnit file) with
// the framework reports its programs wrote, at both levels.
//
// For a test the plan (test-programs.json) names, in a ctest run where ctest
// ran it (passed or failed):
//  - its report parses and lists a failed case: the program failed, whatever
//    its exit code; its cases stand for it;
//  - its report lists no failed case and ctest passed it: its cases stand for it;
//  - its report lists no failed case but ctest failed it ("contradicted": a
//    crash after the last case, a sanitizer's verdict at exit): the program
//    failed and its cases are not believed; it stays one test;
//  - it wrote no report ("missing": it exited before its reporter ran) or one
//    that does not parse ("unparsable"): the program failed, with the reason; one test;
//  - its report lists no case ("empty"): ctest's result, one test.
// Every other test (not a framework's program, not run, skipped) keeps
// ctest's result at both levels.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <hydra/config/config.hpp>
#include <hydra/model/run.hpp>

namespace hydra::pipeline {

/// One ctest run's results at both levels.
struct TestLevels {
  std::vector<model::TestCase> cases;     ///< programs with a read report replaced by their cases
  std::vector<model::TestCase> programs;  ///< one result per ctest test, reports deciding over exit codes
  bool planned = false;  ///< some test of the run had a framework report expected
};

/// The plans and framework reports among a run directory's artifacts.
class CaseReports {
 public:
  /// Whether artifacts of `role` are plans, reports or launch records (of a
  /// run's own tests, later attempts or held-out runs); they are read here only.
  static bool is_case_role(const std::string& role);

  /// Indexes the plans among `artifacts` (relative path -> role) of
  /// `run_dir` and the reports beside them. Plans that do not parse are
  /// integrity problems of `run` (HydraScore wrote them).
  CaseReports(const std::filesystem::path& run_dir, const std::map<std::string, std::string>& artifacts,
              model::Run& run);

  /// The results of the ctest run whose JUnit file is `junit_path`
  /// (relative to the run directory) and holds `tests`; its programs' reports
  /// are read from the `cases/` folder beside it. `programs`, when given,
  /// receives how each planned program's report was read.
  TestLevels expand(const std::string& junit_path, std::vector<model::TestCase> tests,
                    std::vector<model::TestProgram>* programs = nullptr) const;

 private:
  struct Planned {
    std::string framework;
    std::string key;
  };
  struct Plan {
    std::string scope;  ///< the folder of the plan ("", "held-out/", "on-baseline/")
    std::map<std::string, Planned> by_test;
  };
  const Plan* plan_for(const std::string& junit_path) const;

  std::filesystem::path run_dir_;
  std::map<std::string, std::string> artifacts_;
  std::vector<Plan> plans_;
};

/// Merges the later attempts of one ctest run's tests at case level
/// (parse::merge_attempts): a program that was one test in the first attempt
/// (it wrote no usable report) and gave cases in a later one counts as a
/// failed attempt of each of those cases, so a crash that a rerun does not
/// repeat is flaky, as it is at program level.
std::vector<model::TestCase> merge_case_attempts(std::vector<model::TestCase> first,
                                                 const std::vector<std::vector<model::TestCase>>& later);

/// Gives each case of `tests` its program's labels (`definitions`: ctest's list).
void label_cases(std::vector<model::TestCase>& tests, const std::vector<model::TestDefinition>& definitions);

/// Puts the program-level results into `run.tests` (and the held-out runs')
/// for `granularity` "program"; for "case", leaves the cases there.
void select_test_level(model::Run& run, config::Tests::Granularity granularity);

}  // namespace hydra::pipeline
