#include <hydra/score/score.hpp>

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

/// Shortest text of a number for gate details ("20", "33.33", "0.8").
std::string number_text(double value) {
  json number = value;
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    number = static_cast<std::int64_t>(value);
  }
  return number.dump();
}

bool ran(model::TestStatus status) {
  return status == model::TestStatus::passed || status == model::TestStatus::failed ||
         status == model::TestStatus::error;
}

bool skipped(model::TestStatus status) {
  return status == model::TestStatus::skipped || status == model::TestStatus::disabled;
}

bool has_tests(const model::Run& run) { return run.tests && !run.tests->empty(); }

/// Counts of one side's tests.
struct TestCounts {
  std::uint64_t passed = 0;   ///< status passed
  std::uint64_t total = 0;    ///< tests that ran: passed + failed + error
  std::uint64_t skipped = 0;  ///< skipped + disabled
};

TestCounts count_tests(const std::optional<std::vector<model::TestCase>>& tests) {
  TestCounts counts;
  if (!tests) return counts;
  for (const auto& test : *tests) {
    counts.passed += test.status == model::TestStatus::passed ? 1 : 0;
    counts.total += ran(test.status) ? 1 : 0;
    counts.skipped += skipped(test.status) ? 1 : 0;
  }
  return counts;
}

/// Everything the tests dimension and the test gates need, computed once.
struct TestComparison {
  bool baseline_has_tests = false;
  bool candidate_has_tests = false;
  bool candidate_recorded = false;
  TestCounts baseline;
  TestCounts candidate;
  std::uint64_t count_regression = 0;  ///< seed: max(0, B_pass - A_pass)
  std::uint64_t dropped_passing = 0;   ///< dropped tests that passed in the baseline
  std::uint64_t regression = 0;        ///< the regression the tests dimension uses (by mode)
  std::uint64_t gate_regression = 0;   ///< baseline-passing tests that do not pass (the gate's count)
  std::uint64_t tampered = 0;          ///< tests disabled, newly skipped or modified (anti-gaming)
  TestChanges changes;
};

/// Pairs baseline and candidate tests by identity (suite::name); the k-th
/// occurrence of an identity in the baseline pairs with its k-th occurrence
/// in the candidate, so duplicated identities are matched with multiplicity.
TestComparison compare_tests(const config::Config& config, const model::Run& baseline,
                             const model::Run& candidate) {
  TestComparison comparison;
  comparison.baseline_has_tests = has_tests(baseline);
  comparison.candidate_has_tests = has_tests(candidate);
  comparison.candidate_recorded = candidate.tests.has_value();
  comparison.baseline = count_tests(baseline.tests);
  comparison.candidate = count_tests(candidate.tests);

  const std::vector<model::TestCase> none;
  const auto& baseline_tests = baseline.tests ? *baseline.tests : none;
  const auto& candidate_tests = candidate.tests ? *candidate.tests : none;

  std::map<std::string, std::vector<const model::TestCase*>> candidate_by_id;
  for (const auto& test : candidate_tests) candidate_by_id[test.id()].push_back(&test);
  std::map<std::string, std::size_t> used;  // candidate occurrences paired so far, per id

  for (const auto& test : baseline_tests) {
    const std::string id = test.id();
    auto found = candidate_by_id.find(id);
    std::size_t& next = used[id];
    if (found == candidate_by_id.end() || next >= found->second.size()) {
      comparison.changes.dropped.push_back(test);
      continue;
    }
    const model::TestCase& paired = *found->second[next++];
    if (test.status == model::TestStatus::passed && paired.status != model::TestStatus::passed) {
      comparison.changes.regressed.push_back(paired);
    }
  }
  std::map<std::string, std::size_t> seen;
  for (const auto& test : candidate_tests) {
    const std::string id = test.id();
    if (++seen[id] > used[id]) comparison.changes.added.push_back(test);
  }

  const auto& b = comparison.baseline;
  const auto& a = comparison.candidate;
  comparison.count_regression = b.passed > a.passed ? b.passed - a.passed : 0;
  // Only a test that passed in the baseline can regress: a dropped test that
  // failed or was skipped stays listed as dropped but costs nothing.
  for (const auto& test : comparison.changes.dropped)
    comparison.dropped_passing += test.status == model::TestStatus::passed ? 1 : 0;
  // Every baseline-passing test that does not pass in the candidate, by
  // identity; at most B_pass (each is a distinct baseline-passing test).
  const std::uint64_t by_identity = comparison.changes.regressed.size() + comparison.dropped_passing;
  if (config.tests.regression == config::Tests::Regression::identity) {
    comparison.regression = by_identity;
  } else {
    comparison.regression = std::max<std::uint64_t>(comparison.count_regression, comparison.dropped_passing);
  }
  comparison.gate_regression = by_identity;
  // Anti-gaming: tests the change disabled, skipped or modified count like
  // regressions (max, not sum: a newly skipped test may already be counted),
  // never more than the baseline's passing tests.
  if (config.anti_gaming.test_tampering_is_regression) {
    comparison.tampered = candidate.tampering.tampered_tests;
    const std::uint64_t tampered = std::min<std::uint64_t>(b.passed, comparison.dropped_passing + comparison.tampered);
    comparison.regression = std::max(comparison.regression, tampered);
    comparison.gate_regression = std::max(comparison.gate_regression, tampered);
  }
  return comparison;
}

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

