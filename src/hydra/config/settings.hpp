// The settings of hydra.toml's module tables as plain data: [eval], [judge],
// [compare], [anti_gaming] and [loop]. config::parse reads them with the rest
// of the file into config::Config; the modules that use them (eval, guard,
// compare, loop) take these types. Reference: docs/config.md, docs/compare.md,
// docs/threat-model.md, docs/loop.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hydra::config {

/// [eval]: the eval composite's weights and which tests are checks.
struct EvalSettings {
  double objective_weight = 0.6;  ///< W_OBJ (`w_obj`)
  double judge_weight = 0.4;      ///< W_JUDGE (`w_judge`)
  double cost_weight = 0.1;       ///< COST_WEIGHT (`cost_weight`): magnitude cap of the cost adjustment
  /// `check_labels`: when non-empty, only tests carrying one of these labels are checks.
  std::vector<std::string> check_labels;
  /// `check_regex`: when non-empty, only tests whose name matches (ECMAScript, search) are checks.
  std::string check_regex;
};

/// [judge]: the command that grades a change.
struct JudgeSettings {
  std::string command;           ///< shell command; empty: no judge
  double timeout_seconds = 120;  ///< the judge is killed after this
  std::string rubric;            ///< what the judge grades against (`rubric` or the text of `rubric_file`)
  std::filesystem::path prompt_template;  ///< empty: the installed templates/judge-prompt.md
};

/// [compare]: the comparator's thresholds.
struct CompareThresholds {
  /// The summed composite deltas must exceed this for `improved`; at or
  /// below its negative the verdict is `regressed`.
  double min_composite_gain = 0.01;
  /// A per-task composite drop larger than this is a hard regression.
  double regression_composite_drop = 0.05;
  /// Any drop in a task's objective pass rate or passed checks is a hard regression.
  bool objective_drop_is_regression = true;
};

/// Throws hydra::UsageError when a threshold is negative or not finite
/// (thresholds given on the command line).
void validate(const CompareThresholds& thresholds);

/// [anti_gaming]: what the anti-gaming detectors look for and what their
/// findings cost.
struct AntiGaming {
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
  /// Which paths are test files (path patterns, util/path_pattern.hpp).
  std::vector<std::string> test_file_globs = {"test/",     "tests/",   "*_test.*", "test_*.*",   "*Test.*",
                                              "*_tests.*", "*.test.*", "*.spec.*", "__tests__/",
                                              // Test runners' own configuration: the held-out run
                                              // takes it from the baseline with the tests.
                                              "conftest.py", "pytest.ini", "jest.config.*"};
  /// More test files (path patterns) for the held-out runs, besides those
  /// the codemodel names and `test_file_globs` (docs/threat-model.md).
  std::vector<std::string> test_paths;
  /// A patch (as `git diff` prints it) of private tests, outside the source
  /// tree, that the held-out runs apply before building; empty: none.
  /// A relative path is relative to the captured source tree (`--source`).
  std::string private_test_patch;
  /// Configuration a candidate must not edit (path patterns): the scoring
  /// config, the lint config, and HydraScore's own CMake files or a vendored
  /// copy of HydraScore.
  std::vector<std::string> protected_config_files = {
      "hydra.toml",  ".clang-tidy",  "cmake/HydraScore.cmake", "cmake/HydraScoreConfig.cmake.in",
      "cmake/HydraScore*.cmake", "hydra-score/",
      // The other profiles' lint configuration.
      "eslint.config.*", ".eslintrc*", ".flake8", "ruff.toml", ".ruff.toml", "clippy.toml", ".clippy.toml"};
  /// Process-control and self-inspection references (guard/process_references.hpp)
  /// the project's code may newly make without failing the anti-gaming gate:
  /// a reference as the evidence names it ("atexit", "/proc/self/exe",
  /// "std::set_terminate"), or a prefix ending in '*' ("/proc/self/*").
  std::vector<std::string> allowed_references;
};

