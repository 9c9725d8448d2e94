// Flaky tests in a ranking (flaky.hpp).
#include <hydra/score/flaky.hpp>

#include <algorithm>
#include <set>

#include <hydra/parse/test_attempts.hpp>

namespace hydra::score {

using model::TestCase;
using nlohmann::json;

namespace {

void add_label(std::vector<std::string>& labels, const std::string& label) {
  if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
}

/// `into` with the labels of `more` added after its own.
void merge_sightings(FlakySightings& into, const FlakySightings& more) {
  for (const auto& [id, labels] : more)
    for (const auto& label : labels) add_label(into[id], label);
}

const TestCase* find_test(const std::optional<std::vector<TestCase>>& tests, const std::string& id) {
  if (!tests) return nullptr;
  for (const auto& test : *tests)
    if (test.id() == id) return &test;
  return nullptr;
}

/// Whether `test` flipped on its run's code without the baseline's code ever
/// flipping it: the run's failure, never forgiven as flaky.
bool flipped_here(const TestCase& test, const FlakySightings& flaky) {
  return parse::is_flaky(test) && test.status == model::TestStatus::passed && !flaky.count(test.id());
}

/// `test`, failed as its first failing attempt failed: it flipped on a
/// candidate's code only.
void fail_flip(TestCase& test) {
  for (const auto& attempt : test.attempts) {
    if (!parse::failed_attempt(attempt.status)) continue;
    test.status = attempt.status;
    test.message = attempt.message + (attempt.message.empty() ? "" : "\n") +
                   "(failed, then passed when run again on this candidate's code; it never flipped on the "
                   "baseline's code: a failure, not a flaky test)";
    return;
  }
}

/// `tests` with, when `forgive`, every flaky identity passed and, when
/// `blame_flips`, every test that flipped only on this code failed; nullopt
/// when none needed a change.
std::optional<std::optional<std::vector<TestCase>>> passed_when_flaky(
    const std::optional<std::vector<TestCase>>& tests, const FlakySightings& flaky, bool forgive, bool blame_flips) {
  if (!tests) return std::nullopt;
  const auto forgiven = [&](const TestCase& test) {
    return forgive && test.status != model::TestStatus::passed && flaky.count(test.id());
  };
  const auto blamed = [&](const TestCase& test) { return blame_flips && flipped_here(test, flaky); };
  if (std::none_of(tests->begin(), tests->end(), [&](const TestCase& test) { return forgiven(test) || blamed(test); }))
    return std::nullopt;
  std::vector<TestCase> copy = *tests;
  for (auto& test : copy) {
    if (forgiven(test))
      test.status = model::TestStatus::passed;  // its message stays: why it failed
    else if (blamed(test))
      fail_flip(test);
  }
  return std::optional<std::vector<TestCase>>(std::move(copy));
}

json run_attempts_json(const RunAttempts& run) {
  json statuses = json::array();
  std::string message;
  bool failed = false;
  for (const auto& attempt : run.attempts) {
    statuses.push_back(model::to_string(attempt.status));
    if (!failed && parse::failed_attempt(attempt.status)) {
      failed = true;
      message = attempt.message;
    }
  }
  json entry = {{"run", run.run}, {"attempts", std::move(statuses)}};
  if (failed) entry["message"] = message;
  return entry;
}

}  // namespace

FlakySightings flaky_sightings(const model::Run& run) {
  FlakySightings sightings;
  const auto scan = [&](const std::optional<std::vector<TestCase>>& tests, const std::string& label) {
    if (!tests) return;
    for (const auto& test : *tests)
      if (parse::is_flaky(test)) add_label(sightings[test.id()], label);
  };
  scan(run.tests, run.agent);
  scan(run.held_out.tests, run.agent + " (held-out run)");
  scan(run.held_out.tests_on_baseline, run.agent + " (new tests on the baseline's code)");
  return sightings;
}

std::vector<std::string> flipped_alone(const std::optional<std::vector<TestCase>>& tests,
                                       const FlakySightings& baseline_flaky) {
  std::vector<std::string> ids;
  if (!tests) return ids;
  for (const auto& test : *tests)
    if (parse::is_flaky(test) && !baseline_flaky.count(test.id())) ids.push_back(test.id());
  return ids;
}

std::optional<FlakyRanking> with_ranking_flaky_tests(const model::Run& baseline,
                                                     const std::vector<model::Run>& candidates) {
  // Flakiness is the baseline's: only a test that flipped on the baseline's
  // own code is flaky. A candidate's runs add where else it was seen flaky,
  // never a flaky test of their own.
  FlakySightings all = flaky_sightings(baseline);
  // The candidates' sightings in name order, whatever order they came in.
  std::map<std::string, std::set<std::string>> by_candidates;
  for (const auto& candidate : candidates)
    for (const auto& [id, labels] : flaky_sightings(candidate))
      if (all.count(id)) by_candidates[id].insert(labels.begin(), labels.end());
  for (const auto& [id, labels] : by_candidates)
    for (const auto& label : labels) add_label(all[id], label);
  const bool flips = std::any_of(candidates.begin(), candidates.end(), [&](const model::Run& candidate) {
    return candidate.tests && std::any_of(candidate.tests->begin(), candidate.tests->end(),
                                          [&](const TestCase& test) { return flipped_here(test, all); });
  });
  if (all.empty() && !flips) return std::nullopt;
  const bool carried = !flips && baseline.flaky_in_ranking == all &&
                       std::all_of(candidates.begin(), candidates.end(),
                                   [&](const model::Run& candidate) { return candidate.flaky_in_ranking == all; });
  if (carried) return std::nullopt;
  FlakyRanking ranking{baseline, candidates};
  ranking.baseline.flaky_in_ranking = all;
  for (auto& candidate : ranking.candidates) {
    candidate.flaky_in_ranking = all;
    // A test that flipped on this candidate's code alone is its failure.
    if (auto blamed = passed_when_flaky(candidate.tests, all, false, true)) candidate.tests = std::move(*blamed);
  }
  return ranking;
}

FlakyPairing::FlakyPairing(const model::Run& baseline, const model::Run& candidate)
    : baseline_(&baseline.tests), candidate_(&candidate.tests) {
  // Flaky: what flipped on the baseline's code (its own runs, or the
  // ranking's record of them); the candidate's runs only say where else.
  FlakySightings sightings = flaky_sightings(baseline);
  merge_sightings(sightings, baseline.flaky_in_ranking);
  FlakySightings more = flaky_sightings(candidate);
  merge_sightings(more, candidate.flaky_in_ranking);
  for (const auto& [id, labels] : more)
    if (sightings.count(id))
      for (const auto& label : labels) add_label(sightings[id], label);
  flipped_ = flipped_alone(candidate.tests, sightings);
  if (sightings.empty() && flipped_.empty()) return;
  baseline_copy_ = passed_when_flaky(baseline.tests, sightings, true, false);
  candidate_copy_ = passed_when_flaky(candidate.tests, sightings, true, true);
  for (const auto& [id, seen_in] : sightings) {  // by identity
    const TestCase* in_baseline = find_test(baseline.tests, id);
    const TestCase* in_candidate = find_test(candidate.tests, id);
    if (!in_baseline && !in_candidate) continue;
    const TestCase& any = in_baseline ? *in_baseline : *in_candidate;
    FlakyTest flaky{id, any.suite, any.name, seen_in, {}};
    if (in_baseline) flaky.attempts.push_back({baseline.agent, parse::attempts_of(*in_baseline)});
    if (in_candidate) flaky.attempts.push_back({candidate.agent, parse::attempts_of(*in_candidate)});
    flaky_.push_back(std::move(flaky));
  }
}

json to_json(const FlakyTest& flaky) {
  json attempts = json::array();
  for (const auto& run : flaky.attempts) attempts.push_back(run_attempts_json(run));
  return {{"id", flaky.id},
          {"suite", flaky.suite},
          {"name", flaky.name},
          {"seen_flaky_in", flaky.seen_in},
          {"attempts", std::move(attempts)}};
}

std::vector<FlakyTest> ranking_flaky_tests(const std::vector<const std::vector<FlakyTest>*>& pairings) {
  // By identity, each run's attempts once (the baseline's appear in every pairing).
  std::map<std::string, FlakyTest> merged;
  for (const auto* pairing : pairings) {
    for (const auto& flaky : *pairing) {
      auto [found, inserted] = merged.emplace(flaky.id, flaky);
      if (inserted) continue;
      FlakyTest& kept = found->second;
      for (const auto& label : flaky.seen_in) add_label(kept.seen_in, label);
      for (const auto& run : flaky.attempts) {
        const bool known = std::any_of(kept.attempts.begin(), kept.attempts.end(),
                                       [&](const RunAttempts& other) { return other.run == run.run; });
        if (!known) kept.attempts.push_back(run);
      }
    }
  }
  std::vector<FlakyTest> list;
  for (auto& [id, flaky] : merged) list.push_back(std::move(flaky));
  return list;
}

}  // namespace hydra::score
