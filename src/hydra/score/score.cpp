// The dimensions (build, tests, lint, diff scope, speed, judge), the
// composite and the ranking of candidates against one baseline: pure
// functions of model::Run and config::Config (docs/formulas.md). The gates
// are in gates.cpp, the pairing of tests in test_comparison.cpp.
#include <hydra/score/score.hpp>
#include <hydra/score/test_comparison.hpp>

#include <hydra/util/path_pattern.hpp>
#include <hydra/util/source_root.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace hydra::score {

namespace {

using nlohmann::json;

double round2(double value) { return std::round(value * 100) / 100; }

double clamp_score(double value) { return std::clamp(value, 0.0, 100.0); }

/// Makes `dimension` inactive with `reason`.
void deactivate(Dimension& dimension, std::string reason) {
  dimension.active = false;
  dimension.score = 0.0;
  dimension.inactive_reason = std::move(reason);
}

/// Sets the configured weight; a weight of 0 disables an active dimension.
void apply_weight(Dimension& dimension, double weight) {
  dimension.weight = weight;
  if (dimension.active && weight <= 0) {
    deactivate(dimension, "disabled (weight 0 in scoring.weights." + dimension.name + ")");
  }
}

/// Candidate findings with no baseline counterpart, and baseline findings
/// with no candidate counterpart (multiset difference by identity).
using FindingRefs = std::vector<const model::LintFinding*>;

LintChanges diff_findings(const FindingRefs& baseline, const FindingRefs& candidate) {
  // Hash tables only as large as the baseline's distinct findings: a
  // candidate that floods its linter costs one lookup per finding.
  LintChanges changes;
  std::unordered_map<std::uint64_t, std::size_t> baseline_left;       // not yet matched by the candidate
  std::unordered_map<std::uint64_t, std::size_t> candidate_matching;  // candidate findings per baseline identity
  baseline_left.reserve(baseline.size());
  candidate_matching.reserve(baseline.size());
  for (const model::LintFinding* finding : baseline) {
    ++baseline_left[finding->fingerprint()];
    candidate_matching.emplace(finding->fingerprint(), 0);
  }
  for (const model::LintFinding* finding : candidate) {
    const auto left = baseline_left.find(finding->fingerprint());
    if (left != baseline_left.end() && left->second > 0) {
      --left->second;
      ++candidate_matching.find(finding->fingerprint())->second;
    } else {
      changes.introduced.push_back(*finding);
    }
  }
  for (const model::LintFinding* finding : baseline) {
    std::size_t& available = candidate_matching.find(finding->fingerprint())->second;
    if (available > 0) {
      --available;
    } else {
      changes.resolved.push_back(*finding);
    }
  }
  return changes;
}

const model::LintFinding& finding_of(const model::LintFinding& finding) { return finding; }
const model::LintFinding& finding_of(const model::LintFinding* finding) { return *finding; }

template <class Findings>
std::pair<std::uint64_t, std::uint64_t> count_severities(const Findings& findings) {
  std::uint64_t errors = 0;
  std::uint64_t warnings = 0;
  for (const auto& finding : findings) {
    (finding_of(finding).severity() == model::Severity::error ? errors : warnings) += 1;
  }
  return {errors, warnings};
}

/// The findings counted_findings() keeps, by address (no copies: a
/// candidate can flood its linter).
FindingRefs counted_finding_refs(const config::Config& config, const std::vector<model::LintFinding>& findings,
                                 std::size_t* excluded);

/// 100 up to `soft`, then 50 points less per 100% excess, floor 0.
double soft_limit_score(std::uint64_t value, std::uint64_t soft) {
  if (value <= soft) return 100.0;
  if (soft == 0) return 0.0;
  const double excess = static_cast<double>(value - soft) / static_cast<double>(soft);
  return std::max(0.0, 100.0 - 50.0 * excess);
}

const char* mode_name(config::Tests::Regression regression) {
  return regression == config::Tests::Regression::identity ? "identity" : "count";
}

const char* mode_name(config::Lint::Match match) {
  return match == config::Lint::Match::fingerprint ? "fingerprint" : "count";
}

/// Matches a finding's file against a pattern. An absolute path (clang-tidy
/// prints them) also matches when any trailing part of it, starting at a
/// folder boundary, matches.
bool finding_file_matches(const std::string& pattern, std::string_view file) {
  if (util::path_matches(pattern, file)) return true;
  if (file.empty() || file.front() != '/') return false;
  for (std::size_t slash = file.find('/'); slash != std::string_view::npos;
       slash = file.find('/', slash + 1)) {
    if (util::path_matches(pattern, file.substr(slash + 1))) return true;
  }
  return false;
}

/// Findings whose paths are still absolute (a log recorded without a source
/// root, e.g. the baseline's, which has no diff to infer one from) made
/// relative to the checkout inferred from the candidate's diff, so the same
/// finding under two checkouts matches (docs/formulas.md, "Lint").
std::vector<model::LintFinding> relative_to_checkout(std::vector<model::LintFinding> findings,
                                                     const std::optional<model::DiffSummary>& diff) {
  if (!diff) return findings;
  std::vector<std::string> files;
  for (const auto& finding : findings)
    if (!finding.file().empty() && finding.file().front() == '/') files.emplace_back(finding.file());
  if (files.empty()) return findings;
  std::vector<std::string> diff_paths;
  for (const auto& file : diff->files) {
    diff_paths.push_back(file.path);
    if (!file.old_path.empty()) diff_paths.push_back(file.old_path);
  }
  const auto root = util::infer_source_root(files, diff_paths);
  if (!root) return findings;
  for (auto& finding : findings) {
    const std::string file = util::strip_source_root(finding.file(), {*root});
    if (file != finding.file()) finding.set_file(file);
  }
  return findings;
}

}  // namespace

