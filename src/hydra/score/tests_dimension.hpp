// The tests dimension (tests_dimension.cpp), scored from a pairing of the
// baseline's and the candidate's tests computed once per candidate
// (compare_tests) and shared with the test gates. Pure.
#pragma once

#include <hydra/config/config.hpp>
#include <hydra/model/run.hpp>
#include <hydra/score/score.hpp>
#include <hydra/score/test_comparison.hpp>

namespace hydra::score {

/// The tests dimension of `candidate` against `baseline` from their pairing
/// `comparison` (compare_tests of the same runs and `config`).
/// `ranking_has_tests`: some other run of the ranking has tests, so the
/// dimension is active even when neither this baseline nor this candidate has.
Dimension score_tests(const config::Config& config, const model::Run& baseline, const model::Run& candidate,
                      const TestComparison& comparison, bool ranking_has_tests);

}  // namespace hydra::score
