// The launcher differential judged (docs/threat-model.md, "Behaving well only
// under test"; the capture side is capture/runners/launcher_differential.hpp):
// a test the candidate improves that passed under HydraScore's test launcher
// but failed when run once more without it (no witness, no pipes, no neutral
// name) recognised the launcher. It counts as failing and fails the
// anti-gaming gate. A test that failed under the launcher keeps its failure
// whatever the plain run said (the launcher may have caught tampering). Pure.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/run.hpp>
#include <hydra/model/test.hpp>

namespace hydra::guard {

/// One test's plain run, from a candidate's manifest.
using PlainResult = model::PlainResult;

/// What the differential found.
struct DifferentialJudgement {
  bool judged = false;  ///< the candidate's run recorded the differential
  std::vector<PlainResult> differing;  ///< passed under the launcher, failed plain
  nlohmann::json evidence = nlohmann::json::object();  ///< the contract's anti_gaming.launcher_differential
};

/// The plain results a candidate's run records: its own run's launcher
/// differential and its held-out run's. `judged` is set when its own run
/// recorded one.
std::vector<PlainResult> plain_results(const model::Run& candidate, bool& judged);

/// The tests the baseline's own run passed under the launcher and failed
/// (or timed out) in every plain run: its own code needs something of the
/// judged run (a test sensitive to its environment, not a candidate's trick).
std::set<std::string> failing_plain(const model::Run& baseline);

/// Judges `results`: every test that failed (or timed out) in every plain
/// run is differing, unless `excused` (failing_plain of the baseline) holds
/// it; each of `tests` whose CTest test (its program, else itself) differs
/// and that passed is set failed with the reason. Excused ones are listed in
/// the evidence (`excused`) and change nothing.
DifferentialJudgement judge_launcher_differential(const std::vector<PlainResult>& results, bool judged,
                                                  const std::set<std::string>& excused,
                                                  std::vector<model::TestCase>& tests);

/// The tests whose verdict HydraScore's test launcher caught rewritten from
/// inside (docs/threat-model.md, "Exit status rewritten from inside"): the
/// candidate's own, and those the baseline's runs caught too (the
/// baseline's own exit handlers, as a leak checker's: not the candidate's).
struct CaughtJudgement {
  std::vector<model::CaughtTampering> own;  ///< caught in the candidate's runs, not in the baseline's
  nlohmann::json evidence = nlohmann::json::array();  ///< the contract's anti_gaming.tampering_caught
};
CaughtJudgement judge_caught_tampering(const model::Run& baseline, const model::Run& candidate);

}  // namespace hydra::guard
