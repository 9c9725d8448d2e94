// The run directory: one capture of one tree, self-contained and relocatable.
//
//   RUN/manifest.json     engine version, agent, steps (exit codes, durations,
//                         timeouts), artifact list with sha256 digests (the seal)
//   RUN/build.log         build output (optional)
//   RUN/junit/N.xml       JUnit XML files (optional, any number)
//   RUN/ctest.json        ctest --show-only=json-v1 (optional)
//   RUN/lint/N.log        clang-tidy logs (optional, any number)
//   RUN/diff.patch        the change as `git diff` prints it (optional)
//   RUN/metrics.json      agent metrics (optional)
//   RUN/hydra.toml        the scoring config used by the capture (optional)
//   RUN/signals.json      parsed summaries, for people and audit
//
// Written to a temporary sibling directory and renamed into place, so a crash
// never leaves a half capture. Reference: docs/run-directory.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/config/config.hpp>
#include <hydra/model/manifest.hpp>
#include <hydra/model/run.hpp>

namespace hydra::pipeline {

/// What `hydra-score record` turns into a run directory. Paths are copied.
/// The sealed manifest's file name inside a run directory.
inline constexpr const char* kManifest = "manifest.json";
/// The manifest's "schema" value.
inline constexpr const char* kSchema = "hydra-score/run/1";

struct RecordRequest {
  std::string agent = "candidate";
  std::optional<int> build_exit_code;  ///< nullopt: build result unknown (dimension inactive)
  std::optional<double> build_seconds;
  std::optional<std::filesystem::path> build_log;
  std::vector<std::filesystem::path> junit_files;
  std::optional<std::filesystem::path> ctest_json;
  std::vector<std::filesystem::path> lint_logs;
  /// The run directory role of `lint_logs` (pipeline/artifacts.hpp):
  /// "lint_log" (clang-tidy), "clippy_json", "eslint_json", "flake8_log", "ruff_log".
  std::string lint_role = "lint_log";
  /// cargo test's output (libtest's lines), read like JUnit files.
  std::vector<std::filesystem::path> cargo_test_logs;
  /// The profile the artifacts come from ("cmake": the build log's compiler
  /// warnings count as lint findings; others: they do not).
  std::string profile = "cmake";
  std::optional<std::string> lint_inactive_reason;  ///< recorded when no lint log is given
  /// Checkout folders the logs' absolute paths are made relative to
  /// (`--source-root`, repeatable). Empty: inferred per log by matching its
  /// absolute paths against the diff's paths (util::infer_source_root).
  std::vector<std::filesystem::path> source_roots;
  std::optional<std::filesystem::path> diff;
  std::optional<double> agent_seconds;
  std::optional<std::filesystem::path> metrics;
  /// The judge's answer ({"score0to1": x, "rationale": "..."}, bare or as
  /// claude's JSON output); no grade in it drops the judge dimension.
  std::optional<std::filesystem::path> judge;
  std::optional<std::filesystem::path> config;
  std::optional<int> security_exit_code;
  std::string task;  ///< optional task id (for compare); empty = directory name
  nlohmann::json extra_manifest = nlohmann::json::object();  ///< merged into manifest.json (capture adds steps, tools)
};

/// Validates every input (parses it; throws hydra::InputError on bad input),
/// copies the artifacts into `out`, writes and seals manifest.json. `out` must
/// not exist, or must be a run directory (it is then replaced atomically).
void record(const RecordRequest& request, const std::filesystem::path& out);

/// Reads a run directory's manifest. Throws hydra::InputError if missing or malformed.
nlohmann::json read_manifest(const std::filesystem::path& run_dir);

/// Verifies every artifact against the digests sealed in the manifest and
/// that no unlisted artifact was added, and returns the manifest it checked,
/// typed. Throws hydra::Tampered naming the file.
model::RunManifest verify_seal(const std::filesystem::path& run_dir);

/// verify_seal's check of the artifacts, for a manifest already read and
/// checked with read_sealed_manifest. Throws hydra::Tampered naming the file.
void verify_sealed_artifacts(const std::filesystem::path& run_dir, const model::RunManifest& manifest);

/// Reads a run directory's manifest, every key typed (parse::parse_manifest).
/// Throws hydra::InputError if missing, malformed, or a key has the wrong type.
model::RunManifest read_run_manifest(const std::filesystem::path& run_dir);

/// Whether the run's code ran inside the sandbox: its recorded
/// `confinement`, or, for captures from before it was recorded, its
/// `sandbox` description; nullopt for a recorded run (nothing ran).
std::optional<bool> ran_sandboxed(const model::RunManifest& manifest);

/// Reads the manifest and checks its own seal (not the artifacts'). Throws
/// hydra::Tampered when the manifest was modified after it was sealed.
nlohmann::json read_sealed_manifest(const std::filesystem::path& run_dir);

/// The content of the artifact `relative` of `run_dir` when it still matches
/// the digest in `manifest` (read_sealed_manifest, parsed); nullopt when the
/// run has no such artifact. Throws hydra::Tampered when it was changed.
std::optional<std::string> read_sealed_artifact(const std::filesystem::path& run_dir,
                                                const model::RunManifest& manifest, const std::string& relative);

/// Verifies the seal, then parses every artifact into a model::Run.
/// `config` decides whether compiler warnings from the build log join the
/// lint findings ([scoring.lint] compiler_warnings).
/// Throws hydra::Tampered / hydra::InputError.
model::Run load(const std::filesystem::path& run_dir, const config::Config& config);

/// Parses the artifacts of a (possibly still staged) run directory described
/// by `manifest`. `roles_override` maps relative path -> role while staging;
/// pass an empty object to use the manifest's sealed artifact list.
/// `include_compiler_warnings` adds compiler warnings from build.log to lint.
model::Run parse_artifacts(const std::filesystem::path& run_dir, const nlohmann::json& manifest,
                           const nlohmann::json& roles_override, bool include_compiler_warnings = true);
/// parse_artifacts of a manifest already typed (parse::parse_manifest of `manifest`).
model::Run parse_artifacts(const std::filesystem::path& run_dir, const nlohmann::json& manifest,
                           const model::RunManifest& typed, const nlohmann::json& roles_override,
                           bool include_compiler_warnings = true);

/// Digests every file of `staged` into `manifest` (key "artifacts"; roles from
/// `manifest["artifact_roles"]`, which is removed), seals it, writes
/// manifest.json and renames `staged` to `out` (replacing an existing run
/// directory at `out`; refusing to replace anything else).
void seal_and_publish(const std::filesystem::path& staged, nlohmann::json manifest,
                      const std::filesystem::path& out);

/// A new empty directory beside `out` (`.NAME.tmp-XXXXXX`) to stage a run
/// directory in before it is renamed into place. Throws hydra::Error when it
/// cannot be made.
std::filesystem::path make_staging_sibling(const std::filesystem::path& out);

/// Renames `staged` into place at `out`, as `seal_and_publish` does.
void publish_run_directory(const std::filesystem::path& staged, const std::filesystem::path& out);

/// The scoring config stored in the run (hydra.toml), or defaults when none.
config::Config load_config(const std::filesystem::path& run_dir);

}  // namespace hydra::pipeline