/// Gate limits count to 6 decimals: a limit in millionths.
constexpr std::uint64_t kMicro = 1000000;
std::uint64_t micro_units(double limit) {
  return limit <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(limit * static_cast<double>(kMicro)));
}

/// numerator/denominator with `decimals` decimals, as shortest text ("22.22",
/// "7", "0.003"); rounded half up, or up/down when `direction` is +1/-1.
std::string fraction_text(std::uint64_t numerator, std::uint64_t denominator, int decimals, int direction = 0) {
  std::uint64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  const std::uint64_t scaled_numerator = numerator * scale;
  std::uint64_t scaled = scaled_numerator / denominator;
  const std::uint64_t remainder = scaled_numerator % denominator;
  if ((direction == 0 && remainder * 2 >= denominator) || (direction > 0 && remainder > 0)) ++scaled;
  std::string text = std::to_string(scaled / scale);
  std::string fraction = std::to_string(scaled % scale);
  fraction.insert(0, static_cast<std::size_t>(decimals) - fraction.size(), '0');
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  return fraction.empty() ? text : text + "." + fraction;
}

/// The value a gate prints for numerator/denominator next to `limit`, so that
/// the printed comparison `relation` ("<=", ">", ">=", "<") holds for the
/// printed numbers: 2 decimals (half up), more (up to 6) when 2 would show
/// it false, then rounded toward the side that keeps it true.
std::string shown_value(std::uint64_t numerator, std::uint64_t denominator, double limit, const std::string& relation) {
  auto holds = [&](const std::string& text) {
    const double value = std::stod(text);
    if (relation == "<=") return value <= limit;
    if (relation == ">") return value > limit;
    if (relation == ">=") return value >= limit;
    return value < limit;
  };
  for (int decimals = 2; decimals <= 6; ++decimals) {
    const std::string text = fraction_text(numerator, denominator, decimals);
    if (holds(text)) return text;
  }
  const int direction = relation == ">" || relation == ">=" ? +1 : -1;
  return fraction_text(numerator, denominator, 6, direction);
}

