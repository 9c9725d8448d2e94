// The tests dimension: pass rate, regression penalty, new-test bonus,
// assertion penalty and dilution guard over the pairing of baseline and
// candidate tests (test_comparison.hpp; docs/formulas.md, "Tests"). Pure.
#include <hydra/score/tests_dimension.hpp>
#include <hydra/score/dimension_support.hpp>
#include <hydra/score/test_cases.hpp>

#include <algorithm>
#include <cstdint>

namespace hydra::score {

namespace {

const char* mode_name(config::Tests::Regression regression) {
  return regression == config::Tests::Regression::identity ? "identity" : "count";
}

}  // namespace

Dimension score_tests(const config::Config& config, const model::Run& baseline,
                      const model::Run& candidate, TestChanges* changes, bool ranking_has_tests) {
  const TestComparison comparison = compare_tests(config, baseline, candidate);
  if (changes) *changes = comparison.changes;
  return score_tests(config, baseline, candidate, comparison, ranking_has_tests);
}

Dimension score_tests(const config::Config& config, const model::Run& baseline, const model::Run& candidate,
                      const TestComparison& comparison, bool ranking_has_tests) {
  Dimension dimension;
  dimension.name = "tests";

  if (const std::string why = baseline_incomplete(baseline, {"build", "test"}); !why.empty()) {
    deactivate(dimension, why);
    apply_weight(dimension, config.weights.tests);
    return dimension;
  }
  // The formula applies as written (no tests: pass rate 0) whenever the
  // baseline or any candidate of the ranking has tests.
  if (!comparison.baseline_has_tests && !comparison.candidate_has_tests && !ranking_has_tests) {
    deactivate(dimension, "no tests recorded for the baseline or any candidate");
    apply_weight(dimension, config.weights.tests);
    return dimension;
  }

  const auto& b = comparison.baseline;
  const auto& a = comparison.candidate;
  // Exact arithmetic (docs/formulas.md, "Exact values").
  const util::Exact pass_rate = a.total == 0 ? util::Exact(0) : util::Exact::ratio(a.passed, a.total);
  const util::Exact reg_penalty =
      b.passed == 0 ? util::Exact(0) : util::Exact::ratio(comparison.regression, b.passed) * 60;
  const std::uint64_t new_tests = a.total > b.total ? a.total - b.total : 0;
  const util::Exact new_test_bonus =
      new_tests > 0 ? std::min(util::Exact(10), util::Exact(new_tests) * 0.5) : util::Exact(0);

  // Anti-gaming: assertion lines removed from test files cost points.
  const util::Exact assertion_penalty =
      util::Exact(candidate.tampering.assertions_removed) * config.anti_gaming.assertion_penalty;
  // Dilution guard: what new tests add to the pass rate and the bonus
  // together stays within the bonus's cap (docs/formulas.md, "Dilution guard").
  const Dilution dilution = dilution_of(comparison, pass_rate, new_test_bonus, config.tests.dilution_guard);

  dimension.active = true;
  dimension.score =
      clamp_score(pass_rate * 100 - reg_penalty + new_test_bonus - assertion_penalty - dilution.cut);
  dimension.evidence = {
      {"mode", mode_name(config.tests.regression)},
      {"B_pass", b.passed},
      {"B_total", b.total},
      {"B_skipped", b.skipped},
      {"A_pass", a.passed},
      {"A_total", a.total},
      {"A_skipped", a.skipped},
      {"pass_rate", pass_rate},
      {"count_regression", comparison.count_regression},
      {"regressed", comparison.changes.regressed.size()},
      {"dropped", comparison.changes.dropped.size()},
      {"dropped_passing", comparison.dropped_passing},
      {"added", comparison.changes.added.size()},
      {"regression", comparison.regression},
      {"gate_regression", comparison.gate_regression},
      {"reg_penalty", reg_penalty},
      {"new_tests", new_tests},
      {"new_test_bonus", new_test_bonus},
      {"candidate_tests_recorded", comparison.candidate_recorded},
      {"tampered_tests", comparison.tampered},
      {"assertions_removed", candidate.tampering.assertions_removed},
      {"assertion_penalty", assertion_penalty},
  };
  dimension.evidence["flaky"] = comparison.changes.flaky.size();  // counted as passed on both sides
  // Failed, then passed on the candidate's code alone: its failure (named when any).
  if (!comparison.changes.flipped_on_candidate.empty())
    dimension.evidence["flipped_on_candidate"] = comparison.changes.flipped_on_candidate.size();
  dimension.evidence["kept_pass_rate"] = dilution.kept_pass_rate;
  dimension.evidence["new_tests_gain"] = dilution.gain;
  dimension.evidence["dilution_cut"] = dilution.cut;
  add_granularity_evidence(config, baseline, candidate, dimension.evidence);
  // Identities several tests share: paired as groups, never by position.
  const auto& duplicates = comparison.changes.duplicates;
  dimension.evidence["duplicate_identities"] = duplicates.size();
  dimension.evidence["duplicate_identities_introduced"] =
      std::count_if(duplicates.begin(), duplicates.end(), [](const DuplicateIdentity& duplicate) {
        return duplicate.introduced_by_candidate;
      });
  apply_weight(dimension, config.weights.tests);
  return dimension;
}

}  // namespace hydra::score
