// Pairing of baseline and candidate tests (test_comparison.hpp).
#include <hydra/score/test_comparison.hpp>
#include <hydra/score/flaky.hpp>

#include <algorithm>
#include <map>
#include <string>

namespace hydra::score {

namespace {

bool ran(model::TestStatus status) {
  return status == model::TestStatus::passed || status == model::TestStatus::failed ||
         status == model::TestStatus::error;
}

bool skipped(model::TestStatus status) {
  return status == model::TestStatus::skipped || status == model::TestStatus::disabled;
}

using Group = std::vector<const model::TestCase*>;

/// Orders a group of tests sharing an identity by what they say, never by
/// where they stood: passing tests first (or last, with `passing_first`
/// false), then by status, message and duration.
void order_group(Group& group, bool passing_first) {
  std::stable_sort(group.begin(), group.end(), [&](const model::TestCase* left, const model::TestCase* right) {
    const bool left_passed = left->status == model::TestStatus::passed;
    const bool right_passed = right->status == model::TestStatus::passed;
    if (left_passed != right_passed) return passing_first ? left_passed : right_passed;
    if (left->status != right->status) return left->status < right->status;
    if (left->message != right->message) return left->message < right->message;
    return left->duration_seconds < right->duration_seconds;
  });
}

/// Pairs the tests of one identity: `baseline` and `candidate` hold every
/// test of each side with it. Either side may hold none.
void pair_group(const std::string& id, Group& baseline, Group& candidate, TestChanges& changes) {
  const bool introduced = candidate.size() > baseline.size() && candidate.size() >= 2;
  if (baseline.size() >= 2 || candidate.size() >= 2)
    changes.duplicates.push_back({id, baseline.size(), candidate.size(), introduced});
  // The baseline's passing tests first; the candidate's in its favour (its
  // passing tests pair with them) unless the ambiguity is its own, then
  // against it (its non-passing tests pair with them). One test per side
  // pairs as it always did.
  order_group(baseline, true);
  order_group(candidate, !introduced);
  const std::size_t paired = std::min(baseline.size(), candidate.size());
  for (std::size_t at = 0; at < paired; ++at) {
    if (baseline[at]->status == model::TestStatus::passed && candidate[at]->status != model::TestStatus::passed)
      changes.regressed.push_back(*candidate[at]);
  }
  for (std::size_t at = paired; at < baseline.size(); ++at) changes.dropped.push_back(*baseline[at]);
  for (std::size_t at = paired; at < candidate.size(); ++at) changes.added.push_back(*candidate[at]);
}

}  // namespace

void pair_by_identity(const std::vector<model::TestCase>& baseline, const std::vector<model::TestCase>& candidate,
                      TestChanges& changes) {
  std::map<std::string, std::pair<Group, Group>> groups;  // identity -> (baseline's, candidate's)
  for (const auto& test : baseline) groups[test.id()].first.push_back(&test);
  for (const auto& test : candidate) groups[test.id()].second.push_back(&test);
  // By identity: the lists read the same whatever order the tests ran in.
  for (auto& [id, sides] : groups) pair_group(id, sides.first, sides.second, changes);
}

bool has_tests(const model::Run& run) { return run.tests && !run.tests->empty(); }

TestCounts count_tests(const std::optional<std::vector<model::TestCase>>& tests) {
  TestCounts counts;
  if (!tests) return counts;
  for (const auto& test : *tests) {
    counts.passed += test.status == model::TestStatus::passed ? 1 : 0;
    counts.total += ran(test.status) ? 1 : 0;
    counts.skipped += skipped(test.status) ? 1 : 0;
  }
  return counts;
}

TestComparison compare_tests(const config::Config& config, const model::Run& baseline,
                             const model::Run& candidate) {
  TestComparison comparison;
  comparison.baseline_has_tests = has_tests(baseline);
  comparison.candidate_has_tests = has_tests(candidate);
  comparison.candidate_recorded = candidate.tests.has_value();
  // Flaky tests count as passed on both sides: never a regression, never a fix.
  const FlakyPairing scored(baseline, candidate);
  comparison.changes.flaky = scored.flaky();
  comparison.changes.flipped_on_candidate = scored.flipped_on_candidate();
  comparison.baseline = count_tests(scored.baseline_tests());
  comparison.candidate = count_tests(scored.candidate_tests());

  const std::vector<model::TestCase> none;
  const auto& baseline_tests = scored.baseline_tests() ? *scored.baseline_tests() : none;
  const auto& candidate_tests = scored.candidate_tests() ? *scored.candidate_tests() : none;

  pair_by_identity(baseline_tests, candidate_tests, comparison.changes);

  const auto& b = comparison.baseline;
  const auto& a = comparison.candidate;
  comparison.count_regression = b.passed > a.passed ? b.passed - a.passed : 0;
  // Only a test that passed in the baseline can regress: a dropped test that
  // failed or was skipped stays listed as dropped but costs nothing.
  for (const auto& test : comparison.changes.dropped)
    comparison.dropped_passing += test.status == model::TestStatus::passed ? 1 : 0;
  // Every baseline-passing test that does not pass in the candidate, by
  // identity; at most B_pass (each is a distinct baseline-passing test).
  const std::uint64_t by_identity = comparison.changes.regressed.size() + comparison.dropped_passing;
  if (config.tests.regression == config::Tests::Regression::identity) {
    comparison.regression = by_identity;
  } else {
    comparison.regression = std::max<std::uint64_t>(comparison.count_regression, comparison.dropped_passing);
  }
  comparison.gate_regression = by_identity;
  // Anti-gaming: tests the change disabled, skipped or modified count like
  // regressions (max, not sum: a newly skipped test may already be counted),
  // never more than the baseline's passing tests.
  if (config.anti_gaming.test_tampering_is_regression) {
    comparison.tampered = candidate.tampering.tampered_tests;
    const std::uint64_t tampered = std::min<std::uint64_t>(b.passed, comparison.dropped_passing + comparison.tampered);
    comparison.regression = std::max(comparison.regression, tampered);
    comparison.gate_regression = std::max(comparison.gate_regression, tampered);
  }
  return comparison;
}

}  // namespace hydra::score
