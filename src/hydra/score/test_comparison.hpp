// Baseline and candidate tests paired by identity: counts, regressions,
// drops and additions, computed once for the tests dimension and the test
// gates (docs/formulas.md, "Tests").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <hydra/config/config.hpp>
#include <hydra/model/run.hpp>
#include <hydra/score/score.hpp>

namespace hydra::score {

/// True when the run recorded at least one test.
bool has_tests(const model::Run& run);

/// Counts of one side's tests.
struct TestCounts {
  std::uint64_t passed = 0;   ///< status passed
  std::uint64_t total = 0;    ///< tests that ran: passed + failed + error
  std::uint64_t skipped = 0;  ///< skipped + disabled
};

TestCounts count_tests(const std::optional<std::vector<model::TestCase>>& tests);

/// Everything the tests dimension and the test gates need, computed once.
struct TestComparison {
  bool baseline_has_tests = false;
  bool candidate_has_tests = false;
  bool candidate_recorded = false;
  TestCounts baseline;
  TestCounts candidate;
  std::uint64_t count_regression = 0;  ///< seed: max(0, B_pass - A_pass)
  std::uint64_t dropped_passing = 0;   ///< dropped tests that passed in the baseline
  std::uint64_t regression = 0;        ///< the regression the tests dimension uses (by mode)
  std::uint64_t gate_regression = 0;   ///< baseline-passing tests that do not pass (the gate's count)
  std::uint64_t tampered = 0;          ///< tests disabled, newly skipped or modified (anti-gaming)
  TestChanges changes;
};

/// Pairs `baseline` and `candidate` tests by identity (suite::name), never
/// by position, into `changes` (regressed, dropped, added and duplicates,
/// each listed by identity). Tests sharing an identity are paired as a group
/// (see DuplicateIdentity): in the candidate's favour when the ambiguity is
/// the baseline's, against it when the candidate introduced it. Equivalent
/// runs in another order give the same changes.
void pair_by_identity(const std::vector<model::TestCase>& baseline, const std::vector<model::TestCase>& candidate,
                      TestChanges& changes);

/// Pairs baseline and candidate tests by identity (pair_by_identity) and
/// counts what the tests dimension and gates need.
TestComparison compare_tests(const config::Config& config, const model::Run& baseline,
                             const model::Run& candidate);

}  // namespace hydra::score
