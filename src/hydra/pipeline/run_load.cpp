// Loading a run directory (run_dir.hpp): every sealed artifact parsed into a
// model::Run by the reader of its role, then the run's tests, lint findings
// and security result put together. Sealing and publishing are in run_dir.cpp.
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/pipeline/caches_summary.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include <hydra/error.hpp>
#include <hydra/eval/judge.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/parse/compiler_id.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/diff.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/lint_log.hpp>
#include <hydra/parse/manifest.hpp>
#include <hydra/parse/metrics.hpp>
#include <hydra/parse/test_files.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/case_results.hpp>
#include <hydra/pipeline/held_out_record.hpp>
#include <hydra/pipeline/test_attempts.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/source_root.hpp>
#include <hydra/util/text.hpp>
#include <hydra/util/xxh64.hpp>

namespace hydra::pipeline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// One artifact of the run directory, as the readers see it.
struct Artifact {
  std::string path;  ///< relative to the run directory, '/'-separated
  std::string role;  ///< build_log, junit, ctest_json, lint_log, diff, metrics, config, signals
};

/// The test role inside a held-out run's role ("held_out_junit" ->
/// "junit", "on_baseline_libtest_log" -> "libtest_log"); empty for others.
std::string held_out_result_role(const std::string& role) {
  for (const std::string prefix : {"held_out_", "on_baseline_"})
    if (util::starts_with(role, prefix) && is_test_role(role.substr(prefix.size()))) return role.substr(prefix.size());
  return {};
}

/// The artifacts' roles by path.
std::map<std::string, std::string> artifact_roles(const std::vector<Artifact>& artifacts) {
  std::map<std::string, std::string> roles;
  for (const auto& artifact : artifacts) roles[artifact.path] = artifact.role;
  return roles;
}

/// Notes in `run` that `replaced` invalid UTF-8 sequences of `artifact` were
/// replaced by U+FFFD (nothing when none were).
void note_replacements(model::Run& run, const std::string& artifact, std::uint64_t replaced) {
  if (replaced == 0) return;
  run.input_notes.push_back(artifact + ": " + std::to_string(replaced) + " invalid UTF-8 sequence" +
                            (replaced == 1 ? "" : "s") + " replaced by U+FFFD");
}

/// Tests at both levels (case_results.hpp) and whether some program's
/// framework report was expected.
struct TestSide {
  std::vector<model::TestCase> programs;
  bool planned = false;
};

/// What the readers gather while the artifacts are read, one at a time.
struct Loading {
  Loading(const fs::path& run_dir, model::Run& run, const CaseReports& cases)
      : run_dir(run_dir), run(run), cases(cases) {}

  const fs::path& run_dir;
  model::Run& run;
  const CaseReports& cases;
  std::vector<model::TestCase> tests;
  TestSide own, held_out, on_baseline;
  bool have_junit = false;
  AttemptArtifacts attempts;  // reruns and repeats of the tests, merged at the end
  std::vector<Artifact> lint_logs;
  std::string build_log;

  fs::path file(const Artifact& artifact) const { return run_dir / artifact.path; }
};

/// A reader that may meet malformed input: an integrity problem of the run.
template <typename Read>
void reported(Loading& loading, Read read) {
  try {
    read();
  } catch (const InputError& error) {
    loading.run.integrity_problems.push_back(error.what());
  }
}

/// "junit", "libtest_log", ...: the run's own test results.
void read_tests(Loading& loading, const Artifact& artifact) {
  TestArtifact parsed = parse_test_artifact(artifact.role, loading.file(artifact));
  note_replacements(loading.run, artifact.path, parsed.replaced_bytes);
  TestLevels levels = loading.cases.expand(artifact.path, std::move(parsed.tests), &loading.run.test_programs);
  loading.own.planned = loading.own.planned || levels.planned;
  loading.tests.insert(loading.tests.end(), levels.cases.begin(), levels.cases.end());
  loading.own.programs.insert(loading.own.programs.end(), levels.programs.begin(), levels.programs.end());
  loading.run.integrity_problems.insert(loading.run.integrity_problems.end(), parsed.problems.begin(),
                                        parsed.problems.end());
  loading.have_junit = true;
}

/// "held_out_ctest_json", "on_baseline_ctest_json": how the held-out runs
/// defined their tests (guard/test_recipes.hpp).
void read_held_out_definitions(Loading& loading, const Artifact& artifact) {
  auto& into = artifact.role == "held_out_ctest_json" ? loading.run.held_out.definitions
                                                      : loading.run.held_out.on_baseline_definitions;
  reported(loading, [&] { into = parse::parse_ctest_json_file(loading.file(artifact)); });
}

