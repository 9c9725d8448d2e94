// Plain data: a run directory's manifest.json as the readers see it, every
// key typed (written by capture and record, docs/run-directory.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hydra::model {

/// One sealed file of a run directory.
struct ManifestArtifact {
  std::string path;    ///< relative to the run directory
  std::string role;    ///< "junit", "lint_log", "diff", ... (docs/run-directory.md)
  std::string sha256;  ///< hex digest of the content
  std::optional<std::uint64_t> size;
};

/// An artifact a tool left malformed, kept for audit.
struct UnparsableArtifact {
  std::string path;
  std::string reason;
};

/// The build step's result ("build"); absent when no build result was recorded.
struct ManifestBuild {
  std::int64_t exit_code = 0;
  double seconds = 0.0;
  bool timed_out = false;
};

/// The security step ("security").
struct ManifestSecurity {
  bool ran = false;
  std::optional<std::int64_t> exit_code;
  bool timed_out = false;
  std::optional<std::string> detail;
};

/// What one of the capture's caches did ("caches": "compiler" is ccache,
/// "lint" the lint cache).
struct ManifestCache {
  bool used = false;
  std::string reason;  ///< why it was off
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t uncacheable = 0;
};

/// What a shared cache did for the capture ("caches"/"shared", docs/caches.md).
struct ManifestSharedCache {
  std::string role;             ///< "writer" or "reader"
  std::uint64_t lookups = 0;    ///< operations that went to the service
  std::uint64_t hits = 0;
  std::uint64_t writes = 0;
  std::string unavailable;      ///< why the service was given up; empty: it was not
};

/// Source -> what its object references of process control and
/// self-inspection (guard/process_references.hpp's catalogue).
using SourceReferences = std::map<std::string, std::set<std::string>>;

/// A run's "object_references": each unset when the run recorded none or
/// could not read its objects ({"problem": ...}).
struct ObjectReferences {
  std::optional<SourceReferences> sources;       ///< code that is no test
  std::optional<SourceReferences> test_sources;  ///< the tests' own sources
  std::string problem;  ///< why the scan read nothing ("problem"); empty when it read or did not run
};

/// One test of a launcher differential: run again without HydraScore's
/// test launcher (docs/threat-model.md, "Behaving well only under test").
struct PlainResult {
  std::string run;    ///< "candidate" (its own run) or "held-out"
  std::string test;   ///< the CTest test's name
  std::string plain;  ///< "passed", "failed", "timed out", "not run"
  int plain_runs = 0;
};

/// One test whose verdict HydraScore's test launcher found rewritten from
/// inside the program ("tampering_caught"; docs/threat-model.md, "Exit
/// status rewritten from inside"): the launcher's witness, canaries or
/// result stream disagreed with how the process ended.
struct CaughtTampering {
  std::string run;      ///< "candidate" (its own run) or "held-out" (with the private tests, when given)
  std::string test;     ///< the CTest test's name
  std::string message;  ///< the launcher's line, "hydra-score: tampering: ..."
};

/// A warning-hiding flag a unit's compile command has that the baseline's
/// lacks ("compile_flag_suppressions", capture/lint/flag_suppressions.hpp).
struct FlagSuppression {
  std::string unit;    ///< "<source>/src/a.cpp"
  std::string target;  ///< "<build>/<folder>/<target>"; may be empty
  std::string flag;    ///< "-Wno-conversion", "removed -Wextra", ...
};

/// One way a plain configure of the tree decided its build otherwise than
/// the capture's configure ("configure_differential"/"differences";
/// capture/cmake/configure_differential.hpp).
struct ConfigureDifference {
  std::string key;     ///< what differs, without the unit it was found in: "define NAME", "source PATH", ...
  std::string detail;  ///< for people: where, and on which side
};

