// The test step's plain runs (plain_step.cpp): the launcher differential's
// runs of the tests that passed, without HydraScore's test launcher and,
// where the plain runner can judge them, without ctest
// (runners/plain_tests.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/runners/launcher_differential.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>
#include <hydra/capture/sandbox/step_policy.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {

/// Makes `policy` a plain run's: HOME and TMPDIR in `elsewhere` (a fresh
/// folder of the machine's temporary folder, writable at its own path),
/// the neutral variables (kPlainNeutralVariables) and no CPU-seconds limit.
void make_plain_policy(StepPolicy& policy, const util::TempDir& elsewhere);

/// A plain ctest run of the tests `selection` (ctest_selection's words),
/// its console written to `log`.
using CtestPlainRun = std::function<util::ProcessResult(const std::vector<std::string>& selection,
                                                        const std::filesystem::path& log, double budget,
                                                        const std::string& step)>;

/// One plain run of the tests `names` (launcher_differential.hpp's
/// PlainRun): the plain runner (`request.test_launcher`'s program, `test-plain`)
/// in the test step's sandbox for the tests it can judge, its result lines
/// in `log`; `ctest_plain` for the others (a console log beside `log`,
/// staged too). `restore` puts the build tree back as the first attempt
/// found it before each run.
PlainOutcome run_plain_tests_step(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                  Staging& staging, const std::vector<std::string>& names,
                                  const std::filesystem::path& log, double budget, const std::string& step,
                                  const std::function<void()>& restore, const CtestPlainRun& ctest_plain);

}  // namespace hydra::capture
