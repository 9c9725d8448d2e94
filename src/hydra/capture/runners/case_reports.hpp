// The capture's side of framework reports (test_frameworks.hpp;
// docs/run-directory.md, "Framework reports"): the plan of a tree's test
// programs, the report folder of each ctest run and the roles of what the
// programs wrote there.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <hydra/capture/core/staging.hpp>
#include <hydra/model/manifest.hpp>

namespace hydra::capture {

/// The folder beside a ctest run's JUnit file that its programs' framework
/// reports go to (junit/cases/, attempts/<k>/cases/).
inline constexpr const char* kCaseReportsFolder = "cases";
/// The plan's file in the run directory (a held-out run's: in its folder).
inline constexpr const char* kTestProgramsFile = "test-programs.json";

/// Writes the plan of the tree's test programs (test_frameworks.hpp,
/// plan_test_programs) for the tests `ctest_json` (ctest
/// --show-only=json-v1's output) lists, when the capture installs a test
/// launcher; nothing otherwise (or when the list does not parse: the
/// publish step reports that).
void write_test_program_plan(const std::string& ctest_json, const CaptureRequest& request, Staging& staging);

/// The launcher's variables for a ctest run whose reports go to `reports`
/// (created); none when the run has no plan.
std::map<std::string, std::string> case_report_environment(const Staging& staging,
                                                           const std::filesystem::path& reports);

/// Records the roles of what a ctest run's programs wrote to `reports`:
/// `<key>.xml` reports ("case_report") and `<key>.launch` records
/// ("case_launch"); a later attempt's as "rerun_case_report",
/// "rerun_case_launch". Anything else there is kept with role "other".
void add_case_reports(Staging& staging, const std::filesystem::path& reports);

/// The tests of the run being staged whose framework reports list a case
/// that the same test's report in `baseline_run` (whose manifest is
/// `baseline`) does not: new tests as much as a new CTest test is (the
/// held-out runs run them on the baseline's code).
std::vector<std::string> tests_with_new_cases(const Staging& staging, const std::filesystem::path& baseline_run,
                                              const model::RunManifest& baseline);

}  // namespace hydra::capture
