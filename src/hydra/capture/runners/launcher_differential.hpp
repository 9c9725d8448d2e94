// The launcher differential (docs/threat-model.md, "Behaving well only under
// test"): every test a candidate's test step improves (it passed in some
// attempt of this run, yet in no attempt of the baseline's run it is judged
// against) runs once more in the same sandbox without HydraScore's test
// launcher: no verdict witness, no pipes, no report options, no neutral
// name; the program at its own path with the environment ctest gives it.
// Code that recognises the launcher (its descriptors, the shape of the
// neutral name, its variables) without any catalogued reference then
// behaves differently there. manifest.json's `launcher_differential`;
// scoring judges it (guard/launcher_differential.hpp). The cost is bounded
// by the improved tests: one ctest run of them, and one more run (up to
// [scoring.tests] attempts in all) of those that failed plain.
#pragma once

#include <filesystem>
#include <functional>
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

/// ctest's listing (json-v1) with HydraScore's test launcher taken out of
/// every command that starts with it (`<launcher> test-launcher [WRAPPER...]
/// -- PROGRAM ARGS` -> `[WRAPPER...] PROGRAM ARGS`); other commands and every
/// property stay. Pure.
nlohmann::json plain_listing(const nlohmann::json& listing);

/// The CTest tests (by name) that passed in some attempt of `judged` and in
/// no attempt of `baseline`, and that `baseline` has. Each list holds every
/// attempt's tests (ctest's JUnit: one case per CTest test). Sorted. Pure.
std::vector<std::string> improved_tests(const std::vector<model::TestCase>& baseline,
                                        const std::vector<model::TestCase>& judged);

/// Every attempt's tests of a ctest run folder: junit/0.xml and each
/// attempts/<k>/junit.xml (unparsable files are skipped).
std::vector<model::TestCase> run_folder_tests(const std::filesystem::path& folder);

/// One ctest run of the tests `selection` (ctest_selection) from the plain
/// listing, its console written to `log`, under `timeout` seconds, recorded
/// as step `step`.
using PlainRun = std::function<util::ProcessResult(const std::vector<std::string>& selection,
                                                   const std::filesystem::path& log, double timeout,
                                                   const std::string& step)>;

/// After the test step's attempts (test.log in the staging directory): when
/// `plan.improved_against` is set, runs the improved tests plain and records
/// manifest.json's `launcher_differential` ({"baseline_results": folder,
/// "tests": [{"test", "judged": "passed", "plain": "passed"|"failed"|"not
/// run", "plain_runs": n}]}). A test that fails plain runs again, up to
/// [scoring.tests] attempts runs; it counts as passing plain when any did.
void run_launcher_differential(const Plan& plan, Staging& staging, Progress& progress, const PlainRun& run_plain);

}  // namespace hydra::capture
