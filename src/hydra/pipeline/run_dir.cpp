#include <hydra/pipeline/run_dir.hpp>
#include <hydra/pipeline/caches_summary.hpp>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <system_error>

#include <hydra/error.hpp>
#include <hydra/eval/judge.hpp>
#include <hydra/parse/compiler_id.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/diff.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/manifest.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/parse/test_files.hpp>
#include <hydra/parse/lint_log.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/case_results.hpp>
#include <hydra/parse/metrics.hpp>
#include <hydra/pipeline/held_out_record.hpp>
#include <hydra/pipeline/run_lint.hpp>
#include <hydra/pipeline/signals.hpp>
#include <hydra/pipeline/test_attempts.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/version.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Artifact roles, in the order they are listed in the manifest.
struct Artifact {
  std::string path;  ///< relative to the run directory, '/'-separated
  std::string role;  ///< build_log, junit, ctest_json, lint_log, diff, metrics, config, signals
};

/// The test role inside a held-out run's role ("held_out_junit" ->
/// "junit", "on_baseline_libtest_log" -> "libtest_log"); empty for others.
std::string held_out_result_role(const std::string& role) {
  for (const std::string prefix : {"held_out_", "on_baseline_"})
    if (role.rfind(prefix, 0) == 0 && is_test_role(role.substr(prefix.size()))) return role.substr(prefix.size());
  return {};
}

/// The artifacts' roles by path.
std::map<std::string, std::string> artifact_roles(const std::vector<Artifact>& artifacts) {
  std::map<std::string, std::string> roles;
  for (const auto& artifact : artifacts) roles[artifact.path] = artifact.role;
  return roles;
}

std::string manifest_seal(json manifest) {
  manifest.erase("seal");
  return util::sha256_hex(manifest.dump());
}

bool is_run_directory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kManifest, ec);
}

bool is_empty_directory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && fs::is_empty(dir, ec);
}

/// Notes in `run` that `replaced` invalid UTF-8 sequences of `artifact` were
/// replaced by U+FFFD (nothing when none were).
void note_replacements(model::Run& run, const std::string& artifact, std::uint64_t replaced) {
  if (replaced == 0) return;
  run.input_notes.push_back(artifact + ": " + std::to_string(replaced) + " invalid UTF-8 sequence" +
                            (replaced == 1 ? "" : "s") + " replaced by U+FFFD");
}

}  // namespace

fs::path make_staging_sibling(const fs::path& out) {
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  fs::create_directories(parent);
  std::string pattern = (parent / ("." + out.filename().string() + ".tmp-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error("cannot create a temporary directory next to " + out.string() + ": " +
                std::strerror(errno));
  return pattern;
}

void publish_run_directory(const fs::path& staged, const fs::path& out) {
  std::error_code ec;
  if (fs::exists(out, ec)) {
    if (!is_run_directory(out) && !is_empty_directory(out)) {
      fs::remove_all(staged, ec);
      throw UsageError(out.string() + ": exists and is not a run directory; refusing to replace it");
    }
#ifdef RENAME_EXCHANGE
    // Swap the two in one step (`out` is never missing), then drop the old
    // run from the staging path, where a crash would leave it for the next
    // capture to remove (docs/run-directory.md).
    if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, out.c_str(), RENAME_EXCHANGE) == 0) {
      fs::remove_all(staged, ec);
      return;
    }
#endif
    // Move the old run aside, move the new one in, then drop the old one.
    const fs::path trash = make_staging_sibling(out);
    fs::remove(trash, ec);
    fs::rename(out, trash);
    fs::rename(staged, out);
    fs::remove_all(trash, ec);
  } else {
    fs::rename(staged, out);
  }
}

