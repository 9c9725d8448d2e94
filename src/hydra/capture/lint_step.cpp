// The lint step: clang-tidy over the translation units of the source tree,
// one process per unit, in parallel, under one deadline.
#include <hydra/capture/lint_step.hpp>
#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/capture/lint/build_commands.hpp>
#include <hydra/capture/lint/cache.hpp>
#include <hydra/capture/lint/compiled_inputs.hpp>
#include <hydra/capture/lint/compiler_view_run.hpp>
#include <hydra/capture/lint/completeness.hpp>
#include <hydra/capture/lint/database.hpp>
#include <hydra/capture/lint/flag_suppressions.hpp>
#include <hydra/capture/lint/view.hpp>
#include <hydra/capture/change_step.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <optional>
#include <set>

#include <hydra/error.hpp>
#include <hydra/parse/build_targets.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/load_clock.hpp>
#include <hydra/util/path_pattern.hpp>
#include <hydra/util/text.hpp>
#include <hydra/util/thread_pool.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

/// Whether the lint step cannot start at all: not requested, no clang-tidy,
/// or a build that failed before compile_commands.json existed. Records why
/// in `lint` and the manifest.
bool lint_unavailable(const CaptureRequest& request, bool build_passed, const fs::path& database, LintResult& lint,
                      Staging& staging) {
  // Not requested or no clang-tidy: nothing the tree did, so lint is inactive
  // for the whole ranking (docs/formulas.md); a failed build is the tree's doing.
  bool outside_tree = true;
  if (!request.lint) {  // CaptureRequest::lint: the caller asked for no lint step
    lint.inactive_reason = "lint was turned off for this capture";
  } else if (!request.clang_tidy || !fs::exists(*request.clang_tidy)) {
    lint.inactive_reason = "clang-tidy was not found (install it or set HYDRA_SCORE_CLANG_TIDY)";
  } else if (!build_passed && !fs::is_regular_file(database)) {
    lint.inactive_reason = "the build failed before compile_commands.json existed";
    outside_tree = false;
  }
  if (lint.inactive_reason.empty()) return false;
  staging.manifest["lint_inactive_reason"] = lint.inactive_reason;
  if (outside_tree) staging.manifest["lint_unavailable_outside_tree"] = true;
  return true;
}

/// compile_commands.json of the build tree; an empty value and the reason in
/// `lint` when it is missing or cannot be parsed.
json read_compile_commands(const fs::path& database, LintResult& lint) {
  json commands;
  if (!fs::is_regular_file(database)) {
    lint.inactive_reason = "no compile_commands.json in the build tree (set CMAKE_EXPORT_COMPILE_COMMANDS)";
  } else {
    try {
      commands = json::parse(util::read_file(database));
    } catch (const json::exception& error) {
      lint.inactive_reason = database.string() + ": cannot be parsed: " + error.what();
    }
  }
  return commands;
}

/// The units to lint and what clang-tidy sees of them (lint/database.hpp,
/// lint/view.hpp).
struct LintUnits {
  LintDatabase commands;
  LintView view;
};

LintUnits lint_units_of(const Plan& plan, const CaptureRequest& request, const json& commands, Staging& staging,
                        const fs::path& scratch) {
  // The units and their commands (lint/database.hpp): the build's targets
  // as configure left them (build_step.cpp), with compile_commands.json.
  model::BuildTargets targets;
  try {
    targets = parse::parse_build_targets_file(staging.directory / "build-targets.json");
  } catch (const Error& error) {
    targets.problem = error.what();
  }
  // And the units the build's own commands compiled (a custom command
  // calling the compiler directly).
  std::vector<std::string> compilers;
  for (const auto& [language, compiler] : targets.compilers) compilers.push_back(compiler);
  const std::vector<CompileCommand> compiled = build_log_units(staging.directory, compilers, plan.build_dir);
  LintDatabase lint_commands = lint_database(commands, targets, plan.source, plan.build_dir, plan.excluded,
                                             plan.config.lint.exclude, compiled);
  const std::vector<fs::path>& units = lint_commands.units;
  // What clang-tidy sees and which findings count (lint/view.hpp).
  LintView view = prepare_lint_view(plan, change_diff(plan, request), scratch,
                                    lint_commands, built_files(units, compiled, plan.build_dir),
                                    single_word_suppression_flags(staging.manifest));
  return {std::move(lint_commands), std::move(view)};
}

/// The lint cache of a step and what its keys are made of. Filled in place
/// (the key context points at the cache and the digests).
struct LintCacheUse {
  std::optional<LintCache> cache;
  LintKeyContext key_context;
  FileDigests digests;
  std::map<fs::path, CompileCommand> unit_commands;
};

