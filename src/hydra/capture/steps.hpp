// The steps of a capture, each in its own file, each returning a typed
// result: plan (what to capture, with which config, against which base),
// build (configure + build), test (ctest), lint (clang-tidy), security, change
// (diff and judge), publish (validate, summarize, seal). capture() in
// capture.cpp runs them in that order. Every step records what it ran in the
// run's manifest (docs/run-directory.md).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/capture.hpp>
#include <hydra/capture/cmake/cmake_cache.hpp>
#include <hydra/capture/progress.hpp>
#include <hydra/capture/sandbox.hpp>
#include <hydra/capture/staging_directory.hpp>
#include <hydra/config/config.hpp>
#include <hydra/model/manifest.hpp>
#include <hydra/remote/shared_cache.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

/// A step's time budget follows the cores it was given
/// (docs/config.md, "Time budgets"): the configured timeouts are what a step
/// gets with the reference's jobs (a candidate's baseline's, or for a
/// baseline the jobs it would have had alone); a capture given fewer (a
/// share of JOBS beside other captures) gets them scaled by
/// `reference_jobs / jobs`, never less than the configured timeouts.
struct TimeBudget {
  unsigned jobs = 1;            ///< the jobs this capture's steps run with
  unsigned reference_jobs = 1;  ///< the jobs the configured timeouts are for
  std::string reference;        ///< where `reference_jobs` comes from, for people
  double factor = 1.0;          ///< max(1, reference_jobs / jobs)

  /// `configured` seconds for these resources.
  double seconds(double configured) const { return configured * factor; }
  /// The manifest's "time_budget" record (with the scaled timeouts of `config`).
  nlohmann::json to_json(const config::Config& config) const;
};

/// The time budget of a capture with `jobs` jobs whose configured timeouts
/// are for `reference_jobs` (0: unknown, then `jobs`). Pure.
TimeBudget time_budget(unsigned jobs, unsigned reference_jobs, std::string reference);

/// The trees of `excluded` that can be left out of `source`: those that do
/// not hold it. A tree holding the source (the user's build tree around a
/// ref's worktree) would leave nothing to lint or diff. Pure.
std::vector<std::filesystem::path> exclusions_inside(const std::filesystem::path& source,
                                                     std::vector<std::filesystem::path> excluded);

/// Where a capture that checks out a commit keeps its trees: the folder
/// given as its build directory holds the worktree (`source/`) and the
/// build tree (`build/`). Every checkout capture (a baseline at a ref, every
/// candidate ref) has this one relative layout, so with ccache's base
/// directory at that folder their compilations are the same command lines
/// and candidates reuse the baseline's objects (compiler_cache.hpp).
struct CheckoutLayout {
  std::filesystem::path folder, source, build;
};
CheckoutLayout checkout_layout(const std::filesystem::path& folder);

/// What a capture resolved before running anything.
struct Plan {
  std::filesystem::path source;     ///< absolute; a worktree (or its subdirectory) when the request checks out a commit
  std::filesystem::path worktree;   ///< the git worktree check_out made; empty otherwise
  std::filesystem::path build_dir;  ///< absolute
  /// A capture that checks out a commit: the folder (the request's build
  /// directory) holding its worktree and its build tree (checkout_layout);
  /// empty for a capture of a work tree.
  std::filesystem::path checkout_folder;
  std::filesystem::path out;        ///< absolute
  bool in_git = false;
  std::string source_commit;  ///< HEAD (or the checked-out commit); empty outside git or without commits
  std::string base_commit;    ///< what the diff is taken against
  /// A candidate's baseline run's manifest (CaptureRequest::baseline_run),
  /// read and its seal verified once when the capture began
  /// (verified_baseline); every step reads it here. nullopt for a baseline.
  std::optional<model::RunManifest> baseline;
  std::optional<std::filesystem::path> config_file;  ///< the hydra.toml used; nullopt: defaults
  std::string config_text;
  config::Config config;
  std::string initial_cache_text;
  /// The entries of the initial-cache script (`initial_cache_text`), read once.
  CMakeCache initial_cache;
  /// Trees that are not part of the change or the lint scope; never one
  /// that holds the source tree (exclusions_inside).
  std::vector<std::filesystem::path> excluded;
  unsigned jobs = 1;
  /// How long each step may take, for the cores this capture was given.
  TimeBudget budget;
  std::filesystem::path cmake;
  std::filesystem::path ctest;
  /// The generator the capture's trees are configured with: Ninja whenever
  /// the request names a Makefile generator or none and ninja is installed
  /// (capture_generator); else the request's. Empty: cmake's default.
  std::string generator;
  std::filesystem::path ninja;  ///< set when generator was switched to Ninja
  std::optional<std::filesystem::path> tidy_config;  ///< the .clang-tidy lint uses (the baseline's, when given)
  std::string cache_key;  ///< identifies commit, tree, config and settings (CaptureRequest::reuse)
  /// Build as much as can be built when a target fails (the held-out runs:
  /// a test that does not build must not keep the others from running).
  bool keep_going = false;
  /// Where the caches live (docs/run-directory.md, "Caches"); nullopt: the
  /// request or hydra.toml turned every cache off. Set once the config is read.
  std::optional<std::filesystem::path> cache_dir;
  /// The shared cache other machines' captures read and write ([cache]
  /// remote or HYDRA_SCORE_CACHE_REMOTE; docs/caches.md): a writer for a
  /// trusted base (is_trusted_base), a reader for every candidate.
  /// nullptr: none, or the caches are off.
  std::shared_ptr<remote::SharedCache> shared_cache;
  /// HydraScore's evidence (this run's staging directory, the run
  /// directories beside it, the baseline run): read-only to every step that
  /// runs the tree's code, even inside a tree it may write (step_policy.hpp).
  std::vector<std::filesystem::path> evidence;
  /// Mounts every step of this plan gets first, under its own: where a tree
  /// is shown at another path than its own (a held-out tree at the
  /// candidate's paths, tree_view_mounts). Empty for a capture's own trees
  /// and without the sandbox.
  std::vector<Mount> tree_mounts;
  /// The change against the base commit as it was before any of the tree's
  /// code ran (capture() takes it first; change_diff returns it from then on).
  std::optional<std::string> change;