void seal_and_publish(const fs::path& staged, json manifest, const fs::path& out) {
  // Digest every artifact in the staged directory.
  json artifacts = json::array();
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(staged)) {
    if (entry.is_regular_file() && entry.path().filename() != kManifest) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  const json roles = manifest.value("artifact_roles", json::object());
  for (const auto& file : files) {
    const std::string relative = fs::relative(file, staged).generic_string();
    artifacts.push_back({{"path", relative},
                         {"role", roles.value(relative, std::string("other"))},
                         {"sha256", util::sha256_file(file)},
                         {"bytes", fs::file_size(file)}});
  }
  manifest.erase("artifact_roles");
  manifest["artifacts"] = artifacts;
  manifest["seal"] = manifest_seal(manifest);
  util::write_file_atomic(staged / kManifest, manifest.dump(2) + "\n");
  publish_run_directory(staged, out);
}

json read_manifest(const fs::path& run_dir) {
  const fs::path file = run_dir / kManifest;
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) throw InputError(run_dir.string(), "not a directory (expected a run directory)");
  if (!fs::exists(file, ec))
    throw InputError(file.string(), "missing: " + run_dir.string() + " is not a HydraScore run directory");
  const std::string text = util::read_file(file);
  json manifest;
  try {
    manifest = json::parse(text);
  } catch (const json::parse_error& error) {
    const auto at = util::position_of(text, error.byte > 0 ? error.byte - 1 : 0);
    throw InputError(file.string(), std::string("malformed JSON: ") + error.what(), at.line, at.column);
  }
  if (!manifest.is_object() || manifest.value("schema", std::string()) != kSchema)
    throw InputError(file.string(), std::string("not a run manifest (expected \"schema\": \"") + kSchema + "\")");
  if (!manifest.contains("artifacts") || !manifest["artifacts"].is_array())
    throw InputError(file.string(), "manifest has no \"artifacts\" list");
  return manifest;
}

model::RunManifest read_run_manifest(const fs::path& run_dir) {
  return parse::parse_manifest(read_manifest(run_dir), (run_dir / kManifest).string());
}

json read_sealed_manifest(const fs::path& run_dir) {
  json manifest = read_manifest(run_dir);
  if (manifest.value("seal", std::string()) != manifest_seal(manifest))
    throw Tampered((run_dir / kManifest).string() + ": manifest was modified after it was sealed");
  return manifest;
}

namespace {

/// Throws hydra::Tampered unless `file` exists and its content has the
/// digest `sha256` that `manifest_file` sealed.
void check_sealed_file(const fs::path& file, const std::string& sha256, const fs::path& manifest_file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw Tampered(file.string() + ": sealed artifact is missing");
  if (util::sha256_file(file) != sha256)
    throw Tampered(file.string() + ": content does not match the digest sealed in " + manifest_file.string());
}

}  // namespace

std::optional<std::string> read_sealed_artifact(const fs::path& run_dir, const model::RunManifest& manifest,
                                                const std::string& relative) {
  for (const auto& artifact : manifest.artifacts) {
    if (artifact.path != relative) continue;
    check_sealed_file(run_dir / relative, artifact.sha256, run_dir / kManifest);
    return util::read_file(run_dir / relative);
  }
  return std::nullopt;
}

void verify_seal(const fs::path& run_dir) {
  const fs::path manifest_file = run_dir / kManifest;
  // Typed: a forged manifest (anyone can compute a seal) with an artifact of
  // the wrong shape is an input error, not an internal one.
  const model::RunManifest manifest = parse::parse_manifest(read_sealed_manifest(run_dir), manifest_file.string());
  std::set<std::string> listed;
  for (const auto& artifact : manifest.artifacts) {
    const std::string& relative = artifact.path;
    if (relative.empty() || relative.find("..") != std::string::npos || relative.front() == '/')
      throw Tampered(manifest_file.string() + ": invalid artifact path \"" + relative + "\"");
    listed.insert(relative);
    check_sealed_file(run_dir / relative, artifact.sha256, manifest_file);
  }
  for (const auto& entry : fs::recursive_directory_iterator(run_dir)) {
    if (!entry.is_regular_file() && !entry.is_symlink()) continue;
    const std::string relative = fs::relative(entry.path(), run_dir).generic_string();
    if (relative == kManifest) continue;
    if (!listed.count(relative))
      throw Tampered(entry.path().string() + ": file is not listed in the sealed manifest");
  }
}