/// The lint cache (lint/cache.hpp): keyed over what each unit reads, as
/// the database clang-tidy uses lists it. Nothing when the caches are off.
void open_lint_cache(const Plan& plan, const LintView& view, const fs::path& clang_tidy, const std::string& tidy_version,
                     LintCacheUse& use) {
  if (!(plan.cache_dir && plan.config.cache.lint)) return;
  use.cache.emplace(*plan.cache_dir / "lint", plan.config.cache.lint_max_megabytes * 1024 * 1024);
  try {
    use.unit_commands = compile_commands_by_file(json::parse(util::read_file(view.database_dir / "compile_commands.json")));
  } catch (const json::exception&) {
    use.unit_commands.clear();
  }
  LintKeyContext& key_context = use.key_context;
  key_context.tidy = clang_tidy.string() + "\n" + tidy_version;
  // The options besides scratch paths (which the settings digest covers by content).
  key_context.settings = view.settings_digest + " --quiet";
  key_context.roots = PathRoots({plan.source, plan.build_dir});
  key_context.project = {plan.source, plan.build_dir};
  key_context.overlaid = view.overlaid;
  key_context.listing = tree_listing(plan.source, plan.excluded);
  key_context.cache = &*use.cache;
  use.cache->share_through(plan.shared_cache.get());
  key_context.digests = &use.digests;
}

/// What the parallel clang-tidy runs did.
struct LintCounts {
  std::atomic<std::size_t> done{0}, cached{0}, linted{0}, uncacheable{0};
  std::atomic<bool> timed_out{false};
};

/// Where one unit stands once its direct entry was looked at.
struct UnitLookup {
  bool answered = false;             ///< its result came from the cache
  bool has_command = false;          ///< compile_commands.json has it (it can have a key)
  std::optional<std::string> key;    ///< known without preprocessing
  std::string direct_key;
};

/// The cache's answer for `unit` when its direct entry holds (no process
/// runs: lint_unit_key's direct mode), into `result`.
UnitLookup look_up_directly(const LintCacheUse& use, const fs::path& unit, util::ProcessResult& result) {
  UnitLookup lookup;
  const auto command = use.unit_commands.find(unit);
  if (command == use.unit_commands.end() || command->second.several) return lookup;  // no key covers it
  lookup.has_command = true;
  DirectLintKey direct = direct_lint_key(use.key_context, command->second);
  lookup.key = std::move(direct.key);
  lookup.direct_key = std::move(direct.direct_key);
  if (!lookup.key) return lookup;
  if (auto entry = use.cache->load(*lookup.key)) {
    result.started = true;
    result.exit_code = entry->exit_code;
    result.output = use.key_context.roots.restore(entry->output);
    lookup.answered = true;
  }
  return lookup;
}

