// The dimensions (build, tests, lint, diff scope, speed, judge), the
// composite and the ranking of candidates against one baseline: pure
// functions of model::Run and config::Config (docs/formulas.md). The gates
// are in gates.cpp, the pairing of tests in test_comparison.cpp, the tests
// dimension in tests_dimension.cpp, the lint dimension in lint_dimension.cpp.
#include <hydra/score/score.hpp>
#include <hydra/score/dimension_support.hpp>
#include <hydra/score/measured.hpp>
#include <hydra/score/flaky.hpp>
#include <hydra/score/test_cases.hpp>
#include <hydra/score/test_comparison.hpp>
#include <hydra/score/tests_dimension.hpp>

#include <hydra/util/path_pattern.hpp>

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

/// 100 up to `soft`, then 50 points less per 100% excess, floor 0 (exact).
util::Exact soft_limit_score(std::uint64_t value, std::uint64_t soft) {
  if (value <= soft) return 100;
  if (soft == 0) return 0;
  const util::Exact excess = util::Exact::ratio(value - soft, soft);
  return std::max(util::Exact(0), 100 - 50 * excess);
}

}  // namespace

std::vector<Gate> Candidate::failed_gates() const {
  std::vector<Gate> failed;
  for (const auto& gate : gates) {
    if (!gate.passed) failed.push_back(gate);
  }
  return failed;
}

std::string baseline_incomplete(const model::Run& baseline, std::initializer_list<const char*> steps) {
  for (const auto& [step, reason] : baseline.incomplete_steps)
    for (const char* wanted : steps)
      if (step == wanted) return "baseline: " + reason + " (unmeasurable for every candidate)";
  return {};
}

Dimension score_build(const config::Config& config, const model::Run& candidate) {
  static const model::Run no_baseline;
  return score_build(config, no_baseline, candidate);
}

Dimension score_build(const config::Config& config, const model::Run& baseline, const model::Run& candidate) {
  Dimension dimension;
  dimension.name = "build";
  const auto& build = candidate.build;
  if (const std::string why = baseline_incomplete(baseline, {"build"}); !why.empty()) {
    deactivate(dimension, why);
  } else if (!build.known) {
    deactivate(dimension, build.no_step.empty() ? "no build result recorded" : build.no_step);
  } else {
    dimension.active = true;
    dimension.score = build.passed ? 100 : 0;
    dimension.evidence = {{"passed", build.passed},
                          {"exit_code", build.exit_code},
                          {"seconds", build.seconds},
                          {"timed_out", build.timed_out},
                          {"reason", build.reason}};
  }
  apply_weight(dimension, config.weights.build);
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
  const util::Exact churn_score = soft_limit_score(churn, limits.max_churn_soft);
  const util::Exact files_score = soft_limit_score(files, limits.max_files_soft);

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
  const util::Exact uncapped = util::Exact(0.5) * churn_score + util::Exact(0.5) * files_score;
  const bool capped = !protected_touched.empty() && uncapped > 30;
  const util::Exact score = protected_touched.empty() ? uncapped : std::min(uncapped, util::Exact(30));

  dimension.active = true;
  dimension.score = clamp_score(score);
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
    dimension.score = clamp_score(util::Exact(*candidate.judge_score0to1) * 100);
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
    // The durations as the decimals they were recorded as, divided exactly.
    const util::Exact ratio = seconds <= 0 ? util::Exact(1) : util::Exact(fastest) / util::Exact(seconds);
    dimension.active = true;
    dimension.score = clamp_score(ratio * 100);
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

util::Exact composite(const std::vector<Dimension>& dimensions) {
  util::Exact weighted;
  util::Exact active_weights;
  for (const auto& dimension : dimensions) {
    if (!dimension.active || dimension.weight <= 0) continue;
    const util::Exact weight = dimension.weight;
    weighted += dimension.score * weight;
    active_weights += weight;
  }
  if (active_weights.sign() <= 0) return 0;
  return weighted / active_weights;
}

double shown(const util::Exact& score) { return score.rounded(2).to_double(); }

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
  context.tests_measured_nothing = tests_measured_nothing(baseline, candidates);
  if (const std::string why = lint_measured_nothing(baseline); context.lint_inactive_reason.empty() && !why.empty())
    context.lint_measured_nothing = "baseline: " + why;
  return context;
}

namespace {

/// An active dimension scored 0: the ranking measures it, this candidate made
/// it unmeasurable.
void score_unmeasured(Dimension& dimension, const std::string& reason) {
  if (dimension.weight <= 0) return;  // disabled stays disabled
  dimension.active = true;
  dimension.score = 0;
  dimension.inactive_reason = reason;
  dimension.evidence = {{"unmeasured", reason}};
}

}  // namespace

