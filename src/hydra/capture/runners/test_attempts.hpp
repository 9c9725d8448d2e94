// More attempts of a capture's tests on the same code (docs/formulas.md,
// "Flaky tests"; docs/run-directory.md, "Attempts"): the baseline's whole
// suite repeated ([scoring.tests] baseline_repeat), then the tests that failed
// in every attempt so far run again, up to [scoring.tests] attempts in all,
// each runner its own way (rerun_commands.hpp). Every attempt is kept in
// attempts/<k>/ of the run directory; the run's loader merges them
// (pipeline/test_attempts.hpp). The test steps (test_step.cpp,
// profile_steps.cpp) call these after their first run.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/runners/profile_commands.hpp>
#include <hydra/capture/core/staging.hpp>

namespace hydra::capture {

/// One more ctest run exactly as the test step runs its first (the same
/// command, sandbox policy and environment), with `selection` added
/// (ctest_selection; empty: every test), its JUnit file written to `junit`
/// (whose folder it may write), its console to `log`, under `timeout`
/// seconds, recorded in the manifest as step `step`.
using CtestRun = std::function<util::ProcessResult(const std::vector<std::string>& selection,
                                                   const std::filesystem::path& junit,
                                                   const std::filesystem::path& log, double timeout,
                                                   const std::string& step)>;

/// Puts the build tree back where the first attempt started
/// (attempt_state.hpp); returns what it cannot put back.
using BuildTreeRestore = std::function<std::vector<std::string>()>;

/// After the cmake test step's first run (junit/0.xml and test.log in the
/// staging directory): the baseline's repeats, then the reruns. An attempt
/// is believed only where ctest's console verdicts agree with its JUnit file;
/// one that is not (or timed out) is kept but not read, and its tests keep
/// the results they had. The reruns together get one more test timeout. The
/// manifest's "test_attempts" records every attempt. Before each attempt
/// `restore` (when given) removes what earlier ones created in the build
/// tree; a candidate's attempt after one that changed a file of the tree in
/// place is kept but not believed (its "discarded" says why).
void run_ctest_attempts(const Plan& plan, const CaptureRequest& request, Staging& staging, Progress& progress,
                        const CtestRun& run_ctest, const BuildTreeRestore& restore = {});

/// Where a profile's test runner keeps what its reruns read (pytest's and
/// jest's cache of the last run): in the build tree, outside the tree's copy.
std::filesystem::path rerun_cache_directory(const Plan& plan);

/// The profile's test step `first` made ready for reruns
/// (prepare_first_attempt), with its cache directory emptied.
StepCommand prepare_test_step(const Plan& plan, const ProfileContext& context, StepCommand first);

/// One more run of a profile's test command as the test step runs its first
/// (in the tree's copy, under the sandbox), its output written to `log`,
/// under `timeout` seconds, recorded in the manifest as step `step`.
using ProfileTestRun = std::function<util::ProcessResult(const StepCommand& command, const std::filesystem::path& log,
                                                         double timeout, const std::string& step)>;

/// After a profile's test step `first` (test_command of `command`, hydra.toml's
/// test command, prepared with prepare_test_step): the baseline's repeats,
/// then the reruns. An attempt is believed only where the runner's exit
/// status agrees with its results. As run_ctest_attempts otherwise.
void run_profile_attempts(const Plan& plan, const CaptureRequest& request, const ProfileContext& context,
                          const std::string& command, const StepCommand& first, Staging& staging, Progress& progress,
                          const ProfileTestRun& run_test);

/// For a run of private tests (docs/threat-model.md): removes what the
/// attempts in `directory` (roles `roles`, path -> role) wrote about the
/// tests' text (test output in JUnit files, console logs); their results stay.
void keep_only_attempt_results(const std::filesystem::path& directory, const nlohmann::json& roles);

}  // namespace hydra::capture