/// "build_targets" and the held-out runs' "*_build_targets".
void read_build_targets(Loading& loading, const Artifact& artifact) {
  auto& into = artifact.role == "build_targets"            ? loading.run.build_targets
               : artifact.role == "held_out_build_targets" ? loading.run.held_out.targets
                                                           : loading.run.held_out.on_baseline_targets;
  reported(loading, [&] { into = parse::parse_build_targets_file(loading.file(artifact)); });
}

/// "held_out_<test role>", "on_baseline_<test role>": the held-out runs' results.
void read_held_out_tests(Loading& loading, const Artifact& artifact, const std::string& inner) {
  const bool held_out = util::starts_with(artifact.role, "held_out_");
  auto& into = held_out ? loading.run.held_out.tests : loading.run.held_out.tests_on_baseline;
  TestSide& side = held_out ? loading.held_out : loading.on_baseline;
  reported(loading, [&] {
    auto parsed = parse_test_artifact(inner, loading.file(artifact));
    TestLevels levels = loading.cases.expand(artifact.path, std::move(parsed.tests));
    if (!into) into.emplace();
    into->insert(into->end(), levels.cases.begin(), levels.cases.end());
    side.planned = side.planned || levels.planned;
    side.programs.insert(side.programs.end(), levels.programs.begin(), levels.programs.end());
    for (const auto& problem : parsed.problems) loading.run.integrity_problems.push_back(artifact.path + ": " + problem);
  });
}

/// "configure_log": for runs captured before the compiler was recorded,
/// the compiler CMake named when it configured.
void read_configure_log(Loading& loading, const Artifact& artifact) {
  if (loading.run.tools.count("compiler")) return;
  if (auto compiler = parse::compiler_identification_from_log(util::read_file(loading.file(artifact))))
    loading.run.tools["compiler"] = *compiler;
}

/// "diff": the change.
void read_diff(Loading& loading, const Artifact& artifact) {
  loading.run.diff = parse::parse_unified_diff_file(loading.file(artifact));
  note_replacements(loading.run, artifact.path, loading.run.diff->invalid_utf8_replaced);
}

/// "judge": the judge's grade, or why it gave none.
void read_judge(Loading& loading, const Artifact& artifact) {
  model::Run& run = loading.run;
  const std::string text = util::read_file(loading.file(artifact));
  const eval::JudgeOutcome outcome = eval::parse_judge_output(text);
  run.judge_score0to1 = outcome.score0to1;
  run.judge_detail = outcome.score0to1 ? outcome.rationale : "judge gave no grade: " + outcome.failure;
  // A capture records why the judge did not answer.
  const json recorded = json::parse(text, nullptr, false);
  if (!outcome.score0to1 && recorded.is_object() && recorded.value("failure", json()).is_string())
    run.judge_detail = "judge gave no grade: " + recorded["failure"].get<std::string>();
}

/// Reads `artifact` with the reader of its role; roles no reader takes are
/// kept in the run directory only.
void read_artifact(Loading& loading, const Artifact& artifact) {
  const std::string& role = artifact.role;
  if (is_test_role(role)) return read_tests(loading, artifact);
  if (role == "ctest_json") {
    loading.run.test_definitions = parse::parse_ctest_json_file(loading.file(artifact));
    return;
  }
  if (role == "held_out_ctest_json" || role == "on_baseline_ctest_json")
    return read_held_out_definitions(loading, artifact);
  if (role == "build_targets" || role == "held_out_build_targets" || role == "on_baseline_build_targets")
    return read_build_targets(loading, artifact);
  if (const std::string inner = held_out_result_role(role); !inner.empty())
    return read_held_out_tests(loading, artifact, inner);
  if (CaseReports::is_case_role(role)) return;  // read with the ctest run they belong to
  if (loading.attempts.collect(role, artifact.path, loading.file(artifact), loading.run, loading.cases)) return;
  if (role == "test_files")
    return reported(loading, [&] { loading.run.test_files = parse::parse_test_files_file(loading.file(artifact)).by_test; });
  if (is_lint_role(role)) return loading.lint_logs.push_back(artifact);
  if (role == "build_log") {
    loading.build_log = artifact.path;
    return;
  }
  if (role == "configure_log") return read_configure_log(loading, artifact);
  if (role == "diff") return read_diff(loading, artifact);
  if (role == "metrics") {
    loading.run.metrics = parse::parse_metrics_file(loading.file(artifact));
    return;
  }
  if (role == "judge") return read_judge(loading, artifact);
}

