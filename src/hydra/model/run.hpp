// Plain data: one capture of one tree, as scoring sees it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include <hydra/model/build_targets.hpp>
#include <hydra/model/diff.hpp>
#include <hydra/model/held_out.hpp>
#include <hydra/model/lint.hpp>
#include <hydra/model/manifest.hpp>
#include <hydra/model/metrics.hpp>
#include <hydra/model/tampering.hpp>
#include <hydra/model/test.hpp>

namespace hydra::model {

struct BuildOutcome {
  bool known = false;  ///< false when no build result was recorded (dimension inactive)
  bool passed = false;
  int exit_code = 0;
  double seconds = 0.0;
  bool timed_out = false;
  std::string reason;  ///< why it failed, for reports ("exit code 2", "timed out after 300 s")
  /// Why the run has no build step at all (a profile without one, e.g.
  /// python's); non-empty: the dimension is inactive and the
  /// require_build_pass gate has nothing to require. Empty otherwise.
  std::string no_step;
};

struct SecurityOutcome {
  bool ran = false;
  bool passed = false;
  std::string detail;  ///< command and exit code, or why it did not run
};

/// Everything scoring needs from one run directory, already parsed.
struct Run {
  std::string agent;   ///< agent name ("baseline" for the baseline unless named)
  std::string path;    ///< the run directory as given on the command line (for reports)
  std::string digest;  ///< sha256 of the run's sealed manifest; feeds run_id
  /// Which protection was in force while the tree's code ran ("bubblewrap:
  /// ..." or "none: ..."); empty for recorded runs, which ran nothing.
  std::string sandbox;
  /// Whether the tree's code ran confined (bubblewrap): nullopt for a
  /// recorded run (HydraScore ran nothing); see report lines of
  /// score::sandbox_warnings.
  std::optional<bool> sandboxed;
  /// Its code could reach the network ([sandbox] network = true).
  bool network = false;
  /// What the capture's caches did ("ccache: 12 of 12 compilations from the
  /// cache; lint: 23 of 24 translation units from the cache"); empty when
  /// not recorded.
  std::string caches;
  /// Versions of the tools that made the run ("clang-tidy" -> "Debian LLVM
  /// version 14.0.6", "compiler" -> "GNU 12.2.0", ...); empty when not recorded.
  std::map<std::string, std::string> tools;
  /// The task the run attempted, as captured or recorded (`--task`); empty when not named.
  std::string task;
  /// The commit its tree was captured from (the manifest's source_commit, else
  /// base_commit); empty when not recorded.
  std::string commit;
  /// Why this run replaced a corrupted run directory at its place (a baseline
  /// captured again at scoring time); empty for an ordinary run.
  std::string recaptured;
  /// Why this run was captured again alone: a step of its first capture ran
  /// out of time while other captures ran beside it; empty when it was not.
  std::string retried_alone;

  BuildOutcome build;

  /// nullopt: no test results were recorded (tests dimension inactive, unless
  /// the baseline has tests, in which case the candidate scores 0).
  std::optional<std::vector<TestCase>> tests;
  /// The same tests at program level (docs/formulas.md, "Test cases"): each
  /// CTest test one result, its framework report deciding over its exit
  /// code; set when some test program's framework report was expected
  /// (`tests` then holds its cases), nullopt when `tests` is program level
  /// already. pipeline::load puts it in `tests` for `granularity = "program"`.
  std::optional<std::vector<TestCase>> program_tests;
  /// The test programs of known frameworks and how their reports were read
  /// (the first attempt's); empty when no program had a framework report.
  std::vector<TestProgram> test_programs;
  std::vector<TestDefinition> test_definitions;  ///< from ctest --show-only=json-v1; may be empty
  /// How the build tree builds its targets (build-targets.json, read right
  /// after configure); nullopt when not recorded.
  std::optional<BuildTargets> build_targets;
  std::string source_root;  ///< the captured source tree, as its steps saw it; empty when not recorded
  std::string build_root;   ///< its build tree; empty when not recorded
  /// Test name -> the files it depends on (test-files.json; relative to the
  /// work tree's top level); empty when not recorded.
  std::map<std::string, std::set<std::string>> test_files;
  /// The capture's held-out runs (mode "none" when there are none).
  HeldOut held_out;
  /// What its capture recorded for the anti-gaming checks (shadowing
  /// headers, compiled changed files, compile-flag suppressions, object
  /// references, launcher differentials, caught tampering; manifest.json).
  AntiGamingRecords records;

  /// nullopt: lint did not run; `lint_inactive_reason` says why.
  std::optional<std::vector<LintFinding>> lint;
  std::string lint_inactive_reason;
  /// Lint did not run for a reason outside the tree (clang-tidy not
  /// installed, lint not requested): inactive for a whole ranking rather
  /// than scored 0 for this candidate (docs/formulas.md).
  bool lint_unavailable_outside_tree = false;
  /// How many translation units the lint step linted (from the cache or
  /// not), when the run recorded it (capture's clang-tidy step); nullopt
  /// when unknown. 0: lint ran and measured nothing.
  std::optional<std::uint64_t> lint_units;
  /// Why the lint log is incomplete: the linter stopped before it had looked
  /// at everything (a clippy build stopped by an error, a clang-tidy crash),
  /// one line each; empty when it is complete. Findings it never reached
  /// are missing, never fixed (docs/formulas.md, "Lint").
  std::vector<std::string> lint_incomplete;

  std::optional<DiffSummary> diff;  ///< nullopt: no diff recorded (diff scope inactive)
  AgentMetrics metrics;
  SecurityOutcome security;
  /// The judge's grade of the change in [0, 1] (judge.json), when a judge
  /// answered; `judge_detail` holds its rationale or why there is no grade.
  std::optional<double> judge_score0to1;
  std::string judge_detail;
  /// Tests seen flaky in some run of the ranking this run is scored in
  /// (identity -> the runs that saw it), set by score::rank on its copies of
  /// the runs (docs/formulas.md, "Flaky tests"); empty otherwise.
  std::map<std::string, std::vector<std::string>> flaky_in_ranking;
  /// What the anti-gaming detectors found (set when scoring a candidate
  /// against its baseline; see pipeline::score_runs).
  Tampering tampering;

  /// Problems with the run's data (an artifact failed to parse, a digest is
  /// wrong, ...). Any entry makes the candidate not mergeable: a score built
  /// from corrupt data is never mergeable.
  std::vector<std::string> integrity_problems;
  /// Steps of the capture that could not finish in their budget (a step that
  /// timed out), by step ("build", "test", "lint", "held-out build", ...)
  /// and the problem that says so (also among `integrity_problems`). A
  /// baseline's make the step's dimension unmeasurable for every candidate
  /// instead of failing their integrity gate (docs/formulas.md, "Baseline
  /// steps that could not finish").
  std::vector<std::pair<std::string, std::string>> incomplete_steps;

  /// What was repaired in the run's inputs to score them at all, one line
  /// each ("junit/0.xml: 2 invalid UTF-8 sequences replaced by U+FFFD").
  /// Notes, not problems: they do not block merging.
  std::vector<std::string> input_notes;
};

}  // namespace hydra::model