/// Runs clang-tidy over `units` (or takes its answer from the cache), `plan.jobs`
/// at a time, under one budget of `timeout_seconds`; one result per unit.
/// First every unit's direct entry is looked at (no process runs); then the
/// others are preprocessed for their key and linted. A unit whose key needs
/// preprocessing while a job is free (the few units a change touched) is
/// preprocessed beside its clang-tidy run, and the cache's answer, when the
/// key has one, is taken over the run's: the results are those of doing one
/// after the other.
std::vector<util::ProcessResult> lint_units(const Plan& plan, const Sandbox& sandbox, const StepPolicy& policy,
                                            const LintView& view, const std::vector<fs::path>& units,
                                            const fs::path& clang_tidy, double timeout_seconds, LintCacheUse& use,
                                            LintCounts& counts, Progress& progress) {
  const std::optional<LintCache>& cache = use.cache;
  const LintKeyContext& key_context = use.key_context;
  std::vector<util::ProcessResult> results(units.size());
  // One budget for the whole step, counted on the processor time the
  // machine could give (load_clock.hpp).
  util::LoadClock budget_clock;
  const auto left = [&] { return std::chrono::duration<double>(timeout_seconds - budget_clock.counted()); };
  const auto show = [&] {
    progress.detail(std::to_string(counts.done) + "/" + std::to_string(units.size()) + " files (" +
                    std::to_string(counts.cached) + " from cache)");
  };
  // The unit's answer from the lint cache's entry for `key`, when it has one.
  const auto served_from_cache = [&](std::size_t index, const std::optional<std::string>& key) {
    if (!key) return false;
    auto entry = cache->load(*key);
    if (!entry) return false;
    results[index] = {};
    results[index].started = true;
    results[index].exit_code = entry->exit_code;
    results[index].output = key_context.roots.restore(entry->output);
    ++counts.cached;
    ++counts.done;
    show();
    return true;
  };
  std::vector<UnitLookup> lookups(units.size());
  if (cache) {
    util::parallel_for(units.size(), plan.jobs, [&](std::size_t index) {
      lookups[index] = look_up_directly(use, units[index], results[index]);
      if (!lookups[index].answered) return;
      ++counts.cached;
      ++counts.done;
      show();
    });
  }
  std::vector<std::size_t> pending;
  for (std::size_t index = 0; index < units.size(); ++index)
    if (!lookups[index].answered) pending.push_back(index);
  std::atomic<std::size_t> started{0};
  std::atomic<unsigned> in_flight{0};
  util::parallel_for(pending.size(), plan.jobs, [&](std::size_t position) {
    const std::size_t index = pending[position];
    const std::size_t unstarted = pending.size() - ++started;
    const unsigned busy = ++in_flight;
    struct Leave {
      std::atomic<unsigned>& count;
      ~Leave() { --count; }
    } leave{in_flight};
    auto remaining = left();
    if (remaining.count() <= 0) {
      counts.timed_out = true;
      return;
    }
    const UnitLookup& lookup = lookups[index];
    std::optional<std::string> key = lookup.key;
    std::future<std::optional<std::string>> beside;  // the key, computed during the clang-tidy run
    if (cache && lookup.has_command && !key) {
      const CompileCommand& command = use.unit_commands.at(units[index]);
      const auto preprocess = [&key_context, &command, &lookup, remaining] {
        std::string why_not;
        return preprocessed_lint_key(key_context, command, lookup.direct_key, remaining, why_not);
      };
      if (busy + unstarted < plan.jobs) {
        beside = std::async(std::launch::async, preprocess);
      } else {
        key = preprocess();
        if (served_from_cache(index, key)) return;
        remaining = left();
        if (remaining.count() <= 0) {
          counts.timed_out = true;
          if (!key) ++counts.uncacheable;
          return;
        }
      }
    }
    std::vector<std::string> argv = {clang_tidy.string(), "-p", view.database_dir.string(), "--quiet"};
    argv.insert(argv.end(), view.options.begin(), view.options.end());
    argv.push_back(units[index].string());
    util::ProcessRequest process = sandbox.request(policy, argv);
    process.working_directory = plan.build_dir;
    process.timeout = remaining;
    process.keep_output_bytes = std::size_t(1) << 30;
    util::ProcessResult result = util::run_process(process);
    if (beside.valid()) {
      key = beside.get();
      if (served_from_cache(index, key)) return;  // what doing one after the other gives
    }
    if (cache && !key) ++counts.uncacheable;
    results[index] = std::move(result);
    ++counts.linted;
    const util::ProcessResult& ran = results[index];
    if (ran.timed_out) counts.timed_out = true;
    // Only a finished run is stored: clang-tidy exits 0, or 1 when the unit
    // has compile errors; anything else (a crash, a kill) is not its answer.
    if (key && ran.started && !ran.timed_out && (ran.exit_code == 0 || ran.exit_code == 1))
      cache->store(*key, {ran.exit_code, key_context.roots.normalize(ran.output)});
    ++counts.done;
    show();
  });
  return results;
}

/// The change's lines only the build's compiler compiles, linted in its view
/// (lint/compiler_view_run.hpp): clang-tidy's findings there and the record.
CompilerViewResult compiler_view_of(const Plan& plan, const LintView& view, const fs::path& clang_tidy,
                                    const Sandbox& sandbox, const StepPolicy& policy, double timeout_seconds,
                                    const std::optional<std::string>& deps) {
  CompilerViewRequest request;
  request.clang_tidy = clang_tidy;
  request.scratch = plan.build_dir / kLintFolder / "compiler-view";
  if (!view.added_lines.empty()) request.deps = deps.value_or("");
  request.prepare = [&](const std::vector<std::string>& argv) { return sandbox.request(policy, argv); };
  request.timeout_seconds = timeout_seconds;
  request.jobs = plan.jobs;
  return lint_compiler_view(plan, view, request);
}

