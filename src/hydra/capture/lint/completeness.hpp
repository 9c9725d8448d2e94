// Whether clang-tidy looked at a whole translation unit: a unit on which it
// crashed, or failed without reporting why, leaves the lint log incomplete
// (docs/formulas.md, "Lint": an incomplete log never scores above a no-op).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <hydra/capture/lint/view.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

/// Why clang-tidy's run on `unit` (named as reports show it) stopped early,
/// from its process result: it could not start, it exited with a status of
/// its own other than 0 (done) and 1 (done, errors reported), it was killed
/// by a signal (a crash), or it exited 1 without reporting any error. Empty
/// when it finished.
std::string clang_tidy_stopped_early(const util::ProcessResult& result, const std::string& unit);

/// The log of every unit's findings in scope, and what the runs said.
struct LintLog {
  std::string text;
  int failed_units = 0;
  std::size_t outside_scope = 0;
  std::vector<std::string> incomplete;  ///< units clang-tidy did not finish (clang_tidy_stopped_early)
};

/// The log of clang-tidy's `results` of `units` (in that order), their
/// findings filtered to `view`'s scope, paths relative to `source`.
LintLog lint_log(const std::vector<util::ProcessResult>& results, const std::vector<std::filesystem::path>& units,
                 const std::filesystem::path& source, const LintView& view);

}  // namespace hydra::capture
