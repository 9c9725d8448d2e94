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
  /// A private test patch was configured for the baseline: every report
  /// gives the candidate a verdict, or `note` says why there is none.
  bool configured = false;
  /// The baseline has acceptance tests (a private test patch was applied to
  /// it and some private test fails there); otherwise no verdict applies.
  bool applies = false;
  std::vector<std::string> acceptance_tests;  ///< their names, sorted
  std::vector<std::string> still_failing;     ///< those the candidate does not pass, sorted
  /// When `configured` but not `applies`: why there is no verdict.
  std::string note;

  bool resolved() const { return applies && still_failing.empty(); }
};

/// The acceptance tests: the tests of `baseline.held_out.private_tests`
/// (identities at the level tests are scored at: guard::private_test_identities)
/// that do not pass in `baseline.tests` (the baseline's tests as judged, with
/// the private ones). The candidate's `tests` (as judged by its held-out
/// runs, at the baseline's levels) decide which still fail; one it did not
/// run, or whose definition or build it changed
/// (`candidate.tampering.tampered_test_names`, by test or by its program),
/// still fails.
Resolution resolve(const model::Run& baseline, const model::Run& candidate);

}  // namespace hydra::score
