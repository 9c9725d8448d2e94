// Scoring: pure functions from parsed runs to dimension scores, composite,
// gates and ranking. No I/O. Every formula is stated in docs/formulas.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/config/config.hpp>
#include <hydra/model/lint.hpp>
#include <hydra/model/run.hpp>
#include <hydra/model/test.hpp>
#include <hydra/util/exact.hpp>
#include <hydra/score/flaky.hpp>
#include <hydra/score/resolution.hpp>

namespace hydra::score {

struct TestComparison;  // test_comparison.hpp

/// One dimension's result. `evidence` holds the formula's inputs and
/// intermediate values (keys documented in docs/formulas.md).
struct Dimension {
  std::string name;  ///< "build", "tests", "lint", "diff_scope", "speed" (and "judge")
  bool active = false;
  /// In [0, 100], exact (docs/formulas.md, "Exact values"); 0 when
  /// inactive. Reports show it rounded to 2 decimals (shown()).
  util::Exact score;
  double weight = 0.0; ///< configured weight (taken as the decimal it was written as)
  /// Why the dimension is inactive; or, for an active dimension scored 0
  /// because this candidate made it unmeasurable, why it is unmeasured.
  std::string inactive_reason;
  nlohmann::json evidence = nlohmann::json::object();
  /// The dimension measured nothing (no test ran, no translation unit was
  /// linted; docs/formulas.md, "Nothing measured"): inactive for the whole
  /// ranking, or scored 0 for this candidate; `inactive_reason` says which.
  bool nothing_measured = false;
};

/// One gate's evaluation.
struct Gate {
  std::string name;  ///< "require_build_pass", "max_test_regression_percent", "min_test_count_ratio", "security", "integrity", "active_dimensions"
  bool passed = true;
  std::string detail;
};

/// An identity two or more tests share in one run (docs/formulas.md, "Tests":
/// "One identity, several tests"). Such tests cannot be told apart, so they
/// are paired as a group, never by position.
struct DuplicateIdentity {
  std::string id;                 ///< TestCase::id()
  std::uint64_t baseline = 0;     ///< tests of the baseline with it
  std::uint64_t candidate = 0;    ///< tests of the candidate with it
  /// The candidate has more of them than the baseline (and at least two):
  /// the ambiguity is the candidate's, and its group is paired against it
  /// (every non-passing candidate test pairs first). Otherwise the ambiguity
  /// is the baseline's own and the group is paired in the candidate's favour
  /// (passing with passing), so it never costs a candidate anything.
  bool introduced_by_candidate = false;
};

/// Test-level differences against the baseline (by identity suite::name).
struct TestChanges {
  std::vector<model::TestCase> regressed;  ///< passed in baseline, not passed in candidate
  std::vector<model::TestCase> dropped;    ///< in baseline, absent from candidate (baseline's record)
  std::vector<model::TestCase> added;      ///< absent from baseline
  std::vector<FlakyTest> flaky;            ///< flaky in the ranking: counted as passed on both sides (flaky.hpp)
  /// Tests that failed and passed on the candidate's code alone: failed (flaky.hpp).
  std::vector<std::string> flipped_on_candidate;
  std::vector<DuplicateIdentity> duplicates;  ///< identities shared by several tests of a side, by identity
};

/// Lint-level differences against the baseline (by fingerprint with multiplicity).
struct LintChanges {
  std::vector<model::LintFinding> introduced;  ///< in candidate, not in baseline
  std::vector<model::LintFinding> resolved;    ///< in baseline, not in candidate
};

struct Candidate {
  std::size_t input_index = 0;  ///< position among the candidates given to rank() (feeds run_id)
  std::string agent;
  std::string run_path;
  std::string run_digest;
  std::string sandbox;  ///< protection in force while the candidate's code ran (model::Run::sandbox)
  std::optional<bool> sandboxed;  ///< model::Run::sandboxed
  bool network = false;           ///< model::Run::network
  std::string caches;   ///< what the capture's caches did (model::Run::caches)
  std::string retried_alone;  ///< why the run was captured again alone (model::Run::retried_alone); empty: it was not
  std::map<std::string, std::string> tools;  ///< versions of the tools that made the run (model::Run::tools)
  std::vector<std::string> input_notes;      ///< repairs made to the run's inputs (model::Run::input_notes)
  std::string task;              ///< the task the run names (model::Run::task); empty when not named
  model::AgentMetrics metrics;   ///< what the agent reported about its run (model::Run::metrics)
  nlohmann::json anti_gaming = nlohmann::json::object();  ///< the anti-gaming detectors' report (model::Tampering::evidence)
  bool mergeable = false;
  util::Exact total;  ///< the composite, exact; reports show it rounded to 2 decimals (shown())
  std::vector<Dimension> dimensions;  ///< always in order build, tests, lint, diff_scope, speed[, judge]
  std::vector<Gate> gates;            ///< every gate evaluated, in a fixed order
  TestChanges test_changes;
  LintChanges lint_changes;
  Resolution resolution;  ///< whether it passes the task's acceptance tests (resolution.hpp)

