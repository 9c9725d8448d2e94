// Resolution (resolution.hpp).
#include <hydra/score/resolution.hpp>

#include <algorithm>
#include <set>

#include <hydra/guard/test_levels.hpp>

namespace hydra::score {

namespace {

/// How a private test is named (as evidence names tests).
std::string label(const model::TestCase& test) { return guard::test_label(test); }

}  // namespace

Resolution resolve(const model::Run& baseline, const model::Run& candidate) {
  Resolution resolution;
  const model::HeldOut& held = baseline.held_out;
  // Private tests are recorded only where the patch applied.
  const bool applied = held.private_test_patch || !held.private_tests.empty();
  resolution.configured = held.private_test_patch_configured || applied;
  if (!resolution.configured) return resolution;
  for (const auto& [step, reason] : baseline.incomplete_steps)
    if (step.rfind("held-out", 0) == 0) {
      resolution.note = "the baseline's run with the private tests could not finish: " + reason;
      return resolution;
    }
  if (!applied) {
    resolution.note = "the private test patch was not applied to the baseline" +
                      (held.private_test_patch_problem.empty() ? std::string() : ": " + held.private_test_patch_problem);
    return resolution;
  }
  if (held.private_tests.empty()) {
    resolution.note = "the private test patch yields no acceptance test: no test it adds or changes fails on the baseline";
    return resolution;
  }
  if (!baseline.tests) {
    resolution.note = "the baseline recorded no test results";
    return resolution;
  }
  const std::set<std::string> private_tests(held.private_tests.begin(), held.private_tests.end());
  std::set<std::string> acceptance, seen;
  for (const auto& test : *baseline.tests) {
    if (!private_tests.count(label(test))) continue;
    seen.insert(label(test));
    if (test.status != model::TestStatus::passed) acceptance.insert(label(test));
  }
  // A private test the baseline's judged results do not hold did not run there.
  for (const auto& name : private_tests)
    if (!seen.count(name)) acceptance.insert(name);
  if (acceptance.empty()) {
    resolution.note = "every private test (" + std::to_string(private_tests.size()) +
                      ") passes on the baseline: the private test patch yields no acceptance test";
    return resolution;
  }
  resolution.applies = true;
  resolution.acceptance_tests.assign(acceptance.begin(), acceptance.end());
  // A test whose definition or build the candidate changed passed on its
  // terms, not the task's.
  const std::set<std::string> tampered(candidate.tampering.tampered_test_names.begin(),
                                       candidate.tampering.tampered_test_names.end());
  std::set<std::string> passing;
  if (candidate.tests)
    for (const auto& test : *candidate.tests)
      if (test.status == model::TestStatus::passed && !tampered.count(label(test)) &&
          !(!test.program.empty() && tampered.count(test.program)))
        passing.insert(label(test));
  for (const auto& name : resolution.acceptance_tests)
    if (!passing.count(name)) resolution.still_failing.push_back(name);
  return resolution;
}

}  // namespace hydra::score
