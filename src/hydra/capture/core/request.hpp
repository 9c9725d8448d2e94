// What a capture is asked to do and what it did: the request (built from
// the command line, the loop or the CMake module) and its outcome. Every
// room of capture/ may use them; capture.hpp is the entry point that runs one.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hydra::capture {

/// How a capture build tree is configured and built: the same for every
/// capture of one project (baseline, candidates, loop iterations), so the
/// capture request and the loop request share it, and the command line reads
/// it with one set of options.
struct BuildTreeOptions {
  unsigned jobs = 0;  ///< parallel build/test/lint jobs; 0 = all cores
  std::string generator;                              ///< cmake -G; empty: cmake's default
  std::optional<std::filesystem::path> initial_cache; ///< cmake -C script with the user's cache entries
  std::string build_config;                           ///< multi-config generators: the configuration
  std::vector<std::string> cmake_arguments;           ///< extra configure arguments (-D...)
  std::vector<std::filesystem::path> exclude;         ///< trees inside the source that are not part of the change (build trees)
  /// false (`--no-cache`): no lint cache and no compiler cache, whatever
  /// hydra.toml's [cache] says (docs/run-directory.md, "Caches").
  bool cache = true;
  /// hydra-score itself: every step that runs the tree's code runs under its
  /// `run-step` reaper (util/reaper.hpp). The command line sets it; nullopt:
  /// the steps run without the reaper.
  std::optional<std::filesystem::path> step_runner;
  /// The profile whose steps run (docs/config.md, "Profiles"), instead of
  /// hydra.toml's; empty: hydra.toml's, or for a candidate its baseline's.
  /// A candidate captured with another profile than its baseline is an error.
  std::string profile;
  /// The command that runs a test program with its framework's report
  /// options (hydra-score and its hidden `test-launcher` word;
  /// test_frameworks.hpp), installed by the configure step as the tree's
  /// test launcher. Empty: tests run as the project defines them and every
  /// test program keeps its program-level result.
  std::vector<std::string> test_launcher;
};

struct CaptureRequest : BuildTreeOptions {
  std::filesystem::path source;     ///< the source tree to capture
  std::filesystem::path out;        ///< the run directory to write
  std::filesystem::path build_dir;  ///< HydraScore's build tree for this capture (created, reused incrementally)
  /// hydra.toml to use. Unset: the baseline run's (when `baseline_run` is
  /// set), else SOURCE/hydra.toml, else defaults. A candidate capture given a
  /// baseline run never reads the candidate's own hydra.toml.
  std::optional<std::filesystem::path> config;
  /// The baseline run this candidate is compared with: its config, its
  /// .clang-tidy and its source commit (the diff base) are used.
  std::optional<std::filesystem::path> baseline_run;
  std::string base_ref;  ///< diff base; overrides the baseline run's commit; empty: HEAD
  std::string checkout;  ///< capture this commit through a git worktree instead of the work tree (baseline BASE_REF)
  /// With `checkout`: a patch (as `git diff --binary` prints it) applied to
  /// the worktree before the steps run; a baseline captured again from its
  /// stored commit and diff uses it.
  std::optional<std::filesystem::path> checkout_patch;
  /// Why this capture replaces a corrupted run directory at `out` (recorded
  /// in the manifest as "recaptured"); empty for an ordinary capture.
  std::string recapture_reason;
  /// Why this capture runs again alone (recorded in the manifest as
  /// "retried_alone" and shown by every report): a step of an earlier
  /// capture of it ran out of time while other captures ran beside it
  /// (capture_in_parallel). Empty for an ordinary capture.
  std::string retried_alone;
  /// The jobs this capture would have had alone (`jobs` is its share when
  /// captures run in parallel); 0: `jobs`. A baseline's time budget is
  /// for these (core/plan.hpp, TimeBudget).
  unsigned jobs_alone = 0;
  /// With `checkout`: remove the worktree when the capture ends (a candidate
  /// ref's worktree; the baseline's is kept and refreshed).
  bool temporary_worktree = false;
  /// Capture only when the tree differs from the base commit (its diff is not
  /// empty); otherwise CaptureOutcome::skipped and nothing is written.
  bool only_if_changed = false;
  /// Refuse a working tree (no `checkout`) whose change touches CMake files
  /// (CMakeLists.txt, *.cmake, CMake presets): `cmake --build` ran the
  /// project's configure with them outside the sandbox before this capture
  /// (the hydra_score target's working-tree flow; docs/threat-model.md).
  /// HYDRA_SCORE_ALLOW_CMAKE_CHANGES=1 in the environment lifts it.
  bool refuse_cmake_changes = false;
  std::string agent = "candidate";
  std::string task;
  std::optional<double> agent_seconds;
  std::optional<std::filesystem::path> metrics;
  bool reuse = false;  ///< keep `out` when it is up to date (same commit, tree, config, settings)
  bool progress = true;
  /// false: skip the lint step (the run records why), e.g. for the improvement
  /// loop's pass-rate metric, which never reads lint.
  bool lint = true;
  /// Run the steps that execute the tree's code (configure, build, test,
  /// lint, held-out runs, security) under bubblewrap when it is available, as
  /// their step policies say (step_policy.hpp) and hydra.toml's [sandbox]
  /// allows. The run records which protection was in force.
  bool sandbox = true;
  /// Refuse to capture (exit 8) where the steps cannot be sandboxed, as
  /// `[sandbox] require = true` does (`--require-sandbox`, for CI).
  bool require_sandbox = false;
  /// The clang-tidy to lint with; nullopt: lint is inactive ("clang-tidy was
  /// not found"). The command line fills it from HYDRA_SCORE_CLANG_TIDY or PATH.
  std::optional<std::filesystem::path> clang_tidy;
  /// Trees of the other captures made beside this one (their sources, build
  /// trees and run directories): hidden from this capture's steps.
  std::vector<std::filesystem::path> hidden_trees;
  /// Where the caches live when hydra.toml's `[cache] directory` names no
  /// folder; empty: `.cache` beside `out` (the loop shares one across its
  /// iterations' folders).
  std::filesystem::path cache_root;
};

struct CaptureOutcome {
  bool reused = false;   ///< `out` was up to date and left as it was
  bool skipped = false;  ///< `only_if_changed` and the tree equals the base: nothing captured
  bool build_passed = false;
  std::string summary;  ///< one line for people
  /// The steps that ran out of time ("build", "test", "held-out build", ...),
  /// in the order they ran; empty when none did or the run was reused.
  std::vector<std::string> timed_out_steps;
};

}  // namespace hydra::capture
