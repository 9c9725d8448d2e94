// Lookups into a score::Ranking for the scoring unit tests (a missing name
// fails the test).
#pragma once

#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include <hydra/score/score.hpp>

namespace hydra::test {

inline const score::Gate& gate_named(const score::Candidate& candidate, const std::string& name) {
  auto found = std::find_if(candidate.gates.begin(), candidate.gates.end(),
                            [&](const score::Gate& gate) { return gate.name == name; });
  REQUIRE(found != candidate.gates.end());
  return *found;
}

inline const score::Dimension& dimension_named(const score::Candidate& candidate, const std::string& name) {
  auto found = std::find_if(candidate.dimensions.begin(), candidate.dimensions.end(),
                            [&](const score::Dimension& dimension) { return dimension.name == name; });
  REQUIRE(found != candidate.dimensions.end());
  return *found;
}

inline const score::Candidate& candidate_named(const score::Ranking& ranking, const std::string& agent) {
  auto found = std::find_if(ranking.candidates.begin(), ranking.candidates.end(),
                            [&](const score::Candidate& candidate) { return candidate.agent == agent; });
  REQUIRE(found != ranking.candidates.end());
  return *found;
}

/// The one candidate `candidate` scored against `baseline`.
inline score::Candidate score_one(const config::Config& config, const model::Run& baseline,
                                  const model::Run& candidate) {
  return score::rank(config, baseline, {candidate}).candidates.front();
}

}  // namespace hydra::test
