// The lint step (lint_step.cpp): clang-tidy over the lint units, in parallel.
#pragma once

#include <cstddef>
#include <future>
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
/// What a lint step run beside the tree's other steps (capture.cpp) shares
/// with them. It says when its folder (kLintFolder) is made: they may start
/// then, and see the folder hidden. It waits for them to end before it
/// checks once more that the inputs it read are what the build compiled
/// (lint/compiled_inputs.hpp), and keeps nothing in the lint cache before
/// that check passes.
struct LintBeside {
  std::promise<void> folder_ready;
  std::shared_future<void> others_done;
  /// Says, once, that the folder is made.
  void folder_made() {
    if (!said) folder_ready.set_value();
    said = true;
  }
  bool said = false;
};

/// Runs clang-tidy over the lint units in parallel under the lint timeout;
/// writes lint/0.log, or lint-partial.log and the reason when incomplete.
/// `beside`: run beside the tree's other steps (nullptr: after them).
LintResult run_lint(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, bool build_passed,
                    Staging& staging, Progress& progress, LintBeside* beside = nullptr);

}  // namespace hydra::capture