/// The run's tests from what the readers gathered.
void settle_tests(Loading& loading, const model::RunManifest& manifest) {
  model::Run& run = loading.run;
  if (loading.have_junit) {
    parse::apply_labels(loading.tests, run.test_definitions);
    parse::apply_labels(loading.own.programs, run.test_definitions);
    label_cases(loading.tests, run.test_definitions);
    run.tests = std::move(loading.tests);
    if (loading.own.planned) run.program_tests = std::move(loading.own.programs);
  } else if (manifest.tests_expected) {
    // The test step ran but left no usable results (timeout, crash): zero
    // tests ran, which scores and gates fail-closed.
    run.tests = std::vector<model::TestCase>{};
  }
  if (loading.held_out.planned) run.held_out.program_tests = std::move(loading.held_out.programs);
  if (loading.on_baseline.planned) run.held_out.program_tests_on_baseline = std::move(loading.on_baseline.programs);
  loading.attempts.merge_into(run);
}

/// Lint findings named as runs in other trees name them: files the build
/// generated as "<build>/...", the others relative to the source roots.
class FindingPaths {
 public:
  explicit FindingPaths(const model::RunManifest& manifest) {
    // The capture's source tree, and the checkouts `record` was given or inferred.
    if (!manifest.source_root.empty()) source_roots_.push_back(manifest.source_root);
    for (const auto& root : manifest.source_roots)
      if (!root.empty()) source_roots_.push_back(root);
    build_prefix_ = manifest.build_dir.empty() || manifest.build_dir.back() == '/' ? manifest.build_dir
                                                                                   : manifest.build_dir + "/";
  }
  void relativize(std::vector<model::LintFinding>& findings) const {
    for (auto& finding : findings) {
      if (!build_prefix_.empty() && finding.file().size() > build_prefix_.size() &&
          util::starts_with(finding.file(), build_prefix_)) {
        finding.set_file(std::string("<build>/").append(finding.file().substr(build_prefix_.size())));
        continue;
      }
      if (source_roots_.empty()) continue;
      const std::string file = util::strip_source_root(finding.file(), source_roots_);
      if (file != finding.file()) finding.set_file(file);
    }
  }

 private:
  std::vector<std::string> source_roots_;
  std::string build_prefix_;
};

/// The findings of several logs, each kept once per (file, line, column,
/// checks, message): a hash of those points at the findings kept with it,
/// compared field by field. (No copy of the fields per finding: a flooded
/// log has millions.)
class FindingSet {
 public:
  void merge(std::vector<model::LintFinding> parsed) {
    seen_.reserve(seen_.size() + parsed.size());
    findings_.reserve(findings_.size() + parsed.size());
    for (auto& finding : parsed) {
      const std::uint64_t hash = key_hash(finding);
      const auto [first, last] = seen_.equal_range(hash);
      if (std::any_of(first, last, [&](const auto& kept) { return same_key(findings_[kept.second], finding); }))
        continue;
      seen_.emplace(hash, findings_.size());
      findings_.push_back(std::move(finding));
    }
  }
  std::vector<model::LintFinding> take() { return std::move(findings_); }

 private:
  static std::uint64_t key_hash(const model::LintFinding& finding) {
    std::uint64_t hash = util::xxh64(finding.file(), finding.line() * 0x100000000ULL + finding.column());
    hash = util::xxh64(finding.joined_checks(), hash);
    return util::xxh64(finding.message(), hash);
  }
  static bool same_key(const model::LintFinding& left, const model::LintFinding& right) {
    return left.file() == right.file() && left.line() == right.line() && left.column() == right.column() &&
           left.joined_checks() == right.joined_checks() && left.message() == right.message();
  }
  std::vector<model::LintFinding> findings_;
  std::unordered_multimap<std::uint64_t, std::size_t> seen_;
};

/// Lint is active when a lint log exists; the cmake profile's compiler
/// warnings (from the build log) join its findings.
void settle_lint(const Loading& loading, const model::RunManifest& manifest, bool include_compiler_warnings) {
  model::Run& run = loading.run;
  if (loading.lint_logs.empty()) {
    run.lint_inactive_reason = manifest.lint_inactive_reason.value_or("no lint log was recorded");
    run.lint_unavailable_outside_tree = manifest.lint_unavailable_outside_tree;
    return;
  }
  const FindingPaths paths(manifest);
  FindingSet findings;
  const auto merge = [&](std::vector<model::LintFinding> parsed) {
    paths.relativize(parsed);
    findings.merge(std::move(parsed));
  };
  for (const auto& log : loading.lint_logs) {
    LintArtifact parsed = parse_lint_artifact(log.role, loading.file(log));
    if (!parsed.stopped_early.empty()) run.lint_incomplete.push_back(log.path + ": " + parsed.stopped_early);
    merge(std::move(parsed.findings));
  }
  // GCC/Clang warnings: the cmake profile's build log only.
  if (include_compiler_warnings && !loading.build_log.empty() && manifest.profile == "cmake")
    merge(parse::parse_compiler_warnings_file(loading.run_dir / loading.build_log));
  run.lint = findings.take();
  run.lint_units = manifest.lint_units;
  run.lint_incomplete.insert(run.lint_incomplete.end(), manifest.lint_incomplete.begin(),
                             manifest.lint_incomplete.end());
}