std::vector<Gate> Candidate::failed_gates() const {
  std::vector<Gate> failed;
  for (const auto& gate : gates) {
    if (!gate.passed) failed.push_back(gate);
  }
  return failed;
}

Dimension score_build(const config::Config& config, const model::Run& candidate) {
  Dimension dimension;
  dimension.name = "build";
  const auto& build = candidate.build;
  if (!build.known) {
    deactivate(dimension, build.no_step.empty() ? "no build result recorded" : build.no_step);
  } else {
    dimension.active = true;
    dimension.score = build.passed ? 100.0 : 0.0;
    dimension.evidence = {{"passed", build.passed},
                          {"exit_code", build.exit_code},
                          {"seconds", build.seconds},
                          {"timed_out", build.timed_out},
                          {"reason", build.reason}};
  }
  apply_weight(dimension, config.weights.build);
  return dimension;
}

Dimension score_tests(const config::Config& config, const model::Run& baseline,
                      const model::Run& candidate, TestChanges* changes, bool ranking_has_tests) {
  Dimension dimension;
  dimension.name = "tests";
  TestComparison comparison = compare_tests(config, baseline, candidate);
  if (changes) *changes = comparison.changes;

  // The formula applies as written (no tests: pass rate 0) whenever the
  // baseline or any candidate of the ranking has tests.
  if (!comparison.baseline_has_tests && !comparison.candidate_has_tests && !ranking_has_tests) {
    deactivate(dimension, "no tests recorded for the baseline or any candidate");
    apply_weight(dimension, config.weights.tests);
    return dimension;
  }

  const auto& b = comparison.baseline;
  const auto& a = comparison.candidate;
  const double pass_rate =
      a.total == 0 ? 0.0 : static_cast<double>(a.passed) / static_cast<double>(a.total);
  const double reg_penalty =
      b.passed == 0 ? 0.0
                    : static_cast<double>(comparison.regression) / static_cast<double>(b.passed) * 60;
  const std::uint64_t new_tests = a.total > b.total ? a.total - b.total : 0;
  const double new_test_bonus =
      new_tests > 0 ? std::min(10.0, static_cast<double>(new_tests) * 0.5) : 0.0;

  // Anti-gaming: assertion lines removed from test files cost points.
  const double assertion_penalty =
      static_cast<double>(candidate.tampering.assertions_removed) * config.anti_gaming.assertion_penalty;

  dimension.active = true;
  dimension.score =
      round2(clamp_score(pass_rate * 100 - reg_penalty + new_test_bonus - assertion_penalty));
  dimension.evidence = {
      {"mode", mode_name(config.tests.regression)},
      {"B_pass", b.passed},
      {"B_total", b.total},
      {"B_skipped", b.skipped},
      {"A_pass", a.passed},
      {"A_total", a.total},
      {"A_skipped", a.skipped},
      {"pass_rate", pass_rate},
      {"count_regression", comparison.count_regression},
      {"regressed", comparison.changes.regressed.size()},
      {"dropped", comparison.changes.dropped.size()},
      {"dropped_passing", comparison.dropped_passing},
      {"added", comparison.changes.added.size()},
      {"regression", comparison.regression},
      {"gate_regression", comparison.gate_regression},
      {"reg_penalty", reg_penalty},
      {"new_tests", new_tests},
      {"new_test_bonus", new_test_bonus},
      {"candidate_tests_recorded", comparison.candidate_recorded},
      {"tampered_tests", comparison.tampered},
      {"assertions_removed", candidate.tampering.assertions_removed},
      {"assertion_penalty", assertion_penalty},
  };
  apply_weight(dimension, config.weights.tests);
  return dimension;
}

