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

}  // namespace

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
  comparison.baseline = count_tests(scored.baseline_tests());
  comparison.candidate = count_tests(scored.candidate_tests());

  const std::vector<model::TestCase> none;
  const auto& baseline_tests = scored.baseline_tests() ? *scored.baseline_tests() : none;
  const auto& candidate_tests = scored.candidate_tests() ? *scored.candidate_tests() : none;

  std::map<std::string, std::vector<const model::TestCase*>> candidate_by_id;
  for (const auto& test : candidate_tests) candidate_by_id[test.id()].push_back(&test);
  std::map<std::string, std::size_t> used;  // candidate occurrences paired so far, per id

  for (const auto& test : baseline_tests) {
    const std::string id = test.id();
    auto found = candidate_by_id.find(id);
    std::size_t& next = used[id];
    if (found == candidate_by_id.end() || next >= found->second.size()) {
      comparison.changes.dropped.push_back(test);
      continue;
    }
    const model::TestCase& paired = *found->second[next++];
    if (test.status == model::TestStatus::passed && paired.status != model::TestStatus::passed) {
      comparison.changes.regressed.push_back(paired);
    }
  }
  std::map<std::string, std::size_t> seen;
  for (const auto& test : candidate_tests) {
    const std::string id = test.id();
    if (++seen[id] > used[id]) comparison.changes.added.push_back(test);
  }

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