  std::vector<Gate> failed_gates() const;
};

/// Candidates ranked: resolved first (when the baseline has acceptance
/// tests), then exact total desc, mergeable first on ties, then agent name.
struct Ranking {
  std::vector<Candidate> candidates;
};

/// What every candidate of one ranking shares, so that all of them are scored
/// over the same active dimensions (docs/formulas.md, "One ranking, one set
/// of dimensions"). A dimension active for the ranking scores 0 for a
/// candidate that made it unmeasurable; one made unmeasurable by something
/// outside the candidates is inactive for all of them.
struct RankingContext {
  bool build_recorded = false;  ///< the baseline or some candidate has a build result
  bool tests_recorded = false;  ///< the baseline or some candidate recorded a test
  bool diff_recorded = false;   ///< some candidate recorded a diff
  std::string lint_inactive_reason;   ///< non-empty: lint is inactive for every candidate
  /// Non-empty: the tests / lint dimension measured nothing in the whole
  /// ranking (no test ran anywhere; the baseline linted no translation
  /// unit), so it is inactive for every candidate (score/measured.hpp).
  std::string tests_measured_nothing;
  std::string lint_measured_nothing;
  std::string judge_inactive_reason;  ///< non-empty: the judge is inactive for every candidate
  /// The speed reference: the agent duration of the fastest successful
  /// candidate (mergeable; when none is, build passed).
  std::optional<double> speed_reference_seconds;
  std::string speed_inactive_reason;  ///< non-empty: speed is inactive for every candidate
};

/// The ranking-wide facts of `candidates` except the speed reference (which
/// needs the gates; rank() fills it in).
RankingContext ranking_context(const config::Config& config, const model::Run& baseline,
                               const std::vector<model::Run>& candidates);

// --- individual formulas (exposed for tests; all pure) ---------------------

Dimension score_build(const config::Config& config, const model::Run& candidate);
/// The same, inactive for every candidate when the baseline's build could
/// not finish in its budget (model::Run::incomplete_steps).
Dimension score_build(const config::Config& config, const model::Run& baseline, const model::Run& candidate);
/// `ranking_has_tests`: some other run of the ranking has tests, so the
/// dimension is active even when neither this baseline nor this candidate has.
Dimension score_tests(const config::Config& config, const model::Run& baseline,
                      const model::Run& candidate, TestChanges* changes = nullptr,
                      bool ranking_has_tests = false);
Dimension score_lint(const config::Config& config, const model::Run& baseline,
                     const model::Run& candidate, LintChanges* changes = nullptr);
Dimension score_diff_scope(const config::Config& config, const model::Run& candidate);
/// `fastest_successful_seconds`: the speed reference (RankingContext);
/// nullopt when unknown. `successful`: whether this candidate is successful
/// (mergeable; when no candidate is, build passed).
Dimension score_speed(const config::Config& config, const model::Run& candidate,
                      std::optional<double> fastest_successful_seconds, bool successful);
/// The optional judge dimension: score0to1 * 100 from the run's judge.json;
/// inactive (renormalized out) when the judge gave no grade.
Dimension score_judge(const config::Config& config, const model::Run& candidate);
/// sum(score*weight)/sum(active weights), exactly; 0 when no dimension is active.
util::Exact composite(const std::vector<Dimension>& dimensions);

/// A score or total as reports show it: rounded to 2 decimals (half up).
double shown(const util::Exact& score);

/// The findings of `findings` that lint scoring counts: "compiler" findings
/// only when `config.lint.compiler_warnings`, and none whose file matches
/// `config.lint.exclude`. `excluded` (optional) receives how many were dropped.
std::vector<model::LintFinding> counted_findings(const config::Config& config,
                                                 const std::vector<model::LintFinding>& findings,
                                                 std::size_t* excluded = nullptr);

/// Evaluates every gate for one scored candidate, in the contract's order:
/// integrity, active_dimensions, require_build_pass,
/// max_test_regression_percent, min_test_count_ratio, security, anti_gaming,
/// and resolved when the baseline has acceptance tests (resolution.hpp).
/// `dimensions` are the candidate's scored dimensions (their evidence feeds
/// the test gates).
/// `tests` is the pairing of their tests (test_comparison.hpp, compare_tests),
/// the one the tests dimension was scored from.
std::vector<Gate> evaluate_gates(const config::Config& config, const model::Run& baseline,
                                 const model::Run& candidate,
                                 const std::vector<Dimension>& dimensions, const TestComparison& tests);

/// Scores one candidate (dimensions, composite, gates, changes) without
/// ranking, over the ranking's dimensions (`context`). `successful`: whether
/// the candidate counts as successful for the speed dimension.
Candidate score_candidate(const config::Config& config, const model::Run& baseline,
                          const model::Run& candidate, const RankingContext& context,
                          bool successful);
/// The same with the candidate's tests already paired with the baseline's
/// (`tests`: compare_tests), for the tests dimension and the test gates.
Candidate score_candidate(const config::Config& config, const model::Run& baseline,
                          const model::Run& candidate, const RankingContext& context,
                          bool successful, const TestComparison& tests);

/// Scores and ranks every candidate against the baseline.
Ranking rank(const config::Config& config, const model::Run& baseline,
             const std::vector<model::Run>& candidates);

/// The JSON of one finding / test, as used in the output contract.
nlohmann::json to_json(const model::LintFinding& finding);
nlohmann::json to_json(const model::TestCase& test);
/// {id, baseline, candidate, introduced_by_candidate}: the contract's
/// `rankings[].tests.duplicates[]`.
nlohmann::json to_json(const DuplicateIdentity& duplicate);

}  // namespace hydra::score