std::optional<bool> ran_sandboxed(const model::RunManifest& manifest) {
  if (manifest.sandboxed) return manifest.sandboxed;
  // Captures before "confinement" was recorded: their description says.
  if (!manifest.sandbox.empty()) return manifest.sandbox.rfind("bubblewrap", 0) == 0;
  return std::nullopt;
}

namespace {

/// What read_artifacts leaves for read_lint.
struct ReadArtifacts {
  std::vector<LintLog> lint_logs;
  std::string build_log;  ///< relative to the run directory; empty when none
};

/// Reads every artifact of `artifacts` but the lint logs into `run` (tests
/// with their cases, attempts and held-out runs, test definitions, build
/// targets, the diff, metrics, the judge), skipping those in `unparsable`.
ReadArtifacts read_artifacts(const fs::path& run_dir, const std::vector<Artifact>& artifacts,
                             const std::set<std::string>& unparsable, const model::RunManifest& typed,
                             model::Run& run) {
  std::vector<model::TestCase> tests;
  std::vector<model::TestCase> program_tests;  // the same at program level (case_results.hpp)
  bool planned = false;                        // some program's framework report was expected
  std::pair<std::vector<model::TestCase>, bool> held_out_programs, on_baseline_programs;  // (tests, planned)
  const CaseReports cases(run_dir, artifact_roles(artifacts), run);
  AttemptArtifacts attempts;  // reruns and repeats of the tests, merged below
  bool have_junit = false;
  ReadArtifacts read;
  for (const auto& artifact : artifacts) {
    if (unparsable.count(artifact.path)) continue;
    const fs::path file = run_dir / artifact.path;
    if (is_test_role(artifact.role)) {
      TestArtifact parsed = parse_test_artifact(artifact.role, file);
      note_replacements(run, artifact.path, parsed.replaced_bytes);
      TestLevels levels = cases.expand(artifact.path, std::move(parsed.tests), &run.test_programs);
      planned = planned || levels.planned;
      tests.insert(tests.end(), levels.cases.begin(), levels.cases.end());
      program_tests.insert(program_tests.end(), levels.programs.begin(), levels.programs.end());
      run.integrity_problems.insert(run.integrity_problems.end(), parsed.problems.begin(), parsed.problems.end());
      have_junit = true;
    } else if (artifact.role == "ctest_json") {
      run.test_definitions = parse::parse_ctest_json_file(file);
    } else if (artifact.role == "held_out_ctest_json" || artifact.role == "on_baseline_ctest_json") {
      // How the held-out runs defined their tests (guard/test_recipes.hpp).
      auto& into = artifact.role == "held_out_ctest_json" ? run.held_out.definitions
                                                          : run.held_out.on_baseline_definitions;
      try {
        into = parse::parse_ctest_json_file(file);
      } catch (const InputError& error) {
        run.integrity_problems.push_back(error.what());
      }
    } else if (artifact.role == "build_targets" || artifact.role == "held_out_build_targets" ||
               artifact.role == "on_baseline_build_targets") {
      auto& into = artifact.role == "build_targets"            ? run.build_targets
                   : artifact.role == "held_out_build_targets" ? run.held_out.targets
                                                               : run.held_out.on_baseline_targets;
      try {
        into = parse::parse_build_targets_file(file);
      } catch (const InputError& error) {
        run.integrity_problems.push_back(error.what());
      }
    } else if (const std::string inner = held_out_result_role(artifact.role); !inner.empty()) {
      auto& into = artifact.role.rfind("held_out_", 0) == 0 ? run.held_out.tests : run.held_out.tests_on_baseline;
      try {
        auto parsed = parse_test_artifact(inner, file);
        auto& programs = artifact.role.rfind("held_out_", 0) == 0 ? held_out_programs : on_baseline_programs;
        TestLevels levels = cases.expand(artifact.path, std::move(parsed.tests));
        if (!into) into.emplace();
        into->insert(into->end(), levels.cases.begin(), levels.cases.end());
        programs.second = programs.second || levels.planned;
        programs.first.insert(programs.first.end(), levels.programs.begin(), levels.programs.end());
        for (const auto& problem : parsed.problems) run.integrity_problems.push_back(artifact.path + ": " + problem);
      } catch (const InputError& error) {
        run.integrity_problems.push_back(error.what());
      }
    } else if (CaseReports::is_case_role(artifact.role)) {
      // Read with the ctest run they belong to.
    } else if (attempts.collect(artifact.role, artifact.path, file, run, cases)) {
    } else if (artifact.role == "test_files") {
      try {
        run.test_files = parse::parse_test_files_file(file).by_test;
      } catch (const InputError& error) {
        run.integrity_problems.push_back(error.what());
      }
    } else if (is_lint_role(artifact.role)) {
      read.lint_logs.push_back({artifact.path, artifact.role});
    } else if (artifact.role == "build_log") {
      read.build_log = artifact.path;
    } else if (artifact.role == "configure_log" && !run.tools.count("compiler")) {
      // Runs captured before the compiler was recorded: CMake named it when it configured.
      if (auto compiler = parse::compiler_identification_from_log(util::read_file(file))) run.tools["compiler"] = *compiler;
    } else if (artifact.role == "diff") {
      run.diff = parse::parse_unified_diff_file(file);
      note_replacements(run, artifact.path, run.diff->invalid_utf8_replaced);
    } else if (artifact.role == "metrics") {
      run.metrics = parse::parse_metrics_file(file);
    } else if (artifact.role == "judge") {
      const std::string text = util::read_file(file);
      const eval::JudgeOutcome outcome = eval::parse_judge_output(text);
      run.judge_score0to1 = outcome.score0to1;
      run.judge_detail = outcome.score0to1 ? outcome.rationale : "judge gave no grade: " + outcome.failure;
      // A capture records why the judge did not answer.
      const json recorded = json::parse(text, nullptr, false);
      if (!outcome.score0to1 && recorded.is_object() && recorded.value("failure", json()).is_string())
        run.judge_detail = "judge gave no grade: " + recorded["failure"].get<std::string>();
    }
  }
  if (have_junit) {
    parse::apply_labels(tests, run.test_definitions);
    parse::apply_labels(program_tests, run.test_definitions);
    label_cases(tests, run.test_definitions);
    run.tests = std::move(tests);
    if (planned) run.program_tests = std::move(program_tests);
  } else if (typed.tests_expected) {
    // The test step ran but left no usable results (timeout, crash): zero
    // tests ran, which scores and gates fail-closed.
    run.tests = std::vector<model::TestCase>{};
  }
  if (held_out_programs.second) run.held_out.program_tests = std::move(held_out_programs.first);
  if (on_baseline_programs.second) run.held_out.program_tests_on_baseline = std::move(on_baseline_programs.first);
  attempts.merge_into(run);
  return read;
}

}  // namespace