namespace {

FindingRefs counted_finding_refs(const config::Config& config, const std::vector<model::LintFinding>& findings,
                                 std::size_t* excluded) {
  FindingRefs counted;
  counted.reserve(findings.size());
  std::size_t dropped = 0;
  for (const auto& finding : findings) {
    if (finding.tool() == "compiler" && !config.lint.compiler_warnings) continue;
    const bool is_excluded =
        std::any_of(config.lint.exclude.begin(), config.lint.exclude.end(),
                    [&](const std::string& pattern) { return finding_file_matches(pattern, finding.file()); });
    if (is_excluded) {
      ++dropped;
      continue;
    }
    counted.push_back(&finding);
  }
  if (excluded) *excluded = dropped;
  return counted;
}

}  // namespace

std::vector<model::LintFinding> counted_findings(const config::Config& config,
                                                 const std::vector<model::LintFinding>& findings,
                                                 std::size_t* excluded) {
  std::vector<model::LintFinding> counted;
  for (const model::LintFinding* finding : counted_finding_refs(config, findings, excluded)) counted.push_back(*finding);
  return counted;
}

Dimension score_lint(const config::Config& config, const model::Run& baseline,
                     const model::Run& candidate, LintChanges* changes) {
  Dimension dimension;
  dimension.name = "lint";
  if (!candidate.lint) {
    deactivate(dimension, candidate.lint_inactive_reason.empty()
                              ? "lint did not run for the candidate"
                              : candidate.lint_inactive_reason);
    apply_weight(dimension, config.weights.lint);
    return dimension;
  }
  if (!baseline.lint) {
    deactivate(dimension, baseline.lint_inactive_reason.empty()
                              ? "lint did not run for the baseline"
                              : "baseline: " + baseline.lint_inactive_reason);
    apply_weight(dimension, config.weights.lint);
    return dimension;
  }

  std::size_t baseline_excluded = 0;
  std::size_t candidate_excluded = 0;
  // Absolute paths made relative to the checkout the diff names; the
  // findings are copied only when some need it (a flood stays one copy).
  const auto checkout_relative = [&](const std::vector<model::LintFinding>& findings,
                                     std::vector<model::LintFinding>& storage) -> const std::vector<model::LintFinding>& {
    if (!candidate.diff) return findings;
    const bool absolute = std::any_of(findings.begin(), findings.end(), [](const model::LintFinding& finding) {
      return !finding.file().empty() && finding.file().front() == '/';
    });
    if (!absolute) return findings;
    storage = relative_to_checkout(findings, candidate.diff);
    return storage;
  };
  std::vector<model::LintFinding> baseline_storage, candidate_storage;
  const auto& baseline_lint = checkout_relative(*baseline.lint, baseline_storage);
  const auto& candidate_lint = checkout_relative(*candidate.lint, candidate_storage);
  const auto baseline_findings = counted_finding_refs(config, baseline_lint, &baseline_excluded);
  const auto candidate_findings = counted_finding_refs(config, candidate_lint, &candidate_excluded);
  LintChanges lint_changes = diff_findings(baseline_findings, candidate_findings);

  const auto [b_errors, b_warnings] = count_severities(baseline_findings);
  const auto [a_errors, a_warnings] = count_severities(candidate_findings);
  std::uint64_t new_errors = 0;
  std::uint64_t new_warnings = 0;
  std::uint64_t resolved = 0;
  if (config.lint.match == config::Lint::Match::fingerprint) {
    std::tie(new_errors, new_warnings) = count_severities(lint_changes.introduced);
    resolved = lint_changes.resolved.size();
  } else {
    new_errors = a_errors > b_errors ? a_errors - b_errors : 0;
    new_warnings = a_warnings > b_warnings ? a_warnings - b_warnings : 0;
    const std::uint64_t b_all = b_errors + b_warnings;
    const std::uint64_t a_all = a_errors + a_warnings;
    resolved = b_all > a_all ? b_all - a_all : 0;
  }

  // Anti-gaming: each lint suppression the change adds costs like a new
  // warning (anti_gaming.suppression_weight points).
  const double suppression_penalty =
      static_cast<double>(candidate.tampering.suppressions_added) * config.anti_gaming.suppression_weight;
  const double raw = 100.0 - static_cast<double>(new_errors) * 12 -
                     static_cast<double>(new_warnings) * 2 + static_cast<double>(resolved) * 1 -
                     suppression_penalty;
  dimension.active = true;
  dimension.score = round2(clamp_score(raw));
  dimension.evidence = {
      {"mode", mode_name(config.lint.match)},
      {"B_errors", b_errors},
      {"B_warnings", b_warnings},
      {"A_errors", a_errors},
      {"A_warnings", a_warnings},
      {"new_errors", new_errors},
      {"new_warnings", new_warnings},
      {"resolved", resolved},
      {"introduced_findings", lint_changes.introduced.size()},
      {"resolved_findings", lint_changes.resolved.size()},
      {"B_excluded", baseline_excluded},
      {"A_excluded", candidate_excluded},
      {"compiler_warnings", config.lint.compiler_warnings},
      {"suppressions_added", candidate.tampering.suppressions_added},
      {"suppression_penalty", suppression_penalty},
  };
  if (changes) *changes = std::move(lint_changes);
  apply_weight(dimension, config.weights.lint);
  return dimension;
}