/// The manifest's record of the lint cache ("caches"."lint").
json lint_cache_record(const Plan& plan, const std::optional<LintCache>& cache, const LintCounts& counts,
                       std::size_t trimmed) {
  json cache_record = {{"used", cache.has_value()}};
  if (cache) {
    cache_record["directory"] = cache->directory().string();
    cache_record["hits"] = counts.cached.load();
    cache_record["misses"] = counts.linted.load() - std::min(counts.linted.load(), counts.uncacheable.load());
    cache_record["uncacheable"] = counts.uncacheable.load();
    cache_record["entries_trimmed"] = trimmed;
    cache_record["max_megabytes"] = plan.config.cache.lint_max_megabytes;
  } else {
    cache_record["reason"] = plan.cache_dir ? "[cache] lint = false" : "caches are off (--no-cache or [cache] enabled = false)";
  }
  return cache_record;
}

/// The lint step's policy: clang-tidy and the units' own compilers
/// (preprocessing for the cache key) read the trees and the .clang-tidy lint
/// uses (the baseline's, in its hidden run directory) and write nothing of
/// them; their TMPDIR and HOME are lint's own.
StepPolicy lint_policy(const Plan& plan) {
  const fs::path temporary = plan.build_dir / kLintFolder / "tmp";
  std::vector<fs::path> lint_readable = {plan.source, plan.build_dir};
  if (plan.tidy_config) lint_readable.push_back(*plan.tidy_config);
  return tree_step_policy(plan, "lint", {temporary, home_folder_of(temporary)}, temporary, lint_readable);
}

/// Where this lint step holds its cache entries: the build's warm-up's,
/// once it is done, when nothing it read was written since it began
/// (LintWarmUp); emptied otherwise. A pool of its own without a warm-up.
std::shared_ptr<LintCache::HeldStores> warm_up_taken(const Plan& plan, const std::vector<fs::path>& units,
                                                     const std::optional<std::string>& deps, LintWarmUp* warm) {
  if (!warm) return std::make_shared<LintCache::HeldStores>();
  warm->done.wait();
  if (!warm->since || !unchanged_since(plan, units, deps, *warm->since, {plan.build_dir / "compile_commands.json"})) {
    std::lock_guard lock(warm->held->mutex);
    warm->held->entries.clear();
  }
  return warm->held;
}

}  // namespace

void warm_lint_cache(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging staging,
                     LintWarmUp& warm) {
  const fs::path database = plan.build_dir / "compile_commands.json";
  if (!request.lint || !request.clang_tidy || !fs::exists(*request.clang_tidy) || !fs::is_regular_file(database))
    return;
  warm.since = file_system_now(plan.build_dir / kLintFolder / "warm-up-began");
  LintResult unused;
  const json commands = read_compile_commands(database, unused);
  if (!warm.since || !unused.inactive_reason.empty()) return;
  const LintUnits scope = lint_units_of(plan, request, commands, staging, plan.build_dir / kLintFolder / "warm");
  const fs::path clang_tidy = *request.clang_tidy;
  LintCacheUse cache_use;
  open_lint_cache(plan, scope.view, clang_tidy, tool_version(clang_tidy.string()), cache_use);
  if (!cache_use.cache) return;
  cache_use.cache->hold_stores(warm.held);
  const StepPolicy policy = lint_policy(plan);
  cache_use.key_context.prepare = [&](const std::vector<std::string>& argv) { return sandbox.request(policy, argv); };
  LintCounts counts;
  Progress quiet(false, request.agent);
  lint_units(plan, sandbox, policy, scope.view, scope.commands.units, clang_tidy,
             plan.budget.seconds(plan.config.lint_timeout_seconds), cache_use, counts, quiet);
}