model::Run parse_artifacts(const fs::path& run_dir, const json& manifest, const json& roles_override,
                           bool include_compiler_warnings) {
  const model::RunManifest typed = parse::parse_manifest(manifest, (run_dir / kManifest).string());
  model::Run run;
  run.agent = typed.agent;
  run.path = run_dir.string();
  run.sandbox = typed.sandbox;
  run.sandboxed = ran_sandboxed(typed);
  run.network = typed.network;
  run.recaptured = typed.recaptured.value_or(std::string());
  run.retried_alone = typed.retried_alone.value_or(std::string());
  run.tools = typed.tools;
  run.task = typed.task;
  run.commit = typed.source_commit.empty() ? typed.base_commit : typed.source_commit;
  run.caches = caches_summary(typed);

  // Roles come from the sealed artifact list (or, while recording, from the staging map).
  std::vector<Artifact> artifacts;
  if (roles_override.is_object() && !roles_override.empty()) {
    for (const auto& [path, role] : roles_override.items()) artifacts.push_back({path, role.get<std::string>()});
    std::sort(artifacts.begin(), artifacts.end(), [](const Artifact& a, const Artifact& b) { return a.path < b.path; });
  } else {
    for (const auto& artifact : typed.artifacts) artifacts.push_back({artifact.path, artifact.role});
  }
  std::set<std::string> unparsable;
  for (const auto& problem : typed.unparsable_artifacts) {
    unparsable.insert(problem.path);
    run.integrity_problems.push_back(problem.path + ": " + problem.reason);
  }
  run.integrity_problems.insert(run.integrity_problems.end(), typed.problems.begin(), typed.problems.end());

  run.held_out = read_held_out_record(manifest);
  if (const auto steps = manifest.find("incomplete_steps"); steps != manifest.end() && steps->is_array())
    for (const auto& step : *steps)
      if (step.is_object() && step.value("step", json()).is_string() && step.value("reason", json()).is_string())
        run.incomplete_steps.emplace_back(step["step"].get<std::string>(), step["reason"].get<std::string>());
  run.source_root = typed.source_root;
  run.build_root = typed.build_dir;

  if (const auto& build = typed.build) {
    run.build.known = true;
    // Exit codes outside int's range (no process has one) read as a failure.
    run.build.exit_code = build->exit_code >= std::numeric_limits<int>::min() &&
                                  build->exit_code <= std::numeric_limits<int>::max()
                              ? static_cast<int>(build->exit_code)
                              : -1;
    run.build.seconds = build->seconds;
    run.build.timed_out = build->timed_out;
    run.build.passed = run.build.exit_code == 0 && !run.build.timed_out;
    if (run.build.timed_out)
      run.build.reason = "timed out after " + std::to_string(static_cast<long long>(run.build.seconds)) + " s";
    else if (!run.build.passed)
      run.build.reason = "exit code " + std::to_string(run.build.exit_code);
  }

  if (!typed.build && typed.build_inactive_reason)
    run.build.no_step = typed.build_inactive_reason->empty() ? "no build step" : *typed.build_inactive_reason;

  const ReadArtifacts read = read_artifacts(run_dir, artifacts, unparsable, typed, run);
  read_lint(run_dir, typed, read.lint_logs, read.build_log, include_compiler_warnings, run);

  if (typed.agent_seconds) run.metrics.duration_seconds = *typed.agent_seconds;

  const model::ManifestSecurity& security = typed.security;
  run.security.ran = security.ran;
  if (run.security.ran) {
    const std::int64_t exit_code = security.exit_code.value_or(-1);
    run.security.passed = exit_code == 0 && !security.timed_out;
    run.security.detail = security.detail.value_or("exit code " + std::to_string(exit_code));
  } else {
    run.security.detail = security.detail.value_or("not configured");
  }
  return run;
}

model::Run load(const fs::path& run_dir, const config::Config& config) {
  verify_seal(run_dir);
  const json manifest = read_manifest(run_dir);
  model::Run run = parse_artifacts(run_dir, manifest, json::object(), config.lint.compiler_warnings);
  select_test_level(run, config.tests.granularity);
  run.digest = util::sha256_file(run_dir / kManifest);
  return run;
}

config::Config load_config(const fs::path& run_dir) {
  const fs::path file = run_dir / "hydra.toml";
  std::error_code ec;
  if (fs::is_regular_file(file, ec)) return config::load(file);
  return config::Config{};
}

}  // namespace hydra::pipeline
