// The lint dimension: candidate and baseline findings matched by
// fingerprint (or counted), the suppression penalty, and the findings a
// configuration counts (docs/formulas.md, "Lint"). Pure.
#include <hydra/score/score.hpp>
#include <hydra/score/dimension_support.hpp>

#include <hydra/util/path_pattern.hpp>
#include <hydra/util/source_root.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace hydra::score {

namespace {

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

  // An incomplete log (the linter stopped early: a clippy build stopped by an
  // error, a clang-tidy crash): the baseline findings it lacks may never have
  // been looked for, so none counts as resolved, and the candidate never
  // scores above a no-op (which resolves nothing).
  // Counts of a partial log say nothing, so in either mode its new findings
  // are the ones it introduced (by fingerprint).
  std::uint64_t not_reached = 0;
  if (!candidate.lint_incomplete.empty()) {
    std::tie(new_errors, new_warnings) = count_severities(lint_changes.introduced);
    not_reached = lint_changes.resolved.size();
    resolved = 0;
    lint_changes.resolved.clear();
  }

  // Anti-gaming: each lint suppression the change adds costs like a new
  // warning (anti_gaming.suppression_weight points).
  // Exact arithmetic (docs/formulas.md, "Exact values").
  const util::Exact suppression_penalty =
      util::Exact(candidate.tampering.suppressions_added) * config.anti_gaming.suppression_weight;
  const util::Exact raw = 100 - util::Exact(new_errors) * 12 - util::Exact(new_warnings) * 2 +
                          util::Exact(resolved) * 1 - suppression_penalty;
  dimension.active = true;
  dimension.score = clamp_score(raw);
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
  if (!candidate.lint_incomplete.empty()) {
    dimension.evidence["incomplete"] = candidate.lint_incomplete;
    dimension.evidence["baseline_findings_not_reached"] = not_reached;
  }
  if (!baseline.lint_incomplete.empty()) dimension.evidence["baseline_incomplete"] = baseline.lint_incomplete;
  if (changes) *changes = std::move(lint_changes);
  apply_weight(dimension, config.weights.lint);
  return dimension;
}

}  // namespace hydra::score
