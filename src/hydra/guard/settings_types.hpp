// The anti-gaming settings as plain data (no TOML): what the detectors look
// for and what their findings cost. Read from [anti_gaming] by settings.hpp.
#pragma once

#include <string>
#include <vector>

namespace hydra::guard {

struct Settings {
  /// Lint points per lint suppression the change adds (like a new warning);
  /// 0 disables the penalty (suppressions are still reported).
  double suppression_weight = 2.0;
  /// Tests-dimension points per assertion line removed from a test file;
  /// 0 disables the penalty (removals are still reported).
  double assertion_penalty = 2.0;
  /// Tampered tests (dropped, disabled, newly skipped, modified) count like
  /// regressed tests.
  bool test_tampering_is_regression = true;
  /// Any tampering (see guard::has_tampering) makes the candidate not mergeable.
  bool fail_gate_on_tampering = true;
  /// Extra ECMAScript regular expressions: a removed test-file line matching
  /// one is an assertion, like the built-in macros.
  std::vector<std::string> assertion_patterns;
  /// Which paths are test files (patterns as described by guard::path_matches).
  std::vector<std::string> test_file_globs = {"test/",   "tests/",  "*_test.*",
                                              "test_*.*", "*Test.*", "*_tests.*"};

  /// Configuration a candidate must not edit (patterns as described by
  /// guard::path_matches): the scoring config, the lint config, and
  /// HydraScore's own CMake files or a vendored copy of HydraScore.
  std::vector<std::string> protected_config_files = {
      "hydra.toml",  ".clang-tidy",  "cmake/HydraScore.cmake", "cmake/HydraScoreConfig.cmake.in",
      "cmake/HydraScore*.cmake", "hydra-score/"};
};

}  // namespace hydra::guard
