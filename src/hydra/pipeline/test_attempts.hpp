// The later attempts of a run's tests (reruns of failing tests, repeats of the
// baseline's suite; docs/run-directory.md, "Attempts"), read from the run
// directory and merged into the first attempt's results per identity
// (parse/test_attempts.hpp). The run's own tests, its held-out run's and its
// new tests' on the baseline's code each merge their own attempts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <hydra/model/run.hpp>
#include <hydra/pipeline/case_results.hpp>

namespace hydra::pipeline {

/// The role of a later attempt's results ("rerun_junit", "rerun_libtest_log")
/// for results read with the test role `role` ("junit", "libtest_log").
std::string attempt_role(const std::string& role);

/// The test role a later attempt's results of role `role` are read with
/// ("rerun_junit" -> "junit"); empty when `role` holds none.
std::string attempt_test_role(const std::string& role);

/// The attempt number in `path` ("attempts/3/junit.xml",
/// "held-out/attempts/2/test.log" -> 3, 2); 0 when it names none.
unsigned attempt_number(const std::string& path);

/// Collects the later attempts among a run directory's artifacts, then
/// merges them into the run's tests.
class AttemptArtifacts {
 public:
  /// Takes the artifact `path` (the file `file`) of role `role` when it holds
  /// a later attempt's results of the run's own tests (role "rerun_*"), its
  /// held-out run's ("held_out_rerun_*") or its new tests' on the baseline's
  /// code ("on_baseline_rerun_*"); returns whether it did. Results that do not
  /// parse are an integrity problem of `run` (a capture seals only results
  /// it could read).
  /// A ctest run's results are read with its programs' framework reports
  /// (`cases`), at both levels (case_results.hpp).
  bool collect(const std::string& role, const std::string& path, const std::filesystem::path& file,
               model::Run& run, const CaseReports& cases);

  /// Merges the collected attempts, in attempt order, into `run.tests`,
  /// `run.held_out.tests` and `run.held_out.tests_on_baseline` (those that
  /// were recorded: a first attempt is what a run's tests are), and their
  /// program-level results into the `program_tests` beside them (each rerun
  /// of a program is an attempt of its cases: merge_case_attempts).
  void merge_into(model::Run& run) const;

 private:
  struct Attempt {
    unsigned number = 0;
    std::string path;
    std::vector<model::TestCase> tests;
    std::vector<model::TestCase> programs;  ///< the same at program level
  };
  std::vector<Attempt> own_, held_out_, on_baseline_;
};

}  // namespace hydra::pipeline
