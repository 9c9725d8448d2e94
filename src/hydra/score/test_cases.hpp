// The tests dimension's parts for test cases and new tests
// (docs/formulas.md, "Test cases" and "Dilution guard"). Pure.
#pragma once

#include <nlohmann/json.hpp>

#include <hydra/config/config.hpp>
#include <hydra/model/run.hpp>
#include <hydra/score/test_comparison.hpp>
#include <hydra/util/exact.hpp>

namespace hydra::score {

/// How much of the pass rate new tests bought.
struct Dilution {
  util::Exact kept_pass_rate;  ///< A_pass / A_total over the tests the baseline has too
  util::Exact gain;            ///< max(0, pass_rate - kept_pass_rate) * 100
  util::Exact cut;             ///< points taken off: max(0, gain + new_test_bonus - 10) when guarded
};

/// The dilution of `pass_rate` by the new tests of `comparison` (tests whose
/// identity the baseline does not have), given the `new_test_bonus` they
/// earn; `guarded` false: nothing is cut. With no test the baseline has,
/// the kept pass rate is the pass rate (nothing to dilute).
Dilution dilution_of(const TestComparison& comparison, const util::Exact& pass_rate,
                     const util::Exact& new_test_bonus, bool guarded);

/// The bonus's cap: new tests move the score by at most this many points.
inline constexpr int kNewTestPointsCap = 10;

/// Adds to the tests dimension's `evidence` the granularity scored and, for
/// runs with framework programs, the program-level counts beside the case
/// counts ("programs": B_pass, B_total, A_pass, A_total; "case_programs":
/// how many of the candidate's programs gave cases).
void add_granularity_evidence(const config::Config& config, const model::Run& baseline, const model::Run& candidate,
                              nlohmann::json& evidence);

}  // namespace hydra::score