/// What a capture's steps record for the anti-gaming checks, as manifest.json
/// holds it (its keys below) and scoring reads it (model::Run::records).
struct AntiGamingRecords {
  /// "shadowing_headers": a header of the tree -> the system or standard
  /// header it shadows (recorded by the test step).
  std::map<std::string, std::string> shadowing_headers;
  /// "lint_view"/"compiled_changed_files": the changed files the build
  /// compiled or included, whatever their names (recorded by the lint step).
  std::vector<std::string> compiled_changed_files;
  /// "compile_flag_suppressions": a candidate's, against its baseline.
  std::vector<FlagSuppression> compile_flag_suppressions;
  /// "object_references": what the build's objects reference of process
  /// control and self-inspection; "held_out"/"run"/"object_references": the
  /// same of the held-out run's objects.
  ObjectReferences object_references;
  ObjectReferences held_out_object_references;
  /// "launcher_differential"/"tests": the improved tests run again without
  /// the launcher; nullopt when the run recorded no differential.
  std::optional<std::vector<PlainResult>> launcher_differential;
  /// "held_out"/"run"/"launcher_differential"/"tests": the held-out run's.
  std::vector<PlainResult> held_out_launcher_differential;
  /// "tampering_caught" and "held_out"/"run"/"tampering_caught": the tests
  /// the launcher caught rewriting their verdict, in its own run and in the
  /// held-out run (run "candidate" / "held-out").
  std::vector<CaughtTampering> tampering_caught;
  /// "configure_differential"/"differences": how a plain configure of the
  /// tree differed from the capture's; nullopt when none ran.
  std::optional<std::vector<ConfigureDifference>> configure_differential;
  /// "held_out"/"build_differences": how the held-out run (the baseline's
  /// test files) built the code otherwise than the candidate's own build
  /// (capture/held_out_build.hpp); empty when it did not build or matched.
  std::vector<ConfigureDifference> held_out_build;
};

struct RunManifest {
  std::string schema;
  std::string engine_version;
  std::string agent = "candidate";
  std::string task;
  std::string source_root;                ///< the captured tree (capture)
  std::vector<std::string> source_roots;  ///< the checkouts lint paths are relative to (record)
  std::string source_commit;
  std::string base_commit;
  std::string build_dir;
  /// "capture"/"jobs": the jobs the run was captured with; 0 when it does
  /// not say (or says it as anything but a count).
  unsigned capture_jobs = 0;
  /// "capture"/"checkout_folder": where a run captured from a commit kept
  /// its worktree and build tree; empty when it does not say.
  std::string checkout_folder;
  std::string cache_key;
  std::string config_digest;
  /// The profile whose steps captured the run ("cmake" when absent: runs
  /// captured before profiles were recorded, and recorded runs).
  std::string profile = "cmake";
  std::string sandbox;  ///< the protection in force while the tree's code ran; empty for recorded runs
  /// "confinement": whether the tree's code ran inside the sandbox (nullopt:
  /// not recorded; a capture before it was, or a recorded run) and whether
  /// it could reach the network.
  std::optional<bool> sandboxed;
  bool network = false;
  std::map<std::string, std::string> tools;
  std::optional<double> agent_seconds;
  std::optional<ManifestBuild> build;
  /// Why the capture ran no build step (the profile has none); nullopt when it ran one.
  std::optional<std::string> build_inactive_reason;
  bool tests_expected = false;  ///< the test step ran (no results then means zero tests ran)
  std::optional<std::string> lint_inactive_reason;
  bool lint_unavailable_outside_tree = false;
  /// The lint step's "translation_units" (in "steps"): units it linted.
  std::optional<std::uint64_t> lint_units;
  /// "lint_incomplete": why the linter stopped early on some unit (a
  /// clang-tidy crash), one line each; empty when it did not.
  std::vector<std::string> lint_incomplete;
  std::optional<std::string> diff_inactive_reason;
  ManifestSecurity security;
  std::vector<std::string> problems;  ///< integrity problems the capture found
  /// "build_inputs_outside_trees": files the build read (Ninja's deps log,
  /// the files its configure read) outside the source tree, the build tree
  /// and the system's folders, absolute (built_files.hpp).
  std::vector<std::string> build_inputs_outside_trees;
  /// What the capture's steps recorded for the anti-gaming checks.
  AntiGamingRecords records;
  std::vector<UnparsableArtifact> unparsable_artifacts;
  std::optional<ManifestCache> compiler_cache;  ///< "caches"/"compiler"
  std::optional<ManifestCache> lint_cache;      ///< "caches"/"lint"
  std::optional<ManifestSharedCache> shared_cache;  ///< "caches"/"shared"
  std::optional<std::string> recaptured;  ///< why this run replaced a corrupted one (its "reason")
  /// Why this run was captured again alone ("retried_alone"/"reason"): a
  /// step of its first capture ran out of time beside other captures.
  std::optional<std::string> retried_alone;
  std::vector<ManifestArtifact> artifacts;
  std::string seal;
};

}  // namespace hydra::model