Dimension score_diff_scope(const config::Config& config, const model::Run& candidate) {
  Dimension dimension;
  dimension.name = "diff_scope";
  if (!candidate.diff) {
    deactivate(dimension, "no diff recorded");
    apply_weight(dimension, config.weights.diff_scope);
    return dimension;
  }
  const auto& diff = *candidate.diff;
  const auto& limits = config.diff_scope;
  const std::uint64_t churn = diff.churn();
  const std::uint64_t files = diff.files_touched();
  const double churn_score = soft_limit_score(churn, limits.max_churn_soft);
  const double files_score = soft_limit_score(files, limits.max_files_soft);

  json protected_touched = json::array();
  for (const auto& file : diff.files) {
    for (const auto* path : {&file.path, &file.old_path}) {
      if (path->empty() || (path == &file.old_path && file.old_path == file.path)) continue;
      const bool hit = std::any_of(limits.protected_paths.begin(), limits.protected_paths.end(),
                                   [&](const std::string& pattern) {
                                     return util::path_matches(pattern, *path);
                                   });
      if (hit) protected_touched.push_back(*path);
    }
  }
  // Anti-gaming: an edit of the scoring or lint configuration (or of
  // HydraScore itself) is a protected-path change.
  for (const auto& path : candidate.tampering.config_edits)
    if (std::find(protected_touched.begin(), protected_touched.end(), path) == protected_touched.end())
      protected_touched.push_back(path);
  const double uncapped = 0.5 * churn_score + 0.5 * files_score;
  const bool capped = !protected_touched.empty() && uncapped > 30.0;
  const double score = protected_touched.empty() ? uncapped : std::min(uncapped, 30.0);

  dimension.active = true;
  dimension.score = round2(clamp_score(score));
  dimension.evidence = {
      {"lines_added", diff.lines_added()},
      {"lines_removed", diff.lines_removed()},
      {"churn", churn},
      {"whitespace_only_churn", diff.whitespace_only_churn()},
      {"files_touched", files},
      {"files_created", diff.files_created()},
      {"max_churn_soft", limits.max_churn_soft},
      {"max_files_soft", limits.max_files_soft},
      {"churn_score", churn_score},
      {"files_score", files_score},
      {"uncapped_score", uncapped},
      {"protected_paths_touched", protected_touched},
      {"capped_at_30", capped},
  };
  apply_weight(dimension, config.weights.diff_scope);
  return dimension;
}

Dimension score_judge(const config::Config& config, const model::Run& candidate) {
  Dimension dimension;
  dimension.name = "judge";
  if (!candidate.judge_score0to1) {
    // Judging never breaks a run: no grade drops the dimension (renormalized out).
    deactivate(dimension, candidate.judge_detail.empty() ? "no judge result recorded" : candidate.judge_detail);
  } else {
    dimension.active = true;
    dimension.score = round2(clamp_score(*candidate.judge_score0to1 * 100));
    dimension.evidence = {{"score0to1", *candidate.judge_score0to1}, {"rationale", candidate.judge_detail}};
  }
  apply_weight(dimension, config.weights.judge);
  return dimension;
}

