// A tolerant reading of the score output contract (docs/output-contract.md)
// shared by the renderers: absent or null optional parts become empty values
// or nullopt, so a renderer never has to check JSON types itself.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::report {

/// One scored dimension of one candidate.
struct DimensionView {
  std::string name;                       ///< "build", "tests", ...
  bool active = false;                    ///< false: renormalized out
  std::optional<double> score;            ///< 0..100; nullopt when inactive
  std::optional<double> weight;           ///< configured weight
  std::optional<double> effective_weight; ///< share of the total (0..1), active only
  std::string reason;                     ///< why the dimension is inactive
  nlohmann::json evidence = nlohmann::json::object();  ///< the formula's inputs
};

/// One evaluated merge gate.
struct GateView {
  std::string gate;
  bool passed = true;
  std::string detail;
};

/// One test that regressed, was dropped or was added.
struct TestView {
  std::string id;  ///< suite + "::" + name
  std::string suite;
  std::string name;
  std::string status;
  std::string message;
};

/// One lint finding.
struct FindingView {
  std::string tool;
  std::string file;  ///< empty when location-less
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  std::string severity;  ///< "warning" or "error"
  std::string message;
  std::vector<std::string> checks;
  std::string fingerprint;
};

/// One ranked candidate.
struct CandidateView {
  std::uint64_t rank = 0;
  std::string agent;
  std::string run_path;
  bool mergeable = false;
  std::optional<double> total;
  std::vector<DimensionView> dimensions;  ///< in ContractView::dimension_names order
  std::vector<GateView> gates;            ///< every evaluated gate
  std::vector<GateView> gate_failures;    ///< the failed subset
  std::vector<TestView> regressed_tests;
  std::vector<TestView> dropped_tests;
  std::vector<TestView> added_tests;
  std::vector<FindingView> introduced_findings;
  std::vector<FindingView> resolved_findings;
  /// How many entries of each list the contract left out (`<list>_omitted`:
  /// it lists at most 25,000 per list); 0 when it lists them all.
  std::uint64_t regressed_tests_omitted = 0;
  std::uint64_t dropped_tests_omitted = 0;
  std::uint64_t added_tests_omitted = 0;
  std::uint64_t introduced_findings_omitted = 0;
  std::uint64_t resolved_findings_omitted = 0;
  /// Which protection was in force while the candidate's code ran (empty:
  /// not recorded, e.g. a `record`ed run that ran nothing).
  std::string sandbox;
  /// What the capture's caches did (empty: not recorded).
  std::string caches;
  /// Why the candidate's run was captured again alone (a step ran out of
  /// time beside other captures); empty: it was not.
  std::string retried_alone;
  /// Versions of the tools that made the candidate's run (run.tools).
  std::map<std::string, std::string> tools;
  /// The anti-gaming findings, one readable line each ("lint suppression
  /// added: src/a.cpp:12 NOLINT").
  std::vector<std::string> anti_gaming;
  /// Whether it passes the task's acceptance tests (the contract's
  /// `resolution`); nullopt when the baseline has none.
  std::optional<bool> resolved;
  std::vector<std::string> acceptance_tests;
  std::vector<std::string> still_failing;  ///< acceptance tests it leaves failing
  /// A private test patch was configured but gives no verdict: why (the
  /// contract's `resolution.note`); empty otherwise.
  std::string resolution_note;
};

/// "resolved", or "UNRESOLVED: <tests still failing>"; empty when the
/// candidate has no acceptance tests to pass.
std::string resolution_text(const CandidateView& candidate);

/// What the baseline's run looked like.
struct BaselineView {
  std::string agent;
  std::string path;
  std::map<std::string, std::string> tools;  ///< versions of the tools that made the baseline's run
  std::string recaptured;  ///< why the baseline was captured again at scoring time; empty: it was not
  std::string retried_alone;  ///< why the baseline's run was captured again alone; empty: it was not
  std::optional<bool> build_passed;       ///< nullopt when unknown
  std::optional<std::int64_t> build_exit_code;
  std::optional<double> build_seconds;
  std::string build_no_step;  ///< why the baseline has no build step (a profile without one); empty otherwise
  bool has_tests = false;                 ///< false when no tests were recorded
  std::uint64_t tests_total = 0;
  std::uint64_t tests_passed = 0;
  std::uint64_t tests_failed = 0;
  std::uint64_t tests_skipped = 0;
  std::uint64_t tests_flaky = 0;          ///< failed and passed on the baseline's code
  /// When the tests are cases of framework programs: the CTest tests they
  /// come from, how many passed, and how many gave cases.
  std::optional<std::uint64_t> programs_total;
  std::uint64_t programs_passed = 0;
  std::uint64_t programs_with_cases = 0;
  bool has_lint = false;                  ///< false when lint did not run
  std::uint64_t lint_errors = 0;
  std::uint64_t lint_warnings = 0;
  std::optional<std::uint64_t> lint_units;  ///< translation units the lint step linted, when recorded
};

/// The whole contract as the renderers need it.
struct ContractView {
  std::string schema;
  std::string engine_version;
  std::string run_id;
  std::optional<BaselineView> baseline;
  /// Dimensions worth a column: every dimension active for some candidate or
  /// with a configured weight above 0; known ones first (build, tests, lint,
  /// diff_scope, speed, judge), others after them by name.
  std::vector<std::string> dimension_names;
  std::vector<CandidateView> candidates;  ///< in ranking order
  /// What measured nothing, one line each (the contract's `nothing_measured`).
  std::vector<std::string> nothing_measured;
  /// Some candidate has acceptance tests (a private test patch): the
  /// renderers show a Resolved column.
  bool has_resolution = false;
  /// Runs whose code ran unconfined or with network (the contract's `alerts`).
  std::vector<std::string> alerts;
};

/// Reads `contract`. Throws hydra::Error when it is not a JSON object; any
/// other part may be absent, null or of an unexpected type.
ContractView read_contract(const nlohmann::json& contract);

/// Human label of dimension `name`: "Build", "Diff scope", ...
std::string dimension_label(const std::string& name);

/// The dimension called `name` of `candidate`, or nullptr.
const DimensionView* find_dimension(const CandidateView& candidate, const std::string& name);

/// Text of `object[key]`: strings as they are, numbers and booleans as JSON,
/// `fallback` when `object` is not an object or the key is absent or null.
std::string text_at(const nlohmann::json& object, const char* key, const std::string& fallback = "");

/// Number at `object[key]`, nullopt unless it is a finite number.
std::optional<double> number_at(const nlohmann::json& object, const char* key);

/// Array at `object[key]`, an empty array when absent or not an array.
const nlohmann::json& array_at(const nlohmann::json& object, const char* key);

/// Object at `object[key]`, an empty object when absent or not an object.
const nlohmann::json& object_at(const nlohmann::json& object, const char* key);

/// The baseline's test counts: "9/10 passed", "(2 flaky)", and for cases of
/// framework programs "(cases of 3 framework programs; programs 4/4 passed)".
std::string baseline_test_counts(const BaselineView& baseline);

/// One sentence about the baseline for people ("Baseline: build passed in
/// 2.2 s, tests 9/10 passed, lint 0 errors and 2 warnings."), unescaped.
std::string baseline_sentence(const BaselineView& baseline);

}  // namespace hydra::report
