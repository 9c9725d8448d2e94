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

/// `tests` with every flaky identity passed; nullopt when none needed a change.
std::optional<std::optional<std::vector<TestCase>>> passed_when_flaky(
    const std::optional<std::vector<TestCase>>& tests, const FlakySightings& flaky) {
  if (!tests) return std::nullopt;
  const auto needs = [&](const TestCase& test) {
    return test.status != model::TestStatus::passed && flaky.count(test.id());
  };
  if (std::none_of(tests->begin(), tests->end(), needs)) return std::nullopt;
  std::vector<TestCase> copy = *tests;
  for (auto& test : copy)
    if (needs(test)) test.status = model::TestStatus::passed;  // its message stays: why it failed
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

std::optional<FlakyRanking> with_ranking_flaky_tests(const model::Run& baseline,
                                                     const std::vector<model::Run>& candidates) {
  FlakySightings all = flaky_sightings(baseline);
  // The candidates' sightings in name order, whatever order they came in.
  std::map<std::string, std::set<std::string>> by_candidates;
  for (const auto& candidate : candidates)
    for (const auto& [id, labels] : flaky_sightings(candidate)) by_candidates[id].insert(labels.begin(), labels.end());
  for (const auto& [id, labels] : by_candidates)
    for (const auto& label : labels) add_label(all[id], label);
  if (all.empty()) return std::nullopt;
  const bool carried = baseline.flaky_in_ranking == all &&
                       std::all_of(candidates.begin(), candidates.end(),
                                   [&](const model::Run& candidate) { return candidate.flaky_in_ranking == all; });
  if (carried) return std::nullopt;
  FlakyRanking ranking{baseline, candidates};
  ranking.baseline.flaky_in_ranking = all;
  for (auto& candidate : ranking.candidates) candidate.flaky_in_ranking = all;
  return ranking;
}

FlakyPairing::FlakyPairing(const model::Run& baseline, const model::Run& candidate)
    : baseline_(&baseline.tests), candidate_(&candidate.tests) {
  FlakySightings sightings = flaky_sightings(baseline);
  merge_sightings(sightings, baseline.flaky_in_ranking);
  merge_sightings(sightings, flaky_sightings(candidate));
  merge_sightings(sightings, candidate.flaky_in_ranking);
  if (sightings.empty()) return;
  baseline_copy_ = passed_when_flaky(baseline.tests, sightings);
  candidate_copy_ = passed_when_flaky(candidate.tests, sightings);
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
