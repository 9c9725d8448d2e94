// Flaky tests in a ranking (docs/formulas.md, "Flaky tests"): flakiness is a
// property of the baseline. A test that failed and passed on the baseline's
// own code is flaky for every candidate ranked against that baseline: it
// counts as passed on both sides of every pairing (never a regression, never
// a fix), and every report lists it with its attempts and every other run
// that saw it flip. A test that failed and passed only on a candidate's code
// (its own run or its held-out run) is that candidate's failure; no
// candidate's runs change another's verdict. Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/run.hpp>

namespace hydra::score {

/// What one run's attempts of a test were.
struct RunAttempts {
  std::string run;  ///< the run's agent ("baseline" for the baseline)
  std::vector<model::TestAttempt> attempts;
};

/// One flaky test of a pairing of baseline and candidate.
struct FlakyTest {
  std::string id;  ///< TestCase::id()
  std::string suite;
  std::string name;
  /// The runs of the ranking that saw it fail and pass on the same code: an
  /// agent, or "<agent> (held-out run)", "<agent> (new tests on the
  /// baseline's code)"; sorted, the baseline's first.
  std::vector<std::string> seen_in;
  /// The baseline's and the candidate's attempts of it (a side without the
  /// test is left out).
  std::vector<RunAttempts> attempts;
};

/// Flaky identity -> the runs that saw it flaky.
using FlakySightings = std::map<std::string, std::vector<std::string>>;

/// The tests `run` saw flaky itself: in its own tests (as `run.agent`), its
/// held-out run's and its new tests' on the baseline's code.
FlakySightings flaky_sightings(const model::Run& run);

/// The identities of `tests` that failed and passed on their run's code while
/// `baseline_flaky` does not hold them.
std::vector<std::string> flipped_alone(const std::optional<std::vector<model::TestCase>>& tests,
                                       const FlakySightings& baseline_flaky);

/// The runs of a ranking, each carrying the baseline's flaky tests in
/// `model::Run::flaky_in_ranking`, each candidate's tests that flipped on its
/// code alone failed.
struct FlakyRanking {
  model::Run baseline;
  std::vector<model::Run> candidates;
};

/// Copies of `baseline` and `candidates` that carry every flaky test of the
/// ranking; nullopt when each of them already does (nothing was flaky, or the
/// runs are such copies).
std::optional<FlakyRanking> with_ranking_flaky_tests(const model::Run& baseline,
                                                     const std::vector<model::Run>& candidates);

/// The tests of one pairing as scored: every flaky identity (seen flaky by
/// either run, or recorded in their `flaky_in_ranking`) counts as passed on
/// both sides. Holds copies only when some test is flaky.
class FlakyPairing {
 public:
  FlakyPairing(const model::Run& baseline, const model::Run& candidate);

  /// The baseline's / candidate's tests as scored (nullopt: none recorded).
  const std::optional<std::vector<model::TestCase>>& baseline_tests() const {
    return baseline_copy_ ? *baseline_copy_ : *baseline_;
  }
  const std::optional<std::vector<model::TestCase>>& candidate_tests() const {
    return candidate_copy_ ? *candidate_copy_ : *candidate_;
  }
  /// The flaky tests either side has, by identity.
  const std::vector<FlakyTest>& flaky() const { return flaky_; }
  /// The candidate's tests that failed and passed on its code alone (not
  /// flaky on the baseline's): scored as failed.
  const std::vector<std::string>& flipped_on_candidate() const { return flipped_; }

 private:
  const std::optional<std::vector<model::TestCase>>* baseline_;
  const std::optional<std::vector<model::TestCase>>* candidate_;
  std::optional<std::optional<std::vector<model::TestCase>>> baseline_copy_, candidate_copy_;
  std::vector<FlakyTest> flaky_;
  std::vector<std::string> flipped_;
};

/// The JSON of one flaky test (the contract's `rankings[].tests.flaky[]`):
/// id, suite, name, `seen_flaky_in` and `attempts` (per run: its statuses and
/// the first failure's message).
nlohmann::json to_json(const FlakyTest& flaky);

/// The ranking's flaky tests (the contract's top-level `flaky_tests`): the
/// flaky tests of every candidate's pairing (`pairings`, in ranking order),
/// by identity, with the baseline's and each candidate's attempts.
std::vector<FlakyTest> ranking_flaky_tests(const std::vector<const std::vector<FlakyTest>*>& pairings);

}  // namespace hydra::score