Dimension score_speed(const config::Config& config, const model::Run& candidate,
                      std::optional<double> fastest_successful_seconds, bool successful) {
  Dimension dimension;
  dimension.name = "speed";
  const auto& duration = candidate.metrics.duration_seconds;
  if (!duration) {
    deactivate(dimension, "no agent duration known");
  } else if (!fastest_successful_seconds) {
    deactivate(dimension, "no successful candidate has a known agent duration");
  } else if (!successful && !config.speed.include_failed) {
    deactivate(dimension,
               "candidate not successful and scoring.speed.include_failed is false");
  } else {
    const double seconds = std::max(0.0, *duration);
    const double fastest = std::max(0.0, *fastest_successful_seconds);
    const double ratio = seconds <= 0 ? 1.0 : fastest / seconds;
    dimension.active = true;
    dimension.score = round2(clamp_score(ratio * 100));
    dimension.evidence = {
        {"duration_seconds", seconds},
        {"fastest_successful_seconds", fastest},
        {"successful", successful},
        {"include_failed", config.speed.include_failed},
    };
  }
  apply_weight(dimension, config.weights.speed);
  return dimension;
}

double composite(const std::vector<Dimension>& dimensions) {
  double weighted = 0.0;
  double active_weights = 0.0;
  for (const auto& dimension : dimensions) {
    if (!dimension.active || dimension.weight <= 0) continue;
    weighted += dimension.score * dimension.weight;
    active_weights += dimension.weight;
  }
  if (active_weights <= 0) return 0.0;
  return round2(weighted / active_weights);
}

RankingContext ranking_context(const config::Config& config, const model::Run& baseline,
                               const std::vector<model::Run>& candidates) {
  RankingContext context;
  context.build_recorded = baseline.build.known;
  context.tests_recorded = has_tests(baseline);
  if (!baseline.lint) {
    context.lint_inactive_reason = baseline.lint_inactive_reason.empty()
                                       ? "lint did not run for the baseline"
                                       : "baseline: " + baseline.lint_inactive_reason;
  }
  for (const auto& candidate : candidates) {
    context.build_recorded = context.build_recorded || candidate.build.known;
    context.tests_recorded = context.tests_recorded || has_tests(candidate);
    context.diff_recorded = context.diff_recorded || candidate.diff.has_value();
    if (context.lint_inactive_reason.empty() && !candidate.lint && candidate.lint_unavailable_outside_tree)
      context.lint_inactive_reason = candidate.agent + ": " + candidate.lint_inactive_reason;
    if (context.judge_inactive_reason.empty() && config.weights.judge > 0 && !candidate.judge_score0to1)
      context.judge_inactive_reason =
          candidate.agent + ": " +
          (candidate.judge_detail.empty() ? "no judge result recorded" : candidate.judge_detail);
  }
  return context;
}

namespace {

/// An active dimension scored 0: the ranking measures it, this candidate made
/// it unmeasurable.
void score_unmeasured(Dimension& dimension, const std::string& reason) {
  if (dimension.weight <= 0) return;  // disabled stays disabled
  dimension.active = true;
  dimension.score = 0.0;
  dimension.inactive_reason = reason;
  dimension.evidence = {{"unmeasured", reason}};
}

}  // namespace

