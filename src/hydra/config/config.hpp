// hydra.toml: the scoring configuration (keys, defaults and profiles).
// Reference: docs/config.md. The seed's section-12 example parses and means
// what it says.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/config/settings.hpp>

namespace hydra::config {

/// Dimension weights ([scoring.weights]). Non-negative; not all zero.
struct Weights {
  double build = 30;
  double tests = 30;
  double lint = 15;
  double diff_scope = 15;
  double speed = 10;
  double judge = 0;  ///< optional judge dimension (issue: eval composite); 0 = off
};

/// [scoring.gates]
struct Gates {
  bool require_build_pass = true;
  double max_test_regression_percent = 0;  ///< gate fails when regression% > this
  double min_test_count_ratio = 0.8;       ///< gate fails when A_total < ratio * B_total
  std::string security_command;            ///< optional shell command; non-zero exit fails the gate
  /// A candidate that leaves an acceptance test failing (a private test the
  /// baseline fails, docs/formulas.md "Resolution") is not mergeable.
  bool require_resolved = true;
};

/// [scoring.diff_scope]
struct DiffScope {
  std::uint64_t max_files_soft = 20;
  std::uint64_t max_churn_soft = 800;
  std::vector<std::string> protected_paths;  ///< "dir/" prefixes or glob patterns
};

/// [scoring.tests]
struct Tests {
  enum class Regression { count, identity };
  Regression regression = Regression::count;
  // Flaky tests (docs/formulas.md, "Flaky tests"):
  /// `attempts`: how often a failing test runs in all (the first run and its
  /// reruns), for the baseline and every candidate alike; 1: no reruns.
  int attempts = 3;
  /// `baseline_repeat`: how often the baseline's whole suite runs, to find
  /// flaky tests before any candidate is captured; 1: once.
  int baseline_repeat = 1;
  /// `granularity` (docs/formulas.md, "Test cases"): "case" scores each case
  /// of a test program whose framework report was read (GoogleTest, Catch2,
  /// doctest); "program" scores each CTest test as one, its report still
  /// deciding over its exit code.
  enum class Granularity { test_case, program };
  Granularity granularity = Granularity::test_case;
  /// `dilution_guard`: new tests raise the score by at most the new-test
  /// bonus's cap, pass-rate gain included (docs/formulas.md, "Dilution guard").
  bool dilution_guard = true;
};

/// [scoring.lint]
struct Lint {
  enum class Match { count, fingerprint };
  Match match = Match::count;
  bool compiler_warnings = true;     ///< count GCC/Clang warnings from the build log as findings
  std::vector<std::string> exclude;  ///< path prefixes/globs whose findings are ignored
};

/// [scoring.speed]
struct Speed {
  bool include_failed = true;  ///< seed 5.5: speed still computed for failed agents (default keep)
};

/// A profile: the commands of the build, test and lint steps. Data, not code.
/// For the built-in "cmake" profile the commands are driven by `capture`
/// itself (cmake --build, ctest --output-junit, clang-tidy over
/// compile_commands.json) and these strings document them. For the others
/// `capture` runs them with `sh -c` in a copy of the tree and adds the
/// arguments that make the tools write machine-readable results
/// (docs/config.md, "Profiles").
struct Profile {
  std::string name;
  std::string build;  ///< shell command; empty = no build step (the build dimension is inactive)
  std::string test;
  std::string lint;   ///< empty = no lint step (the lint dimension is inactive)
};

/// Built-in profiles: "cmake" (default), "js-node", "rust", "python".
const std::vector<Profile>& builtin_profiles();
/// The profile named `name`; throws hydra::Error for an unknown name.
const Profile& find_profile(std::string_view name);

/// The whole configuration.
struct Config {
  std::string profile = "cmake";
  /// The profile's commands: the built-in ones of `profile`, with the
  /// overrides of `[scoring.profile]` (`build`, `test`, `lint`) applied.
  Profile steps = builtin_profiles().front();
  /// `scoring.timeout_per_check_seconds` as written (nullopt when absent).
  /// When set, one timeout for every step (seed section 12); keys of
  /// [scoring.timeouts] still override single steps. The three fields below
  /// are the effective per-step timeouts (seed section 11 defaults).
  std::optional<double> timeout_per_check_seconds;
  double build_timeout_seconds = 300;
  double test_timeout_seconds = 600;
  double lint_timeout_seconds = 300;
  Weights weights;
  Gates gates;
  DiffScope diff_scope;
  Tests tests;
  Lint lint;
  Speed speed;
  /// [anti_gaming]: what the anti-gaming detectors look for and what their
  /// findings cost (docs/threat-model.md).
  AntiGaming anti_gaming;
  EvalSettings eval;           ///< [eval] (docs/compare.md)
  JudgeSettings judge;         ///< [judge] (docs/compare.md)
  CompareThresholds compare;   ///< [compare] (docs/compare.md)
  LoopSettings loop;           ///< [loop] (docs/loop.md)
  CacheSettings cache;         ///< [cache] (docs/config.md); not part of the digest
  SandboxSettings sandbox;     ///< [sandbox] (docs/config.md); not part of the digest
};

/// Parses hydra.toml text. `source_name` names the file in errors.
/// Throws hydra::InputError naming the key and its line:column for unknown
/// keys, wrong types, out-of-range values, negative or all-zero weights, and
/// TOML syntax errors.
/// Relative paths in the file ([judge] rubric_file, template) resolve against
/// `base_directory` (empty: the current directory).
Config parse(std::string_view toml_text, const std::string& source_name,
             const std::filesystem::path& base_directory = {});

/// Reads and parses a file (throws hydra::InputError if unreadable).
Config load(const std::filesystem::path& file);

/// The effective configuration as JSON (every key, defaults filled in),
/// with keys sorted; stable across runs.
nlohmann::json to_json(const Config& config);

/// SHA-256 (64 hex digits) of `to_json(config).dump()`: identifies the
/// configuration in manifests and in the score output.
std::string digest(const Config& config);

}  // namespace hydra::config