/// The build result the manifest records.
void read_build(model::Run& run, const model::RunManifest& manifest) {
  if (const auto& build = manifest.build) {
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
  } else if (manifest.build_inactive_reason) {
    run.build.no_step = manifest.build_inactive_reason->empty() ? "no build step" : *manifest.build_inactive_reason;
  }
}

/// The security step's result the manifest records.
void read_security(model::Run& run, const model::ManifestSecurity& security) {
  run.security.ran = security.ran;
  if (run.security.ran) {
    const std::int64_t exit_code = security.exit_code.value_or(-1);
    run.security.passed = exit_code == 0 && !security.timed_out;
    run.security.detail = security.detail.value_or("exit code " + std::to_string(exit_code));
  } else {
    run.security.detail = security.detail.value_or("not configured");
  }
}

/// What the manifest itself says of the run (no artifact read).
model::Run run_of_manifest(const fs::path& run_dir, const json& manifest, const model::RunManifest& typed) {
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
  for (const auto& problem : typed.unparsable_artifacts)
    run.integrity_problems.push_back(problem.path + ": " + problem.reason);
  run.integrity_problems.insert(run.integrity_problems.end(), typed.problems.begin(), typed.problems.end());
  run.held_out = read_held_out_record(manifest);
  if (const auto steps = manifest.find("incomplete_steps"); steps != manifest.end() && steps->is_array())
    for (const auto& step : *steps)
      if (step.is_object() && step.value("step", json()).is_string() && step.value("reason", json()).is_string())
        run.incomplete_steps.emplace_back(step["step"].get<std::string>(), step["reason"].get<std::string>());
  run.source_root = typed.source_root;
  run.build_root = typed.build_dir;
  run.records = typed.records;
  read_build(run, typed);
  return run;
}

/// The artifacts to read: the sealed list, or while recording the staging map.
std::vector<Artifact> artifacts_to_read(const json& roles_override, const model::RunManifest& manifest) {
  std::vector<Artifact> artifacts;
  if (roles_override.is_object() && !roles_override.empty()) {
    for (const auto& [path, role] : roles_override.items()) artifacts.push_back({path, role.get<std::string>()});
    std::sort(artifacts.begin(), artifacts.end(), [](const Artifact& a, const Artifact& b) { return a.path < b.path; });
  } else {
    for (const auto& artifact : manifest.artifacts) artifacts.push_back({artifact.path, artifact.role});
  }
  return artifacts;
}

}  // namespace

model::Run parse_artifacts(const fs::path& run_dir, const json& manifest, const json& roles_override,
                           bool include_compiler_warnings) {
  return parse_artifacts(run_dir, manifest, parse::parse_manifest(manifest, (run_dir / kManifest).string()),
                         roles_override, include_compiler_warnings);
}

model::Run parse_artifacts(const fs::path& run_dir, const json& manifest, const model::RunManifest& typed,
                           const json& roles_override, bool include_compiler_warnings) {
  model::Run run = run_of_manifest(run_dir, manifest, typed);
  const std::vector<Artifact> artifacts = artifacts_to_read(roles_override, typed);
  std::set<std::string> unparsable;
  for (const auto& problem : typed.unparsable_artifacts) unparsable.insert(problem.path);
  const CaseReports cases(run_dir, artifact_roles(artifacts), run);
  Loading loading(run_dir, run, cases);
  for (const auto& artifact : artifacts)
    if (!unparsable.count(artifact.path)) read_artifact(loading, artifact);
  settle_tests(loading, typed);
  settle_lint(loading, typed, include_compiler_warnings);
  // After the metrics artifact, which it overrides.
  if (typed.agent_seconds) run.metrics.duration_seconds = *typed.agent_seconds;
  read_security(run, typed.security);
  return run;
}

model::Run load(const fs::path& run_dir, const config::Config& config) {
  // The manifest is read and parsed once: its seal, its artifacts' digests
  // and the run all come from the same bytes.
  const json manifest = read_sealed_manifest(run_dir);
  const model::RunManifest typed = parse::parse_manifest(manifest, (run_dir / kManifest).string());
  verify_sealed_artifacts(run_dir, typed);
  model::Run run = parse_artifacts(run_dir, manifest, typed, json::object(), config.lint.compiler_warnings);
  select_test_level(run, config.tests.granularity);
  run.digest = util::sha256_file(run_dir / kManifest);
  return run;
}

}  // namespace hydra::pipeline