Candidate score_candidate(const config::Config& config, const model::Run& baseline,
                          const model::Run& candidate, const RankingContext& context,
                          bool successful) {
  Candidate result;
  result.agent = candidate.agent;
  result.run_path = candidate.path;
  result.run_digest = candidate.digest;
  result.sandbox = candidate.sandbox;
  result.caches = candidate.caches;
  result.tools = candidate.tools;
  result.input_notes = candidate.input_notes;
  result.anti_gaming = candidate.tampering.evidence;

  Dimension build = score_build(config, candidate);
  if (!build.active && context.build_recorded) score_unmeasured(build, build.inactive_reason);
  result.dimensions.push_back(std::move(build));

  result.dimensions.push_back(
      score_tests(config, baseline, candidate, &result.test_changes, context.tests_recorded));

  Dimension lint = score_lint(config, baseline, candidate, &result.lint_changes);
  if (!context.lint_inactive_reason.empty()) {
    if (lint.weight > 0) deactivate(lint, context.lint_inactive_reason);
  } else if (!lint.active) {
    score_unmeasured(lint, "lint could not run on the candidate: " + lint.inactive_reason);
  }
  result.dimensions.push_back(std::move(lint));

  Dimension diff_scope = score_diff_scope(config, candidate);
  if (!diff_scope.active && context.diff_recorded) score_unmeasured(diff_scope, diff_scope.inactive_reason);
  result.dimensions.push_back(std::move(diff_scope));

  Dimension speed = score_speed(config, candidate, context.speed_reference_seconds, successful);
  if (!context.speed_inactive_reason.empty()) {
    if (speed.weight > 0) deactivate(speed, context.speed_inactive_reason);
  } else if (!speed.active) {
    score_unmeasured(speed, speed.inactive_reason);
  }
  result.dimensions.push_back(std::move(speed));

  if (config.weights.judge > 0) {
    Dimension judge = score_judge(config, candidate);
    if (!context.judge_inactive_reason.empty()) deactivate(judge, context.judge_inactive_reason);
    result.dimensions.push_back(std::move(judge));
  }
  result.total = composite(result.dimensions);
  result.gates = evaluate_gates(config, baseline, candidate, result.dimensions);
  result.mergeable = result.failed_gates().empty();
  return result;
}

Ranking rank(const config::Config& config, const model::Run& baseline,
             const std::vector<model::Run>& candidates) {
  RankingContext context = ranking_context(config, baseline, candidates);

  // The speed reference is the fastest successful candidate: successful means
  // mergeable; when no candidate is, build passed. Mergeable is decided
  // without the speed dimension (no gate reads it).
  RankingContext without_speed = context;
  without_speed.speed_inactive_reason = "not yet scored";
  std::vector<bool> successful(candidates.size(), false);
  bool any_mergeable = false;
  for (std::size_t index = 0; index < candidates.size(); ++index) {
    successful[index] = score_candidate(config, baseline, candidates[index], without_speed, false).mergeable;
    any_mergeable = any_mergeable || successful[index];
  }
  if (!any_mergeable) {
    for (std::size_t index = 0; index < candidates.size(); ++index)
      successful[index] = (candidates[index].build.known && candidates[index].build.passed) ||
                          !candidates[index].build.no_step.empty();
  }
  bool any_duration = false;
  for (std::size_t index = 0; index < candidates.size(); ++index) {
    const auto& duration = candidates[index].metrics.duration_seconds;
    any_duration = any_duration || duration.has_value();
    if (!duration || !successful[index]) continue;
    context.speed_reference_seconds =
        context.speed_reference_seconds ? std::min(*context.speed_reference_seconds, *duration) : *duration;
  }
  if (!any_duration) {
    context.speed_inactive_reason = "no candidate has a known agent duration";
  } else if (!context.speed_reference_seconds) {
    context.speed_inactive_reason = any_mergeable
                                        ? "no mergeable candidate has a known agent duration"
                                        : "no candidate whose build passed has a known agent duration";
  }

  Ranking ranking;
  for (std::size_t index = 0; index < candidates.size(); ++index) {
    Candidate scored = score_candidate(config, baseline, candidates[index], context, successful[index]);
    scored.input_index = index;
    ranking.candidates.push_back(std::move(scored));
  }
  std::sort(ranking.candidates.begin(), ranking.candidates.end(),
            [](const Candidate& left, const Candidate& right) {
              if (left.total != right.total) return left.total > right.total;
              if (left.mergeable != right.mergeable) return left.mergeable;
              if (left.agent != right.agent) return left.agent < right.agent;
              return left.input_index < right.input_index;
            });
  return ranking;
}

nlohmann::json to_json(const model::LintFinding& finding) {
  return {{"tool", finding.tool()},
          {"file", finding.file()},
          {"line", finding.line()},
          {"column", finding.column()},
          {"severity", model::to_string(finding.severity())},
          {"message", finding.message()},
          {"checks", finding.checks()},
          {"source_line", finding.source_line()},
          {"fingerprint", finding.fingerprint_hex()}};
}

nlohmann::json to_json(const model::TestCase& test) {
  return {{"id", test.id()},
          {"suite", test.suite},
          {"name", test.name},
          {"status", model::to_string(test.status)},
          {"message", test.message},
          {"labels", test.labels},
          {"duration_seconds", test.duration_seconds}};
}

}  // namespace hydra::score
