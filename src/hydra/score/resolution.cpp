// Resolution (resolution.hpp).
#include <hydra/score/resolution.hpp>

#include <algorithm>
#include <set>

namespace hydra::score {

namespace {

/// How a private test is named: ctest's by its name, others by suite::name.
std::string label(const model::TestCase& test) { return test.suite == "ctest" ? test.name : test.id(); }

}  // namespace

Resolution resolve(const model::Run& baseline, const model::Run& candidate) {
  Resolution resolution;
  if (baseline.held_out.private_tests.empty() || !baseline.tests) return resolution;
  const std::set<std::string> private_tests(baseline.held_out.private_tests.begin(),
                                            baseline.held_out.private_tests.end());
  std::set<std::string> acceptance;
  for (const auto& test : *baseline.tests)
    if (private_tests.count(label(test)) && test.status != model::TestStatus::passed) acceptance.insert(label(test));
  if (acceptance.empty()) return resolution;
  resolution.applies = true;
  resolution.acceptance_tests.assign(acceptance.begin(), acceptance.end());
  // A test whose definition or build the candidate changed passed on its
  // terms, not the task's.
  const std::set<std::string> tampered(candidate.tampering.tampered_test_names.begin(),
                                       candidate.tampering.tampered_test_names.end());
  std::set<std::string> passing;
  if (candidate.tests)
    for (const auto& test : *candidate.tests)
      if (test.status == model::TestStatus::passed && !tampered.count(label(test))) passing.insert(label(test));
  for (const auto& name : resolution.acceptance_tests)
    if (!passing.count(name)) resolution.still_failing.push_back(name);
  return resolution;
}

}  // namespace hydra::score
