// The plan step: what to capture, with which config, against which base, and
// whether an earlier run directory is still up to date.
#include <hydra/capture/core/plan.hpp>

#include <algorithm>
#include <iostream>
#include <thread>

#include <hydra/error.hpp>
#include <hydra/pipeline/evaluate.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>
#include <hydra/version.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The .clang-tidy that lint uses: the baseline run's copy when there is one.
std::optional<fs::path> clang_tidy_config(const CaptureRequest& request, const fs::path& source) {
  if (request.baseline_run) {
    const fs::path stored = util::absolute_clean(*request.baseline_run / "clang-tidy.yaml");
    if (fs::is_regular_file(stored)) return stored;
    return std::nullopt;
  }
  if (fs::is_regular_file(source / ".clang-tidy")) return source / ".clang-tidy";
  return std::nullopt;
}

}  // namespace

TimeBudget time_budget(unsigned jobs, unsigned reference_jobs, std::string reference) {
  TimeBudget budget;
  budget.jobs = std::max(1u, jobs);
  budget.reference_jobs = reference_jobs == 0 ? budget.jobs : reference_jobs;
  budget.reference = std::move(reference);
  budget.factor = std::max(1.0, double(budget.reference_jobs) / double(budget.jobs));
  return budget;
}

json TimeBudget::to_json(const config::Config& config) const {
  return {{"jobs", jobs},
          {"reference_jobs", reference_jobs},
          {"reference", reference},
          {"factor", factor},
          {"build_seconds", seconds(config.build_timeout_seconds)},
          {"test_seconds", seconds(config.test_timeout_seconds)},
          {"lint_seconds", seconds(config.lint_timeout_seconds)}};
}

std::vector<fs::path> exclusions_inside(const fs::path& source, std::vector<fs::path> excluded) {
  excluded.erase(std::remove_if(excluded.begin(), excluded.end(),
                                [&](const fs::path& tree) { return util::is_within(source, tree); }),
                 excluded.end());
  return excluded;
}

CheckoutLayout checkout_layout(const fs::path& folder) {
  const fs::path clean = util::absolute_clean(folder);
  return {clean, clean / "source", clean / "build"};
}