  /// Where the steps see `path` (seen_path of the tree mounts).
  std::filesystem::path seen(const std::filesystem::path& path) const { return seen_path(tree_mounts, path); }
  /// What no step of this plan may read (step_policy.hpp), besides the
  /// evidence: the private test patch, the baseline's build tree, the
  /// held-out trees (.hydra/ of the build tree), the other trees captured
  /// beside this one. A step's own trees inside them stay visible.
  std::vector<std::filesystem::path> hidden;
};

/// Whether `request` captures a baseline, the trusted base a team merged:
/// neither a baseline run nor a base ref to diff against (a candidate has
/// one or the other). Only such a capture writes to a shared cache.
bool is_trusted_base(const CaptureRequest& request);

/// Sets `plan.cache_dir` and `plan.shared_cache` from the request and
/// `plan.config`'s [cache] (HYDRA_SCORE_CACHE_REMOTE overrides its `remote`).
void resolve_cache_dir(Plan& plan, const CaptureRequest& request);

/// The manifest of `request.baseline_run` once its seal is verified (and,
/// when it was broken, once the baseline is captured again:
/// recapture_baseline); nullopt without a baseline run or when it has no
/// manifest (make_plan reports that).
std::optional<model::RunManifest> verified_baseline(const CaptureRequest& request);

/// Resolves the request: tools, paths, commits, the config (explicit, else
/// the baseline run's, else the tree's). `baseline` is the baseline run's
/// verified manifest (verified_baseline); without it the baseline run's is
/// read. Throws hydra::Error (exit 8) when cmake or ctest is missing, or
/// exit 2 for a checkout outside git.
Plan make_plan(const CaptureRequest& request, std::optional<model::RunManifest> baseline = std::nullopt);

/// The run directory at `plan.out` when it is up to date for `plan` (same
/// cache key, seal intact); nullopt otherwise, with the reason in `why_not`.
std::optional<CaptureOutcome> reusable_run(const Plan& plan, const CaptureRequest& request, std::string& why_not);

/// For a request that checks out a commit: makes (or refreshes) its worktree
/// and points the plan at it, reading the commit's hydra.toml when no other
/// config was chosen.
void check_out(Plan& plan, const CaptureRequest& request, Progress& progress);

/// What one process step did, as the manifest's "steps" list records it.
struct StepRecord {
  std::string name;
  std::string command;
  bool started = false;
  int exit_code = -1;
  double seconds = 0.0;
  bool timed_out = false;
  double timeout_seconds = 0.0;
  std::string reason;  ///< why it did not pass; empty when it did
  nlohmann::json extra = nlohmann::json::object();  ///< step-specific figures (translation units, ...)

  nlohmann::json to_json() const;
};

/// The record of `result`, which ran `argv` under `timeout_seconds`.
StepRecord step_record(const std::string& name, const std::vector<std::string>& argv,
                       const util::ProcessResult& result, double timeout_seconds);
/// As above, for a step that ran under `policy`: recorded with it ("policy").
StepRecord step_record(const std::string& name, const std::vector<std::string>& argv,
                       const util::ProcessResult& result, double timeout_seconds, const StepPolicy& policy);