Gate make_gate(std::string name, bool passed, std::string detail) {
  return Gate{std::move(name), passed, std::move(detail)};
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
    deactivate(dimension, "no build result recorded");
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

std::vector<Gate> evaluate_gates(const config::Config& config, const model::Run& baseline,
                                 const model::Run& candidate,
                                 const std::vector<Dimension>& dimensions) {
  std::vector<Gate> gates;

  // integrity: a score built from corrupt data (candidate or baseline) is never mergeable.
  std::string problems;
  for (const auto& problem : baseline.integrity_problems) {
    problems += (problems.empty() ? "baseline: " : "; baseline: ") + problem;
  }
  for (const auto& problem : candidate.integrity_problems) {
    problems += (problems.empty() ? "" : "; ") + problem;
  }
  gates.push_back(make_gate("integrity", problems.empty(),
                            problems.empty() ? "no integrity problems" : problems));

  // active_dimensions
  std::size_t active = 0;
  for (const auto& dimension : dimensions) active += dimension.active ? 1 : 0;
  gates.push_back(make_gate("active_dimensions", active > 0,
                            std::to_string(active) + " of " + std::to_string(dimensions.size()) +
                                " dimensions active"));

  // require_build_pass: an unknown build fails it (closed).
  const auto& build = candidate.build;
  if (!config.gates.require_build_pass) {
    gates.push_back(make_gate("require_build_pass", true,
                              "not required (scoring.gates.require_build_pass = false)"));
  } else if (!build.known) {
    gates.push_back(make_gate("require_build_pass", false, "no build result recorded"));
  } else if (build.passed) {
    gates.push_back(make_gate("require_build_pass", true,
                              "build exit code " + std::to_string(build.exit_code)));
  } else {
    gates.push_back(make_gate("require_build_pass", false,
                              "build failed: " + (build.reason.empty()
                                                      ? "exit code " + std::to_string(build.exit_code)
                                                      : build.reason)));
  }

  // max_test_regression_percent: counts tests by identity in every mode
  // (baseline-passing tests that do not pass in the candidate), so breaking a
  // test is never bought back with new ones. Compared exactly (integers).
  const TestComparison tests = compare_tests(config, baseline, candidate);
  const double limit = config.gates.max_test_regression_percent;
  if (!tests.baseline_has_tests && !tests.candidate_has_tests) {
    gates.push_back(make_gate("max_test_regression_percent", true,
                              "no tests recorded for the baseline or the candidate"));
  } else {
    const std::uint64_t b_pass = tests.baseline.passed;
    // percent = R*100/B <= limit  <=>  R*100*10^6 <= limit_micro*B (0% when B_pass = 0)
    const std::uint64_t numerator = b_pass == 0 ? 0 : tests.gate_regression * 100;
    const std::uint64_t denominator = b_pass == 0 ? 1 : b_pass;
    const bool passed = numerator * kMicro <= micro_units(limit) * denominator;
    gates.push_back(make_gate(
        "max_test_regression_percent", passed,
        std::to_string(tests.gate_regression) +
            (tests.gate_regression == 1 ? " regression" : " regressions") +
            " (regressed or dropped tests) against " + std::to_string(b_pass) +
            " baseline-passing tests (" + shown_value(numerator, denominator, limit, passed ? "<=" : ">") + "% " +
            (passed ? "<= " : "> ") + number_text(limit) + "%)"));
  }

  // min_test_count_ratio: only when the baseline has tests. Compared exactly:
  // A/B >= ratio  <=>  A*10^6 >= ratio_micro*B.
  const double ratio = config.gates.min_test_count_ratio;
  if (tests.baseline.total == 0) {
    gates.push_back(make_gate("min_test_count_ratio", true, "the baseline ran no tests"));
  } else {
    const bool passed = tests.candidate.total * kMicro >= micro_units(ratio) * tests.baseline.total;
    gates.push_back(make_gate(
        "min_test_count_ratio", passed,
        "candidate ran " + std::to_string(tests.candidate.total) + " tests, baseline " +
            std::to_string(tests.baseline.total) + " (ratio " +
            shown_value(tests.candidate.total, tests.baseline.total, ratio, passed ? ">=" : "<") +
            (passed ? " >= " : " < ") + number_text(ratio) + ")"));
  }

  // security: configured but not run fails closed.
  const auto& security = candidate.security;
  if (security.ran) {
    const std::string detail = security.detail.empty() ? "security check" : security.detail;
    gates.push_back(make_gate("security", security.passed,
                              (security.passed ? "passed: " : "failed: ") + detail));
  } else if (config.gates.security_command.empty()) {
    gates.push_back(make_gate("security", true, "not configured"));
  } else {
    gates.push_back(make_gate(
        "security", false,
        "scoring.gates.security_command is set but the check did not run" +
            (security.detail.empty() ? std::string() : ": " + security.detail)));
  }

  // anti_gaming: edits of the scoring/lint configuration, tests switched off
  // or modified, tests no longer built (docs/threat-model.md).
  const auto& tampering = candidate.tampering;
  if (!tampering.analyzed) {
    gates.push_back(make_gate("anti_gaming", true, "no diff recorded to analyze"));
  } else if (tampering.gate_reasons.empty()) {
    gates.push_back(make_gate("anti_gaming", true, "no tampering found"));
  } else {
    std::string detail = tampering.gate_reasons.front();
    if (tampering.gate_reasons.size() > 1)
      detail += " (and " + std::to_string(tampering.gate_reasons.size() - 1) + " more)";
    gates.push_back(make_gate("anti_gaming", false, detail));
  }
  return gates;
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
      successful[index] = candidates[index].build.known && candidates[index].build.passed;
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
