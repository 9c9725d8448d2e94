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

/// Where a plain run keeps its temporary files: the folder on HydraScore's
/// side and the path the run sees it at.
struct PlainPlaces {
  std::filesystem::path temporary, seen_temporary;
  /// The run sees a clone's git repository at the tree's top (plain_git.hpp).
  bool git = false;
};

/// Makes `policy` a plain run's, as like a user's login as the sandbox
/// allows: in bubblewrap (`confined`), HOME at the user's own home path
/// (the password database's) and /tmp, both fresh folders of `elsewhere`
/// (the machine's temporary folder) mounted there writable, no TMPDIR;
/// unconfined, HOME and TMPDIR in `elsewhere` at its own path. SHELL, USER
/// and LOGNAME as a login sets them, the neutral variables
/// (kPlainNeutralVariables) and no CPU-seconds limit. In bubblewrap, the top
/// of `plan`'s work tree has a `.git` folder as a fresh clone has it
/// (show_clone_git, made in `elsewhere`), where the judged runs see none.
PlainPlaces make_plain_policy(StepPolicy& policy, const Plan& plan, const util::TempDir& elsewhere, bool confined);

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
