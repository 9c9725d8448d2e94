// The lint findings of a run directory: its lint logs and, for the cmake
// profile, the compiler warnings of its build log, each finding named
// relative to the run's checkouts and kept once (docs/formulas.md, "Lint").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <hydra/model/manifest.hpp>
#include <hydra/model/run.hpp>

namespace hydra::pipeline {

/// A lint artifact of a run directory.
struct LintLog {
  std::string path;  ///< relative to the run directory
  std::string role;  ///< a lint role (artifacts.hpp)
};

/// Sets the lint of `run`, read from `run_dir` with `typed`, its manifest:
/// the findings of `lint_logs` and, with `include_compiler_warnings`, those
/// of `build_log` (relative to `run_dir`; empty when none) for the cmake
/// profile. Without a lint log, lint is inactive and `run` says why. Throws
/// hydra::InputError for a malformed log.
void read_lint(const std::filesystem::path& run_dir, const model::RunManifest& typed,
               const std::vector<LintLog>& lint_logs, const std::string& build_log, bool include_compiler_warnings,
               model::Run& run);

}  // namespace hydra::pipeline
