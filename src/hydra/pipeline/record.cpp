// record(): a run directory made from artifacts that already exist (CI's
// JUnit, lint logs, diffs); runs nothing (docs/cli.md, "record").
#include <hydra/pipeline/run_dir.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <hydra/error.hpp>
#include <hydra/parse/compiler_id.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/diff.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/lint_log.hpp>
#include <hydra/parse/metrics.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/signals.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/source_root.hpp>
#include <hydra/version.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void copy_into(const fs::path& source, const fs::path& destination) {
  // Read through our helper so a missing or unreadable input is an InputError
  // naming the user's file, then write the copy.
  const std::string content = util::read_file(source);
  fs::create_directories(destination.parent_path());
  util::write_file_atomic(destination, content);
}

/// The folders `record` makes the logs' absolute paths relative to: the
/// given --source-root folders, else one inferred per log from the diff.
std::vector<std::string> record_source_roots(const RecordRequest& request,
                                             const std::vector<std::vector<model::LintFinding>>& logs,
                                             const std::optional<model::DiffSummary>& diff) {
  std::vector<std::string> roots;
  auto add = [&](std::string root) {
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(std::move(root));
  };
  for (const auto& root : request.source_roots) add(util::absolute_clean(root).generic_string());
  if (!roots.empty() || !diff) return roots;
  std::vector<std::string> diff_paths;
  for (const auto& file : diff->files) {
    diff_paths.push_back(file.path);
    if (!file.old_path.empty()) diff_paths.push_back(file.old_path);
  }
  for (const auto& findings : logs) {
    std::vector<std::string> files;
    for (const auto& finding : findings) files.emplace_back(finding.file());
    if (auto root = util::infer_source_root(files, diff_paths)) add(*root);
  }
  return roots;
}

}  // namespace

void record(const RecordRequest& request, const fs::path& out) {
  // Validate everything before writing anything: bad input never leaves a
  // half-written run directory.
  std::vector<model::TestCase> tests;
  for (const auto& file : request.junit_files) {
    auto parsed = parse::parse_junit_file(file);
    tests.insert(tests.end(), parsed.begin(), parsed.end());
  }
  if (request.ctest_json) parse::parse_ctest_json_file(*request.ctest_json);
  std::vector<std::vector<model::LintFinding>> logs;  // each lint log's findings, then the build log's
  if (!is_lint_role(request.lint_role)) throw UsageError("unknown lint log format \"" + request.lint_role + "\"");
  for (const auto& file : request.cargo_test_logs) {
    TestArtifact parsed = parse_test_artifact("libtest_log", file);
    tests.insert(tests.end(), parsed.tests.begin(), parsed.tests.end());
  }
  for (const auto& file : request.lint_logs) logs.push_back(parse_lint_artifact(request.lint_role, file).findings);
  if (request.build_log && request.profile == "cmake")
    logs.push_back(parse::parse_compiler_warnings_file(*request.build_log));
  config::find_profile(request.profile);
  std::optional<model::DiffSummary> diff;
  if (request.diff) diff = parse::parse_unified_diff_file(*request.diff);
  const std::vector<std::string> source_roots = record_source_roots(request, logs, diff);
  if (request.metrics) parse::parse_metrics_file(*request.metrics);
  if (request.config) config::load(*request.config);
  if (request.build_seconds && (!std::isfinite(*request.build_seconds) || *request.build_seconds < 0))
    throw UsageError("--build-seconds must be a finite number >= 0");
  if (request.agent_seconds && (!std::isfinite(*request.agent_seconds) || *request.agent_seconds < 0))
    throw UsageError("--agent-seconds must be a finite number >= 0");
  if (request.agent.empty()) throw UsageError("--agent must not be empty");

  const fs::path staged = make_staging_sibling(out);
  try {
    json roles = json::object();
    auto add = [&](const fs::path& source, const std::string& relative, const std::string& role) {
      copy_into(source, staged / relative);
      roles[relative] = role;
    };
    if (request.build_log) add(*request.build_log, "build.log", "build_log");
    for (std::size_t i = 0; i < request.junit_files.size(); ++i)
      add(request.junit_files[i], "junit/" + std::to_string(i) + ".xml", "junit");
    if (request.ctest_json) add(*request.ctest_json, "ctest.json", "ctest_json");
    for (std::size_t i = 0; i < request.cargo_test_logs.size(); ++i)
      add(request.cargo_test_logs[i], "cargo-test/" + std::to_string(i) + ".log", "libtest_log");
    const std::string lint_extension =
        request.lint_role == "clippy_json" || request.lint_role == "eslint_json" ? ".json" : ".log";
    for (std::size_t i = 0; i < request.lint_logs.size(); ++i)
      add(request.lint_logs[i], "lint/" + std::to_string(i) + lint_extension, request.lint_role);
    if (request.diff) add(*request.diff, "diff.patch", "diff");
    if (request.metrics) add(*request.metrics, "metrics.json", "metrics");
    if (request.judge) add(*request.judge, "judge.json", "judge");
    if (request.config) add(*request.config, "hydra.toml", "config");

    json manifest = {
        {"schema", kSchema},
        {"engine_version", engine_version},
        {"agent", request.agent},
        {"task", request.task},
        {"build", json::object()},
        {"security", {{"ran", false}}},
    };
    if (request.build_exit_code) {
      manifest["build"]["exit_code"] = *request.build_exit_code;
      manifest["build"]["seconds"] = request.build_seconds.value_or(0.0);
    }
    if (request.agent_seconds) manifest["agent_seconds"] = *request.agent_seconds;
    if (request.security_exit_code) {
      manifest["security"] = {{"ran", true},
                              {"exit_code", *request.security_exit_code},
                              {"detail", "recorded exit code " + std::to_string(*request.security_exit_code)}};
    }
    if (!source_roots.empty()) manifest["source_roots"] = source_roots;
    if (request.profile != "cmake") manifest["profile"] = request.profile;
    if (request.lint_logs.empty())
      manifest["lint_inactive_reason"] =
          request.lint_inactive_reason.value_or("no lint log was recorded");
    manifest.update(request.extra_manifest, true);
    manifest["artifact_roles"] = roles;

    // Parsed summaries for people and audit (re-derived and compared by replay).
    json sealed_manifest = manifest;
    sealed_manifest.erase("artifact_roles");
    util::write_file_atomic(staged / "signals.json",
                            signals_json(parse_artifacts(staged, sealed_manifest, roles)).dump(2) + "\n");
    manifest["artifact_roles"]["signals.json"] = "signals";
    seal_and_publish(staged, manifest, out);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(staged, ec);
    throw;
  }
}

}  // namespace hydra::pipeline
