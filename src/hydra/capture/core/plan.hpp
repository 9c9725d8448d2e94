// What a capture resolved before running anything (plan.cpp): the tools,
// paths, commits and config of one capture request, its time budget and
// what its steps may not see. Every step and every room of capture/ reads it.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/parse/cmake_cache.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/sandbox/step_policy.hpp>
#include <hydra/config/config.hpp>
#include <hydra/model/manifest.hpp>
#include <hydra/remote/shared_cache.hpp>

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

/// The lint step's own folder in the build tree: its view of the units
/// (lint/view.hpp), its scratch and its TMPDIR and HOME. Every other step of
/// the tree sees it hidden (tree_step_policy.hpp), as lint may run beside
/// them.
inline constexpr const char* kLintFolder = ".hydra-lint-view";

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
  parse::CMakeCache initial_cache;
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
  /// A candidate capture's own compiler cache (capture/cmake/own_cache.hpp):
  /// a folder of its staging directory. Its build fills it when
  /// `own_cache_writes` and the change qualifies; its held-out builds read
  /// it. Empty: none (a baseline, no sandbox, or the build did not fill it).
  std::filesystem::path own_cache;
  bool own_cache_writes = false;
  /// The change against the base commit as it was before any of the tree's
  /// code ran (capture() takes it first; change_diff returns it from then on).
  std::optional<std::string> change;
  /// The baseline run folder (junit/0.xml, attempts/) whose results say which
  /// tests a candidate's test step improves: those are run once more without
  /// HydraScore's launcher (runners/launcher_differential.hpp). nullopt: no
  /// such run (a baseline's captures, the new tests on the baseline's code).
  std::optional<std::filesystem::path> improved_against;
  /// Whether the test step runs every test that passed once more without
  /// the launcher: a capture's own run (a baseline's too: scoring excuses a
  /// candidate's plain failure of a test whose baseline run failed plain as
  /// well) and a candidate's held-out run; not the other held-out runs.
  bool plain_differential = true;

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

/// Resolves the request: tools, paths, commits, the config (explicit, else
/// the baseline run's, else the tree's). Throws hydra::Error (exit 8) when
/// cmake or ctest is missing, or exit 2 for a checkout outside git.
Plan make_plan(const CaptureRequest& request, std::optional<model::RunManifest> baseline = std::nullopt);

/// The run directory at `plan.out` when it is up to date for `plan` (same
/// cache key, seal intact); nullopt otherwise, with the reason in `why_not`.
std::optional<CaptureOutcome> reusable_run(const Plan& plan, const CaptureRequest& request, std::string& why_not);

/// For a request that checks out a commit: makes (or refreshes) its worktree
/// and points the plan at it, reading the commit's hydra.toml when no other
/// config was chosen.
void check_out(Plan& plan, const CaptureRequest& request, Progress& progress);

}  // namespace hydra::capture
