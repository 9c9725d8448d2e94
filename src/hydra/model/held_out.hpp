// Plain data: what a capture's held-out runs found (docs/threat-model.md,
// "Held-out evaluation"), as scoring consumes it.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <hydra/model/build_targets.hpp>
#include <hydra/model/test.hpp>

namespace hydra::model {

struct HeldOut {
  /// "none" (no held-out evidence: a recorded run, or no git base),
  /// "candidate" (no test file changed: the candidate's own results stand),
  /// "baseline" (only test files changed: the baseline's results stand),
  /// "built" (the baseline's tests were built and run on the candidate's code).
  std::string mode = "none";
  std::string reason;
  bool build_passed = false;                        ///< mode "built": the held-out tree built completely
  std::optional<std::vector<TestCase>> tests;       ///< mode "built": held-out/junit
  std::optional<std::vector<TestCase>> program_tests;  ///< `tests` at program level (Run::program_tests)
  std::vector<std::string> test_files_changed;      ///< test files the change touches (top-level relative)
  /// "none" (no new test, or no evidence), "no code change", "built".
  std::string new_tests_mode = "none";
  bool on_baseline_build_passed = false;
  std::optional<std::vector<TestCase>> tests_on_baseline;  ///< new_tests_mode "built": on-baseline/junit
  std::optional<std::vector<TestCase>> program_tests_on_baseline;  ///< at program level (Run::program_tests)
  bool private_test_patch = false;                  ///< a private test patch was configured and applied
  /// A private test patch was configured for the run (applied or not): every
  /// report then gives every candidate a resolution verdict, or says why none.
  bool private_test_patch_configured = false;
  /// Why the private test patch could not be applied; empty when it was.
  std::string private_test_patch_problem;
  /// The tests private to the task: the CTest tests the private test patch
  /// adds or whose files it touches (recorded by the baseline's capture, by
  /// program); guard::private_test_identities takes them to the level tests
  /// are scored at.
  std::vector<std::string> private_tests;

  /// How the held-out run (mode "built") and the on-baseline run (new tests
  /// "built") defined and built their tests: ctest's list and the build
  /// targets, as the runs saw their trees (`*_roots`: source and build
  /// folders). Absent when not recorded.
  std::vector<TestDefinition> definitions;
  std::optional<BuildTargets> targets;
  std::vector<TestDefinition> on_baseline_definitions;
  std::optional<BuildTargets> on_baseline_targets;
  std::pair<std::string, std::string> roots;              ///< held-out: source, build
  std::pair<std::string, std::string> on_baseline_roots;  ///< on-baseline: source, build
};

}  // namespace hydra::model