/// What the improvement loop scores an iteration by.
enum class LoopMetric {
  pass_rate,  ///< mean pass rate over eval cases (docs/loop.md)
  composite,  ///< the ranking composite against iteration 0, divided by 100
};

/// "pass_rate" or "composite".
std::string_view to_string(LoopMetric metric) noexcept;

/// [loop]: the improvement loop's settings (command-line flags override them).
struct LoopSettings {
  int max_iterations = 10;  ///< improvement iterations after iteration 0
  int stuck_after = 3;      ///< consecutive reverts that stop the loop as "stuck"
  LoopMetric metric = LoopMetric::pass_rate;
  std::string improver;                      ///< shell command run in the source tree each iteration
  double improver_timeout_seconds = 1800.0;  ///< a timed-out improver counts as a revert
  /// Paths (relative to the source tree) the loop snapshots and restores.
  /// Empty: the whole source tree, except build trees and ignored files.
  std::vector<std::string> paths;
};

/// [cache]: the caches that make a candidate capture cost what its diff
/// touches (docs/config.md, "[cache]"). They never change a result, so they
/// are not part of the config digest.
struct CacheSettings {
  bool enabled = true;   ///< `enabled`: false turns every cache off (like `capture --no-cache`)
  bool lint = true;      ///< `lint`: reuse clang-tidy's output for unchanged translation units
  bool compiler = true;  ///< `compiler`: ccache as the compiler launcher of capture trees, when installed
  /// `directory`: where the caches live; empty: `.cache` beside the run
  /// directories (the run's parent). Relative: to hydra.toml's folder.
  std::filesystem::path directory;
  std::uint64_t lint_max_megabytes = 256;  ///< `lint_max_megabytes`: the lint cache is trimmed (oldest first) above this
  /// `remote`: a shared storage other machines' captures read and write
  /// (docs/caches.md): `file:/folder`, `redis://...`, `redis+unix:/socket`,
  /// `http://host/prefix`; empty: none. HYDRA_SCORE_CACHE_REMOTE overrides it.
  std::string remote;
  std::uint64_t remote_timeout_milliseconds = 2000;  ///< `remote_timeout_milliseconds`: one operation's bound
};

/// [sandbox]: what the steps that run a tree's code (configure, build,
/// tests, lint, held-out runs, the security command) may reach
/// (docs/config.md, "[sandbox]"; docs/threat-model.md). Like [cache], not
/// part of the digest: it changes what a candidate's code can do, never how
/// a result is scored.
struct SandboxSettings {
  /// `network`: false gives those steps a network namespace of their own
  /// (loopback only); true lets them reach the network, and every report says so.
  bool network = false;
  /// `require`: refuse to capture (exit 8) where bubblewrap cannot confine
  /// the steps, instead of running them unconfined with a warning.
  bool require = false;
  /// `environment`: more variables those steps get from HydraScore's
  /// environment, besides the built-in list: names, or prefixes ending in "*".
  std::vector<std::string> environment;
  /// `hidden`: more paths those steps cannot read (absolute, or relative to
  /// hydra.toml's folder).
  std::vector<std::filesystem::path> hidden;
  /// `read_only`: paths inside hidden ones those steps may still read (a
  /// toolchain under a home folder), likewise.
  std::vector<std::filesystem::path> read_only;
  /// `memory_megabytes`: memory of one step's processes together (a control
  /// group), or of each one's address space where no control group can be
  /// made; nullopt: half of this machine's memory; 0: no limit.
  std::optional<std::uint64_t> memory_megabytes;
  /// `cpu_seconds`: CPU time of each process of a step; 0: no limit.
  std::uint64_t cpu_seconds = 3600;
  /// `processes`: processes and threads of one step at once (a control
  /// group; not enforced where none can be made); 0: no limit.
  std::uint64_t processes = 4096;
};

}  // namespace hydra::config
