// The lint step (lint_step.cpp): clang-tidy over the lint units, in parallel.
#pragma once

#include <cstddef>
#include <string>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

struct LintResult {
  bool ran = false;
  bool complete = false;
  std::size_t translation_units = 0;
  std::string inactive_reason;  ///< why the lint dimension has no (complete) log
};
/// Runs clang-tidy over the lint units in parallel under the lint timeout;
/// writes lint/0.log, or lint-partial.log and the reason when incomplete.
LintResult run_lint(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, bool build_passed,
                    Staging& staging, Progress& progress);

}  // namespace hydra::capture
