// Resolution (docs/formulas.md, "Resolution"): with a private test patch,
// the private tests the baseline fails are the task's acceptance tests; a
// candidate that leaves any of them failing has not resolved the task,
// whatever else it scores. Pure.
#pragma once

#include <string>
#include <vector>

#include <hydra/model/run.hpp>

namespace hydra::score {

struct Resolution {
  /// The baseline has acceptance tests (a private test patch was applied to
  /// it and some private test fails there); otherwise nothing else applies.
  bool applies = false;
  std::vector<std::string> acceptance_tests;  ///< their names, sorted
  std::vector<std::string> still_failing;     ///< those the candidate does not pass, sorted

  bool resolved() const { return applies && still_failing.empty(); }
};

/// The acceptance tests: the tests of `baseline.held_out.private_tests` that
/// do not pass in `baseline.tests` (the baseline's tests as judged, with the
/// private ones). The candidate's `tests` (as judged by its held-out runs)
/// decide which still fail; one it did not run, or whose definition or build
/// it changed (`candidate.tampering.tampered_test_names`), still fails.
Resolution resolve(const model::Run& baseline, const model::Run& candidate);

}  // namespace hydra::score