Candidate score_candidate(const config::Config& config, const model::Run& baseline,
                          const model::Run& candidate, const RankingContext& context,
                          bool successful) {
  return score_candidate(config, baseline, candidate, context, successful, compare_tests(config, baseline, candidate));
}

Candidate score_candidate(const config::Config& config, const model::Run& baseline,
                          const model::Run& candidate, const RankingContext& context,
                          bool successful, const TestComparison& tests_paired) {
  Candidate result;
  result.agent = candidate.agent;
  result.run_path = candidate.path;
  result.run_digest = candidate.digest;
  result.sandbox = candidate.sandbox;
  result.sandboxed = candidate.sandboxed;
  result.network = candidate.network;
  result.caches = candidate.caches;
  result.retried_alone = candidate.retried_alone;
  result.tools = candidate.tools;
  result.input_notes = candidate.input_notes;
  result.task = candidate.task;
  result.metrics = candidate.metrics;
  result.anti_gaming = candidate.tampering.evidence;

  Dimension build = score_build(config, baseline, candidate);
  // Unmeasurable for every candidate when the baseline's build could not finish.
  if (!build.active && context.build_recorded && baseline_incomplete(baseline, {"build"}).empty())
    score_unmeasured(build, build.inactive_reason);
  result.dimensions.push_back(std::move(build));

  result.test_changes = tests_paired.changes;
  Dimension tests = score_tests(config, baseline, candidate, tests_paired, context.tests_recorded);
  settle_measured_nothing(tests, context.tests_measured_nothing, candidate_tests_measured_nothing(candidate));
  result.dimensions.push_back(std::move(tests));

  Dimension lint = score_lint(config, baseline, candidate, &result.lint_changes);
  if (!context.lint_inactive_reason.empty()) {
    if (lint.weight > 0) deactivate(lint, context.lint_inactive_reason);
  } else if (!lint.active) {
    score_unmeasured(lint, "lint could not run on the candidate: " + lint.inactive_reason);
  }
  settle_measured_nothing(lint, context.lint_measured_nothing, lint_measured_nothing(candidate));
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
  result.resolution = resolve(baseline, candidate);
  result.gates = evaluate_gates(config, baseline, candidate, result.dimensions, tests_paired);
  result.mergeable = result.failed_gates().empty();
  return result;
}

Ranking rank(const config::Config& config, const model::Run& baseline,
             const std::vector<model::Run>& candidates) {
  // A test seen flaky in any run of the ranking is flaky for every candidate.
  if (auto flaky = with_ranking_flaky_tests(baseline, candidates)) return rank(config, flaky->baseline, flaky->candidates);
  RankingContext context = ranking_context(config, baseline, candidates);
  // Each candidate's tests paired with the baseline's once, for both passes
  // below and, in each, for the tests dimension and the test gates.
  std::vector<TestComparison> paired;
  paired.reserve(candidates.size());
  for (const auto& candidate : candidates) paired.push_back(compare_tests(config, baseline, candidate));

  // The speed reference is the fastest successful candidate: successful means
  // mergeable; when no candidate is, build passed. Mergeable is decided
  // without the speed dimension (no gate reads it).
  RankingContext without_speed = context;
  without_speed.speed_inactive_reason = "not yet scored";
  std::vector<bool> successful(candidates.size(), false);
  bool any_mergeable = false;
  for (std::size_t index = 0; index < candidates.size(); ++index) {
    successful[index] =
        score_candidate(config, baseline, candidates[index], without_speed, false, paired[index]).mergeable;
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
    Candidate scored =
        score_candidate(config, baseline, candidates[index], context, successful[index], paired[index]);
    scored.input_index = index;
    ranking.candidates.push_back(std::move(scored));
  }
  std::sort(ranking.candidates.begin(), ranking.candidates.end(),
            [](const Candidate& left, const Candidate& right) {
              // A candidate that resolves the task ranks above one that does not.
              if (left.resolution.applies && left.resolution.resolved() != right.resolution.resolved())
                return left.resolution.resolved();
              // Exact totals: a tie is a tie, whatever their rounding.
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
  nlohmann::json out = {{"id", test.id()},
                        {"suite", test.suite},
                        {"name", test.name},
                        {"status", model::to_string(test.status)},
                        {"message", test.message},
                        {"labels", test.labels},
                        {"duration_seconds", test.duration_seconds}};
  if (!test.program.empty()) out["program"] = test.program;  // a framework program's case
  return out;
}

nlohmann::json to_json(const DuplicateIdentity& duplicate) {
  return {{"id", duplicate.id},
          {"baseline", duplicate.baseline},
          {"candidate", duplicate.candidate},
          {"introduced_by_candidate", duplicate.introduced_by_candidate}};
}

}  // namespace hydra::score
