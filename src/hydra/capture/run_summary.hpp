// The one line `hydra-score capture` prints for a captured run: the build,
// the tests that ran and lint, as scoring reads them. What measured nothing
// is said loudly ("NO TEST RAN", "NOTHING LINTED"), never shown as a pass.
#pragma once

#include <filesystem>
#include <string>

#include <hydra/config/config.hpp>
#include <hydra/model/run.hpp>

namespace hydra::capture {

/// "build passed; tests 9/10 passed (1 failed); lint 0 errors, 2 warnings
/// (24 units)": the build ("build FAILED (exit code 2)", "no build step"),
/// the tests that ran with how many failed and were skipped ("NO TEST RAN
/// (all 3 recorded tests skipped or disabled)" when none ran although the
/// build passed), and the lint findings scoring counts (`config`) with the
/// translation units linted when recorded ("lint NOTHING LINTED (0
/// translation units)", "lint did not run (<why>)").
std::string run_summary(const model::Run& run, const config::Config& config);

/// run_summary() of the sealed run directory `run_dir`, read with its own
/// hydra.toml; on a run that cannot be read, why.
std::string run_summary(const std::filesystem::path& run_dir);

}  // namespace hydra::capture
