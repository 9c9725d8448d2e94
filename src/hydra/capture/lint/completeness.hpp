// Whether clang-tidy looked at a whole translation unit: a unit on which it
// crashed, or failed without reporting why, leaves the lint log incomplete
// (docs/formulas.md, "Lint": an incomplete log never scores above a no-op).
#pragma once

#include <string>

#include <hydra/util/process.hpp>

namespace hydra::capture {

/// Why clang-tidy's run on `unit` (named as reports show it) stopped early,
/// from its process result: it could not start, it exited with a status of
/// its own other than 0 (done) and 1 (done, errors reported), it was killed
/// by a signal (a crash), or it exited 1 without reporting any error. Empty
/// when it finished.
std::string clang_tidy_stopped_early(const util::ProcessResult& result, const std::string& unit);

}  // namespace hydra::capture
