// The lint step (lint_step.cpp): clang-tidy over the lint units, in parallel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/lint/cache.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

struct LintResult {
  bool ran = false;
  bool complete = false;
  std::size_t translation_units = 0;
  std::string inactive_reason;  ///< why the lint dimension has no (complete) log
};
/// A warm-up of the lint cache beside the build (capture.cpp): clang-tidy's
/// runs of the units as configure left them, in a view of their own
/// (`<build>/.hydra-lint-view/warm`), their entries held in memory. The lint
/// step after the build takes them only when no file its units' compiles
/// read, nor compile_commands.json, was written since the warm-up began
/// (lint/compiled_inputs.hpp, unchanged_since); else it drops them all.
struct LintWarmUp {
  std::shared_ptr<LintCache::HeldStores> held = std::make_shared<LintCache::HeldStores>();
  std::optional<std::int64_t> since;  ///< file_system_now when it began; none: nothing to take
  std::shared_future<void> done;
};

/// Runs the warm-up: nothing recorded, nothing written but its view.
void warm_lint_cache(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging staging,
                     LintWarmUp& warm);

/// What a lint step run beside the tree's other steps (capture.cpp) shares
/// with them. It says when its folder (kLintFolder) is made: they may start
/// then, and see the folder hidden. It waits for them to end before it
/// checks once more that the inputs it read are what the build compiled
/// (lint/compiled_inputs.hpp), and keeps nothing in the lint cache before
/// that check passes.
struct LintBeside {
  std::promise<void> folder_ready;
  std::shared_future<void> others_done;
  LintWarmUp* warm_up = nullptr;  ///< the build's warm-up of the lint cache, if it had one
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
