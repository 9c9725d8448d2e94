// Dimensions that measured nothing (docs/formulas.md, "Nothing measured"):
// a ranking in which no test ran, a lint step that linted no translation
// unit. They never score 100 silently: the dimension is inactive for the
// ranking (nothing to compare with) or scores 0 for the candidate that
// measured nothing, and every report says so. Pure.
#pragma once

#include <string>
#include <vector>

#include <hydra/model/run.hpp>
#include <hydra/score/score.hpp>

namespace hydra::score {

/// Why no test ran in `run` ("no test results were recorded", "3 skipped",
/// "no test was defined"); empty when some test ran (passed, failed or
/// errored).
std::string no_test_ran(const model::Run& run);

/// Why the tests dimension of a ranking measured nothing: no test ran in the
/// baseline or any candidate. Empty when some run of the ranking ran a test.
std::string tests_measured_nothing(const model::Run& baseline, const std::vector<model::Run>& candidates);

/// Why `run`'s lint measured nothing: its lint step ran and linted no
/// translation unit. Empty otherwise (also when the run did not record how
/// many it linted).
std::string lint_measured_nothing(const model::Run& run);

/// Why the candidate's own tests measured nothing: its build passed (or it
/// has no build step) and none of its tests ran. Empty otherwise (a failed
/// build explains itself).
std::string candidate_tests_measured_nothing(const model::Run& candidate);

/// Settles a dimension that measured nothing: with `for_ranking` (nothing
/// measured anywhere in the ranking) it is inactive for the candidate, with
/// `for_candidate` (the ranking measured it, this candidate measured nothing)
/// it is active and scores 0; either way `nothing_measured` is set and the
/// reason says why. Both empty, or a dimension disabled by its weight:
/// unchanged.
void settle_measured_nothing(Dimension& dimension, const std::string& for_ranking, const std::string& for_candidate);

/// What measured nothing in a ranking, one line each, for every report
/// (the score contract's `nothing_measured`): the baseline in which no test
/// ran, the dimensions inactive because nothing was measured, and each
/// candidate's dimension scored 0 because it measured nothing.
std::vector<std::string> nothing_measured(const model::Run& baseline, const Ranking& ranking);

}  // namespace hydra::score
