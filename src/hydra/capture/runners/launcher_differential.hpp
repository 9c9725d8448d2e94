// The launcher differential (docs/threat-model.md, "Behaving well only under
// test"): every test that passed in some attempt of a capture's test step
// (a candidate's: the ones it improves over the baseline's run and the ones
// it keeps passing; a baseline's, whose plain failures excuse a candidate's
// on the same tests) runs once more in the same sandbox without HydraScore's test
// launcher: no verdict witness, no pipes, no report options, no neutral
// name; the program at its own path; and, for every test whose properties
// the plain runner models, without ctest (plain_tests.hpp): started by a
// shell, stdout and stderr two regular files. The plain run also differs from the
// judged run in what code can key on but a correct test never needs: HOME
// and TMPDIR outside the build tree, a few more (neutral) environment variables, no
// CPU-seconds limit, and each test started in a session of its own
// (setsid). Code that recognises the judged run (the launcher's
// descriptors, the neutral name, the sandbox's limits or environment)
// without any catalogued reference then behaves differently there.
// manifest.json's `launcher_differential`; scoring judges it
// (guard/launcher_differential.hpp). The cost: one more ctest run of the
// tests that passed, and one more run (up to [scoring.tests] attempts in
// all) of those that failed plain.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/model/test.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

/// The artifact role of a plain run's console log.
inline constexpr const char* kPlainLogRole = "launcher_differential_log";

/// The neutral variables a plain run's environment adds where the step's
/// environment lacks them: what a user's shell commonly sets and no test
/// needs, so that the judged run's count of variables is not the plain
/// run's, and nothing names the plain run as HydraScore's (a program that
/// recognised it could pass there and under the launcher alike).
inline const std::vector<std::pair<std::string, std::string>> kPlainNeutralVariables = {
    {"EDITOR", "vi"},       {"VISUAL", "vi"},         {"PAGER", "less"},   {"LESS", "-R"},
    {"HISTSIZE", "1000"},   {"LESSCHARSET", "utf-8"}, {"MANPAGER", "less"}};

/// How the plain run differs from the judged run, in words (the manifest's
/// record). Pure.
nlohmann::json plain_run_differences();

/// ctest's listing (json-v1) with HydraScore's test launcher taken out of
/// every command that starts with it (`<launcher> test-launcher [WRAPPER...]
/// -- PROGRAM ARGS` -> `PREFIX... [WRAPPER...] PROGRAM ARGS`, `prefix`: a
/// program that starts the rest, as `setsid --wait`); other commands and
/// every property stay. Pure.
nlohmann::json plain_listing(const nlohmann::json& listing, const std::vector<std::string>& prefix = {});

/// The CTest tests (by name) that passed in some attempt of `judged`.
/// Sorted. Pure.
std::vector<std::string> passed_tests(const std::vector<model::TestCase>& judged);

/// The CTest tests (by name) that passed in some attempt of `judged` and in
/// no attempt of `baseline`, and that `baseline` has. Each list holds every
/// attempt's tests (ctest's JUnit: one case per CTest test). Sorted. Pure.
std::vector<std::string> improved_tests(const std::vector<model::TestCase>& baseline,
                                        const std::vector<model::TestCase>& judged);

/// Every attempt's tests of a ctest run folder: junit/0.xml and each
/// attempts/<k>/junit.xml (unparsable files are skipped).
std::vector<model::TestCase> run_folder_tests(const std::filesystem::path& folder);

/// The tests of a ctest run folder (run_folder_tests) whose failure is
/// HydraScore's test launcher catching their verdict rewritten (the reason
/// ctest's JUnit gives starts with "hydra-score: tampering: ";
/// parse/junit.hpp): manifest.json's `tampering_caught`, [{"test",
/// "message"}], one entry per test and message, sorted.
nlohmann::json caught_tampering(const std::filesystem::path& folder);

/// What one plain run of some tests said: each test's result ("passed",
/// "failed", "skipped", "timed out", "not run"; a test it gives none did not
/// pass) and whether the run as a whole ran out of time.
struct PlainOutcome {
  bool timed_out = false;
  std::map<std::string, std::string> results;
};

/// One plain run of the tests `names`, its log written to `log`, under
/// `timeout` seconds, recorded as step `step` (plain_step.hpp).
using PlainRun = std::function<PlainOutcome(const std::vector<std::string>& names, const std::filesystem::path& log,
                                            double timeout, const std::string& step)>;

/// After the test step's attempts (test.log in the staging directory): when
/// `plan.improved_against` is set, runs every test that passed plain and
/// records manifest.json's `launcher_differential` ({"baseline_results":
/// folder, "differences": [words], "tests": [{"test", "judged": "passed",
/// "improved": bool, "plain": "passed"|"failed"|"timed out"|"not run",
/// "plain_runs": n}]}). A test that fails plain runs again, up to
/// [scoring.tests] attempts runs; it counts as passing plain when any did.
void run_launcher_differential(const Plan& plan, Staging& staging, Progress& progress, const PlainRun& run_plain);

}  // namespace hydra::capture
