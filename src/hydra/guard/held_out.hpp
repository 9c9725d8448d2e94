// Held-out judgement (docs/threat-model.md, "Held-out evaluation"): which
// test results a candidate is scored by, when its capture ran the baseline's
// tests on its code and its new tests on the baseline's code. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/run.hpp>

namespace hydra::guard {

/// The baseline's tests as every candidate is judged against them: its
/// held-out results when a private test patch was applied to it (its own
/// tests and the private ones, on its code), else its own.
std::optional<std::vector<model::TestCase>> judged_baseline_tests(const model::Run& baseline);

struct HeldOutJudgement {
  std::vector<model::TestCase> tests;  ///< the candidate's tests as scored
  nlohmann::json evidence = nlohmann::json::object();  ///< what changed and why (the contract's anti_gaming.held_out)
};

/// The candidate's tests as scored, given `baseline_tests` (judged_baseline_tests):
///  - a baseline test that passes in the candidate's own run takes its result
///    from the held-out run (mode "built"),
///    from the baseline (mode "baseline"), or keeps its own (mode "candidate");
///    a test the held-out run could not build or run (its program did not
///    build against the change, or the run did not define it) is
///    "unverified" and counts as failing, named with the reason: a change
///    that breaks the API the baseline's tests use is a regression;
///  - a private test (in `baseline_tests`, not in the baseline's own run) is
///    added with its held-out result;
///  - a new test counts only when it demonstrates the change: it fails or does
///    not build on the baseline's code; one that passes there, or any new test
///    of a change that touches no code, is left out ("does not exercise the change").
/// Requires candidate.tests; a run without held-out evidence keeps its tests.
HeldOutJudgement judge_held_out(const model::Run& baseline, const std::vector<model::TestCase>& baseline_tests,
                                const model::Run& candidate);

}  // namespace hydra::guard