Plan make_plan(const CaptureRequest& request, std::optional<model::RunManifest> baseline) {
  Plan plan;
  // The cmake profile needs both (capture() says so once the config is read).
  if (const auto cmake = util::find_program("cmake")) plan.cmake = *cmake;
  if (const auto ctest = util::find_program("ctest")) plan.ctest = *ctest;
  plan.generator = request.generator;
  if (plan.generator.empty() || plan.generator.find("Makefiles") != std::string::npos) {
    // Several defences read Ninja's own logs (the commands it runs, the
    // headers each object depends on): a capture tree is a Ninja tree
    // whenever ninja is installed, whatever the user's tree uses.
    if (const auto ninja = util::find_program("ninja")) {
      plan.generator = "Ninja";
      plan.ninja = *ninja;
    }
  }
  plan.jobs = request.jobs > 0 ? request.jobs : std::max(1u, std::thread::hardware_concurrency());

  // The configuration: explicit, else the baseline's, else the tree's. A
  // worktree checkout reads the config of the commit it captures (check_out).
  const std::optional<fs::path> tree =
      request.baseline_run || !request.checkout.empty() ? std::nullopt : std::optional<fs::path>(request.source);
  plan.config_file = pipeline::find_config_file(request.config, request.baseline_run, tree).file;
  if (request.baseline_run && !baseline) baseline = pipeline::read_run_manifest(*request.baseline_run);
  plan.baseline = std::move(baseline);
  if (request.baseline_run) plan.improved_against = util::absolute_clean(*request.baseline_run);

  plan.source = util::absolute_clean(request.source);
  plan.build_dir = util::absolute_clean(request.build_dir);
  if (!request.checkout.empty()) {
    const CheckoutLayout layout = checkout_layout(request.build_dir);
    plan.checkout_folder = layout.folder;
    plan.build_dir = layout.build;
  }
  plan.out = util::absolute_clean(request.out);
  plan.in_git = util::is_git_work_tree(plan.source);
  if (!request.checkout.empty()) {
    if (!plan.in_git)
      throw UsageError(plan.source.string() + " is not a git work tree; cannot check out " + request.checkout);
    plan.source_commit = util::resolve_commit(plan.source, request.checkout);
  } else if (plan.in_git) {
    // A repository without commits has no HEAD: nothing to diff against.
    const auto head = util::run_git(plan.source, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
    if (head.exit_code == 0) plan.source_commit = util::trim(head.output);
  }
  if (!request.base_ref.empty()) plan.base_commit = util::resolve_commit(plan.source, request.base_ref);
  else if (plan.baseline) plan.base_commit = plan.baseline->source_commit;
  if (plan.base_commit.empty()) plan.base_commit = plan.source_commit;

  // Build trees and HydraScore's own output never count as part of the
  // change or the lint scope, even inside the source tree.
  plan.excluded = {plan.build_dir, plan.out};
  for (const auto& path : request.exclude) plan.excluded.push_back(util::absolute_clean(path));
  plan.excluded = exclusions_inside(plan.source, plan.excluded);

  if (plan.baseline)
    plan.budget = time_budget(plan.jobs, plan.baseline->capture_jobs, "the baseline run's jobs");
  else
    plan.budget = time_budget(plan.jobs, request.jobs_alone, "the jobs of this capture alone");

  if (request.initial_cache) plan.initial_cache_text = util::read_file(*request.initial_cache);
  plan.initial_cache = parse::parse_initial_cache(plan.initial_cache_text);
  if (plan.config_file) plan.config_text = util::read_file(*plan.config_file);
  std::string tree_diff;
  if (request.checkout.empty() && plan.in_git && !plan.source_commit.empty() && request.reuse)
    tree_diff = util::diff_against(plan.source, plan.source_commit, plan.excluded);
  json key = {{"engine", engine_version}, {"commit", plan.source_commit}, {"checkout", !request.checkout.empty()},
           {"tree", util::sha256_hex(tree_diff)}, {"config", util::sha256_hex(plan.config_text)},
           {"initial_cache", util::sha256_hex(plan.initial_cache_text)}, {"generator", plan.generator},
           {"build_config", request.build_config}, {"cmake_arguments", request.cmake_arguments},
           {"agent", request.agent}, {"base", plan.base_commit},
           {"checkout_patch",
            request.checkout_patch ? util::sha256_hex(util::read_file(*request.checkout_patch)) : std::string()},
           {"metrics", request.metrics ? util::sha256_hex(util::read_file(*request.metrics)) : std::string()},
           {"agent_seconds", request.agent_seconds ? nlohmann::json(*request.agent_seconds) : nlohmann::json()}};
  if (!request.profile.empty()) key["profile"] = request.profile;  // --profile over hydra.toml's
  plan.cache_key = util::sha256_hex(key.dump());
  plan.tidy_config = clang_tidy_config(request, plan.source);
  return plan;
}

std::optional<CaptureOutcome> reusable_run(const Plan& plan, const CaptureRequest& request, std::string& why_not) {
  if (!request.reuse) {
    why_not = "reuse was not asked for";
    return std::nullopt;
  }
  if (!fs::is_regular_file(plan.out / "manifest.json")) {
    why_not = "no run directory yet";
    return std::nullopt;
  }
  try {
    const model::RunManifest manifest = pipeline::read_run_manifest(plan.out);
    if (manifest.cache_key != plan.cache_key) {
      why_not = "the tree, config or settings changed";
      return std::nullopt;
    }
    pipeline::verify_seal(plan.out);
    CaptureOutcome outcome;
    outcome.reused = true;
    outcome.build_passed = manifest.build && manifest.build->exit_code == 0 && !manifest.build->timed_out;
    outcome.summary = plan.out.string() + " is up to date (commit " + plan.source_commit.substr(0, 12) + ")";
    return outcome;
  } catch (const Error& error) {
    why_not = std::string("the stored run cannot be reused: ") + error.what();
    return std::nullopt;
  }
}

bool is_trusted_base(const CaptureRequest& request) { return !request.baseline_run && request.base_ref.empty(); }

void resolve_cache_dir(Plan& plan, const CaptureRequest& request) {
  plan.cache_dir.reset();
  plan.shared_cache.reset();
  if (!request.cache || !plan.config.cache.enabled) return;
  // Beside the run directories (like worktrees/), so the baseline, every
  // candidate and every loop iteration of one output directory share it.
  if (!plan.config.cache.directory.empty()) plan.cache_dir = util::absolute_clean(plan.config.cache.directory);
  else if (!request.cache_root.empty()) plan.cache_dir = util::absolute_clean(request.cache_root);
  else plan.cache_dir = plan.out.parent_path() / ".cache";
  // The shared cache: the environment (a CI secret) over hydra.toml.
  const char* variable = std::getenv("HYDRA_SCORE_CACHE_REMOTE");
  const std::string url = variable && *variable ? std::string(variable) : plan.config.cache.remote;
  if (url.empty()) return;
  remote::Address address;
  try {
    address = remote::parse_address(url);
  } catch (const Error& error) {
    throw UsageError(std::string(variable && *variable ? "HYDRA_SCORE_CACHE_REMOTE: " : "[cache] remote: ") +
                     error.what());
  }
  remote::Limits limits;
  limits.operation = std::chrono::milliseconds(plan.config.cache.remote_timeout_milliseconds);
  limits.connect = std::min(limits.operation, std::chrono::milliseconds(1000));
  plan.shared_cache = std::make_shared<remote::SharedCache>(
      address, limits, "hydra", is_trusted_base(request) ? remote::Role::writer : remote::Role::reader);
}

void check_out(Plan& plan, const CaptureRequest& request, Progress& progress) {
  const CheckoutLayout layout = checkout_layout(plan.checkout_folder);
  const fs::path worktree = layout.source;
  // A folder that was itself a build tree (HydraScore's, before checkouts
  // kept source/ and build/ in it) starts afresh; another one is refused.
  if (fs::is_regular_file(layout.folder / "CMakeCache.txt")) {
    if (!fs::is_regular_file(layout.folder / util::kBuildTreeMarker))
      throw UsageError(layout.folder.string() + " is a CMake build tree; a capture of a commit keeps its worktree and "
                  "build tree in source/ and build/ of its build directory: give another --build-dir");
    for (const auto& entry : fs::directory_iterator(layout.folder)) fs::remove_all(entry.path());
  }
  progress.start("checkout");
  const fs::path top = util::work_tree_root(plan.source);
  util::checkout_worktree(top, plan.source_commit, worktree);
  if (request.checkout_patch) {
    const auto applied =
        util::run_git(worktree, {"apply", "--whitespace=nowarn", "--binary", request.checkout_patch->string()});
    if (applied.exit_code != 0)
      throw Error(request.checkout_patch->string() + " does not apply to commit " + plan.source_commit + ": " +
                  std::string(util::trim(applied.error_output + applied.output)));
  }
  progress.finish(plan.source_commit.substr(0, 12) + (request.checkout_patch ? " + recorded diff" : ""));
  // A project in a subdirectory of its repository stays in it.
  const fs::path inside = plan.source.lexically_relative(fs::weakly_canonical(top));
  plan.source = inside.empty() || inside == "." ? worktree : worktree / inside;
  plan.worktree = worktree;
  plan.excluded = exclusions_inside(plan.source, plan.excluded);
  // A candidate (given a baseline run) never reads its own hydra.toml.
  if (!plan.config_file && !request.baseline_run && fs::is_regular_file(plan.source / "hydra.toml")) {
    plan.config_file = plan.source / "hydra.toml";
    plan.config_text = util::read_file(*plan.config_file);
  }
  if (!request.baseline_run) plan.tidy_config = clang_tidy_config(request, plan.source);
}

}  // namespace hydra::capture