/// The run directory being written: its staging folder, the manifest so far
/// and the role of every artifact in it.
struct Staging {
  /// The locked staging directory (staging_directory.hpp): removed with this
  /// object unless published; its lock tells later captures it is not stale.
  std::shared_ptr<StagingDirectory> owner;
  std::filesystem::path directory;
  nlohmann::json manifest = nlohmann::json::object();
  nlohmann::json roles = nlohmann::json::object();

  /// Writes `content` to `relative` (atomically) and records its role.
  void write(const std::string& relative, const std::string& content, const std::string& role);
  /// Records the role of a file a step wrote itself.
  void add(const std::string& relative, const std::string& role) { roles[relative] = role; }
  /// Appends a step to the manifest's "steps".
  void step(const StepRecord& record) { manifest["steps"].push_back(record.to_json()); }
  /// Appends a problem (the run is then not mergeable).
  void problem(const std::string& text) { manifest["problems"].push_back(text); }
  /// A step that could not finish in its budget (`step`: "build", "test",
  /// "lint", or "held-out <step>"): a problem of this run, and recorded as
  /// such in "incomplete_steps", so that a baseline's makes the dimension
  /// unmeasurable for every candidate instead of failing their gates.
  void incomplete(const std::string& step, const std::string& text) {
    problem(text);
    manifest["incomplete_steps"].push_back({{"step", step}, {"reason", text}});
  }
};

/// The staging directory for `plan.out` and the manifest's fixed fields.
Staging start_staging(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox);

/// The first line of `--version` output naming the version, or "unavailable".
std::string tool_version(const std::string& program);
/// The same for a prepared request (Sandbox::request: a program of the tree's).
std::string tool_version(util::ProcessRequest request);

struct BuildResult {
  bool passed = false;
  bool timed_out = false;
  int exit_code = 127;
  double seconds = 0.0;
};
/// Configures the build tree when it is new, its last configure failed or
/// its settings changed, then builds; both under the sandbox and the build
/// timeout. Writes configure.log and build.log.
BuildResult run_build(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                      Progress& progress);

struct TestResult {
  bool ran = false;
  bool timed_out = false;
  int exit_code = -1;
  bool junit_written = false;
};
/// Lists the tests (ctest --show-only=json-v1) and runs them with JUnit
/// output, cross-checking the JUnit file with ctest's console verdicts.
TestResult run_tests(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                     Progress& progress);

struct LintResult {
  bool ran = false;
  bool complete = false;
  std::size_t translation_units = 0;
  std::string inactive_reason;  ///< why the lint dimension has no (complete) log
};
/// Runs clang-tidy over the lint units in parallel under the lint timeout;
/// writes lint/0.log, or lint-partial.log and the reason when incomplete.
LintResult run_lint(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, bool build_passed,
                    Staging& staging, Progress& progress);

/// The held-out runs of a capture (docs/threat-model.md, "Held-out
/// evaluation"): the baseline's tests (and the private test patch) on the
/// candidate's code, and the candidate's new tests on the baseline's code,
/// each built in a tree of its own only when the change needs it. Writes
/// held-out/ and on-baseline/ and the manifest's "held_out" record.
void run_held_out(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                  Progress& progress);

/// The steps of the js-node, rust and python profiles (profile_steps.cpp):
/// copies the tree into the build tree (tree_copy.hpp), then runs the
/// profile's lint, build and test commands there (profile_commands.hpp),
/// under the sandbox and the step timeouts. Throws hydra::Error (exit 8)
/// naming the tool and the profile when a step's program is not installed.
void run_profile_steps(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                       Progress& progress);

/// The profile's build and test steps only, in a copy of `plan.source` in
/// `plan.build_dir` (the held-out runs of these profiles). Returns whether
/// the build passed (true when the profile has no build step).
bool run_profile_build_and_tests(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                 Staging& staging, Progress& progress);

/// Runs `[scoring.gates] security_command` in the tree when one is set.
void run_security(const Plan& plan, const Sandbox& sandbox, Staging& staging, Progress& progress);

/// The change's diff against the base commit, as diff.patch records it;
/// empty outside git or without a base commit. Once `plan.change` is taken
/// (before the tree's code runs), that.
std::string change_diff(const Plan& plan, const CaptureRequest& request);

/// The change against the base commit (diff.patch) and, when the judge
/// dimension is on, the judge's grade of it (judge.json).
void record_change(const Plan& plan, const CaptureRequest& request, Staging& staging, Progress& progress);

/// Records tool versions, marks artifacts the tools left malformed, writes
/// signals.json, then seals the run and renames it into place at `plan.out`.
void publish(const Plan& plan, const config::Config& config, Staging& staging);

}  // namespace hydra::capture