LintResult run_lint(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, bool build_passed,
                    Staging& staging, Progress& progress, LintBeside* beside) {
  LintResult lint;
  // The steps beside lint start once it has made its folder, or returned.
  struct SayAtEnd {
    LintBeside* beside;
    ~SayAtEnd() {
      if (beside) beside->folder_made();
    }
  } say_at_end{beside};
  const fs::path database = plan.build_dir / "compile_commands.json";
  if (lint_unavailable(request, build_passed, database, lint, staging)) return lint;

  const fs::path clang_tidy = *request.clang_tidy;
  progress.start("lint");
  const json commands = read_compile_commands(database, lint);
  if (!lint.inactive_reason.empty()) {
    staging.manifest["lint_inactive_reason"] = lint.inactive_reason;
    progress.finish("skipped");
    staging.manifest["tools"]["clang-tidy"] = tool_version(clang_tidy.string());
    return lint;
  }
  const LintUnits scope = lint_units_of(plan, request, commands, staging, plan.build_dir / kLintFolder / "view");
  const std::vector<fs::path>& units = scope.commands.units;
  const LintView& view = scope.view;
  lint.translation_units = units.size();
  // What clang-tidy reads must be what the build compiled (lint/compiled_inputs.hpp).
  // Ninja's deps log, read once for this check and the compiler's view;
  // before the steps beside lint start (they may write it). Those steps
  // may write what the check looks at while it runs: the check after they
  // end sees that.
  const std::optional<std::string> deps = ninja_tool(plan.build_dir, {"deps"});
  if (beside) beside->folder_made();
  check_compiled_inputs(plan, units, deps, staging);
  const double timeout_seconds = plan.budget.seconds(plan.config.lint_timeout_seconds);
  const std::string tidy_version = tool_version(clang_tidy.string());

  const StepPolicy policy = lint_policy(plan);
  const auto started = Clock::now();
  // The compiler's view needs nothing of clang-tidy's runs of the units nor
  // of the warm-up: it is made beside them (and not used when they time out).
  std::future<CompilerViewResult> compiler_view_made = std::async(std::launch::async, [&] {
    return compiler_view_of(plan, view, clang_tidy, sandbox, policy, timeout_seconds, deps);
  });

  LintCacheUse cache_use;
  open_lint_cache(plan, view, clang_tidy, tidy_version, cache_use);
  const std::optional<LintCache>& cache = cache_use.cache;
  if (beside && cache) cache->hold_stores(warm_up_taken(plan, units, deps, beside->warm_up));
  cache_use.key_context.prepare = [&](const std::vector<std::string>& argv) { return sandbox.request(policy, argv); };

  LintCounts counts;
  const std::vector<util::ProcessResult> results =
      lint_units(plan, sandbox, policy, view, units, clang_tidy, timeout_seconds, cache_use, counts, progress);
  const std::size_t trimmed = cache_use.cache ? cache_use.cache->trim() : 0;
  const bool timed_out = counts.timed_out;

  LintLog log = lint_log(results, units, plan.source, view);
  json view_record = view.to_json();
  CompilerViewResult compiler_view = compiler_view_made.get();
  if (!timed_out) {
    log.text += compiler_view.findings;
    log.incomplete.insert(log.incomplete.end(), compiler_view.incomplete.begin(), compiler_view.incomplete.end());
    // Lines only the compiler sees that clang-tidy could not lint: nothing
    // says they are clean, so the run is not one to merge (integrity gate).
    for (const auto& why : compiler_view.incomplete) staging.problem("lint: " + why);
    view_record["compiler_view"] = std::move(compiler_view.record);
  }
  if (beside) {
    beside->others_done.wait();
    const bool held = recheck_compiled_inputs(plan, units, deps, staging);
    if (cache) cache->release_stores(held);
  }
  if (!log.incomplete.empty() && !timed_out) staging.manifest["lint_incomplete"] = log.incomplete;
  view_record["findings_outside_scope"] = log.outside_scope;
  staging.manifest["lint_view"] = std::move(view_record);
  util::ProcessResult summary;
  summary.started = true;
  summary.exit_code = log.failed_units == 0 ? 0 : 1;
  summary.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  summary.timed_out = timed_out;
  StepRecord record = step_record(
      "lint", {clang_tidy.string(), "-p", view.database_dir.string(), "<" + std::to_string(units.size()) + " translation units>"},
      summary, timeout_seconds);
  record.extra = {{"translation_units", units.size()},
                  {"units_with_errors", log.failed_units},
                  {"units_linted", counts.linted.load()},
                  {"units_from_cache", counts.cached.load()}};
  const json cache_record = lint_cache_record(plan, cache, counts, trimmed);
  record.extra["cache"] = cache_record;
  record.extra["policy"] = policy.to_json();
  staging.manifest["caches"]["lint"] = cache_record;
  staging.step(record);
  lint.ran = true;
  lint.complete = !timed_out;
  if (lint.complete) {
    fs::create_directories(staging.directory / "lint");
    staging.write("lint/0.log", log.text, "lint_log");
    progress.finish("done: " + std::to_string(counts.linted.load()) + " linted, " + std::to_string(counts.cached.load()) +
                    " from cache");
  } else {
    lint.inactive_reason = "lint timed out after " + std::to_string(int(timeout_seconds)) + " s";
    staging.manifest["lint_inactive_reason"] = lint.inactive_reason;
    staging.write("lint-partial.log", log.text, "lint_partial_log");
    staging.incomplete("lint", lint.inactive_reason);
    progress.finish("TIMED OUT");
  }
  staging.manifest["tools"]["clang-tidy"] = tidy_version;
  return lint;
}

}  // namespace hydra::capture
