// The build step: configure the capture's build tree when needed, then build.
#include <hydra/capture/build_step.hpp>
#include <hydra/capture/configure_differential_step.hpp>
#include <hydra/capture/cmake/compiler_cache.hpp>
#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/capture/cmake/own_cache.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/util/git.hpp>
#include <hydra/capture/runners/test_launch_hook.hpp>
#include <hydra/parse/cmake_cache.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/parse/build_targets.hpp>

#include <chrono>
#include <iostream>

#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::string tail_lines(const std::string& text, int lines) {
  std::size_t position = text.size();
  int seen = 0;
  while (position > 0 && seen <= lines) {
    position = text.rfind('\n', position - 1);
    if (position == std::string::npos) return text;
    ++seen;
  }
  return text.substr(position + 1);
}

/// What the configure and the build of one capture share: the trees (on
/// HydraScore's side and as the steps see them), what the steps may write and
/// read, and the compiler cache.
struct BuildSetup {
  fs::path build_dir, seen_build, seen_source;
  fs::path sandbox_tmp;  ///< the sandbox's TMPDIR
  CompilerCache compiler_cache;
  json shared_record;  ///< what the shared cache gave and took (compiler_cache.hpp)
  std::vector<fs::path> writable, readable;
  parse::CMakeCache configured;  ///< the tree's cache as its configure left it
  std::vector<std::string> commands;  ///< what the build will run (Ninja's), read after the configure
};

/// Configures the capture's build tree (afresh when it was configured from
/// another source directory or with another generator) and records what the
/// build system says it builds. `configured` is called once that is read,
/// before the configure differential.
util::ProcessResult configure_tree(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                   Staging& staging, BuildSetup& setup, double timeout,
                                   const std::function<void()>& configured) {
  const fs::path& build_dir = setup.build_dir;
  const CompilerCache& compiler_cache = setup.compiler_cache;
  // HydraScore's test launcher (test_launch_hook.hpp): test programs write
  // their framework's report without an edit of the project's test commands.
  const std::vector<std::string> test_launch = install_test_launch(
      request.test_launcher, build_dir, plan.initial_cache, request.cmake_arguments, setup.seen_build);
  // Every capture configures its tree, so that what HydraScore reads of the
  // build system (the File API reply, codemodel.hpp) is what this configure
  // wrote, never what an earlier build step of the tree's code left there.
  // CMake rewrites only the generated files whose content changes, so an
  // unchanged tree is not rebuilt.
  write_file_api_queries(build_dir);
  std::error_code ignored;
  fs::remove(build_dir / ".hydra-configured", ignored);  // the marker of earlier versions
  // A tree configured from another source directory (a baseline captured
  // again from a worktree, then from the work tree) starts afresh: cmake
  // refuses to reuse its cache.
  // So does a tree configured with another generator (cmake refuses it).
  const parse::CMakeCache earlier = parse::read_cmake_cache(build_dir).value_or(parse::CMakeCache{});
  const auto home = earlier.value("CMAKE_HOME_DIRECTORY");
  const auto generator = earlier.value("CMAKE_GENERATOR");
  if ((home && fs::path(*home) != setup.seen_source) ||
      (generator && !plan.generator.empty() && *generator != plan.generator)) {
    fs::remove(build_dir / "CMakeCache.txt", ignored);
    fs::remove_all(build_dir / "CMakeFiles", ignored);
  }
  std::vector<std::string> configure = {plan.cmake.string(), "-S", setup.seen_source.string(), "-B",
                                        setup.seen_build.string()};
  if (!plan.generator.empty()) configure.insert(configure.end(), {"-G", plan.generator});
  if (request.initial_cache)
    configure.insert(configure.end(), {"-C", util::absolute_clean(*request.initial_cache).string()});
  // The user's make program, named by an initial cache, is not Ninja's.
  if (!plan.ninja.empty()) configure.push_back("-DCMAKE_MAKE_PROGRAM=" + plan.ninja.string());
  configure.push_back("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
  configure.push_back("-DHYDRA_SCORE_NESTED=ON");
  configure.insert(configure.end(), compiler_cache.configure_arguments.begin(),
                   compiler_cache.configure_arguments.end());
  configure.insert(configure.end(), request.cmake_arguments.begin(), request.cmake_arguments.end());
  configure.insert(configure.end(), test_launch.begin(), test_launch.end());  // after the user's: kept
  StepPolicy policy = tree_step_policy(plan, "configure", setup.writable, setup.sandbox_tmp, setup.readable);
  for (const auto& [name, value] : compiler_cache.environment) policy.environment[name] = value;
  policy.environment["CLICOLOR_FORCE"] = "0";
  util::ProcessRequest process = sandbox.request(policy, configure);
  process.output_file = staging.directory / "configure.log";
  process.timeout = std::chrono::duration<double>(timeout);
  const auto configure_started = fs::file_time_type::clock::now();
  const util::ProcessResult result = util::run_process(process);
  staging.add("configure.log", "configure_log");
  staging.step(step_record("configure", configure, result, timeout, policy));
  if (result.started && result.exit_code == 0 && !result.timed_out) {
    // Read now: the build steps that follow run the tree's code, which
    // may write anything in the build tree.
    setup.configured = parse::read_cmake_cache(build_dir).value_or(parse::CMakeCache{});
    model::BuildTargets targets = read_build_targets(build_dir, request.build_config);
    CapturedConfigure captured{build_dir, setup.seen_build, targets, configure_started, {}, timeout};
    add_build_commands(targets, build_dir, compiler_cache.used ? compiler_cache.program.string() : std::string());
    staging.write("build-targets.json", parse::to_json(targets).dump(1) + "\n", "build_targets");
    // Every command the build will run (Ninja), custom commands included:
    // lint finds the units a custom command compiles there (lint_step.cpp).
    setup.commands = build_command_lines(build_dir);
    if (!setup.commands.empty()) {
      std::string text;
      for (const auto& line : setup.commands) text += line + "\n";
      staging.write("build-commands.txt", text, "build_commands");
    }
    if (configured) configured();
    // The same tree configured as a user would (configure_differential_step.hpp).
    if (request.initial_cache) captured.readable.push_back(util::absolute_clean(*request.initial_cache));
    if (plan.tree_mounts.empty()) run_configure_differential(plan, request, sandbox, staging, captured);  // not held-out
  }
  return result;
}

/// The capture's own compiler cache (own_cache.hpp), after the configure and
/// outside the sandbox: a candidate's build fills it when its change
/// qualifies (its reason recorded when not), a held-out build reads it.
/// What the build step must write and read besides is added to `setup`.
void prepare_own_cache(const Plan& plan, BuildSetup& setup) {
  CompilerCache& cache = setup.compiler_cache;
  if (plan.own_cache.empty() || !cache.used) return;
  const fs::path seen_folder = plan.seen(plan.own_cache);
  if (!plan.own_cache_writes) {
    cache.own_reason = prepare_own_cache_reader(cache, plan.own_cache, seen_folder, setup.build_dir,
                                                setup.seen_build, setup.readable);
    return;
  }
  OwnCacheInputs inputs;
  if (!plan.change) {
    cache.own_reason = "no change against a base commit";
    return;
  }
  try {
    for (const auto& file : parse::parse_diff_lines(*plan.change, "the change's diff").files)
      for (const auto& path : {file.path, file.old_path})
        if (!path.empty()) inputs.changed.push_back(path);
  } catch (const std::exception& error) {
    cache.own_reason = std::string("the change's diff cannot be read: ") + error.what();
    return;
  }
  inputs.top = plan.seen(util::work_tree_root(plan.source));
  inputs.build = setup.seen_build;
  inputs.configure_inputs = configure_inputs(setup.build_dir);
  inputs.commands = setup.commands;
  inputs.launcher = cache.program.string();
  cache.own_reason = own_cache_refusal(inputs);
  if (cache.own_reason.empty())
    cache.own_reason = prepare_own_cache_writer(cache, plan.own_cache, seen_folder, setup.seen_build, setup.writable,
                                                setup.readable);
}

/// Builds the configured tree in what is left of `timeout` since `started`,
/// recording what the compiler cache did.
util::ProcessResult build_tree(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                               Staging& staging, Progress& progress, BuildSetup& setup, double timeout,
                               Clock::time_point started, const fs::path& build_log) {
  CompilerCache& compiler_cache = setup.compiler_cache;
  std::vector<std::string> argv = {plan.cmake.string(), "--build", setup.seen_build.string(), "--parallel",
                                   std::to_string(plan.jobs)};
  if (!request.build_config.empty()) argv.insert(argv.end(), {"--config", request.build_config});
  if (plan.keep_going) {
    // The native tool's keep-going flag (Ninja: -k 0; Make: -k).
    const std::string generator = setup.configured.value_or_empty("CMAKE_GENERATOR");
    if (util::starts_with(generator, "Ninja")) argv.insert(argv.end(), {"--", "-k", "0"});
    else if (generator.find("Makefiles") != std::string::npos) argv.insert(argv.end(), {"--", "-k"});
  }
  StepPolicy policy = tree_step_policy(plan, "build", setup.writable, setup.sandbox_tmp, setup.readable);
  for (const auto& [name, value] : compiler_cache.environment) policy.environment[name] = value;
  util::ProcessRequest process = sandbox.request(policy, argv);
  process.output_file = build_log;
  const double spent = std::chrono::duration<double>(Clock::now() - started).count();
  process.timeout = std::chrono::duration<double>(std::max(1.0, timeout - spent));
  process.on_line = [&](std::string_view line) {
    if (!line.empty() && line.front() == '[') progress.detail(std::string(line.substr(0, line.find(']') + 1)));
  };
  const util::ProcessResult result = util::run_process(process);
  StepRecord record = step_record("build", argv, result, timeout, policy);
  CompilerCacheStats stats, own;
  if (compiler_cache.used && fs::is_regular_file(compiler_cache.stats_log))
    stats = parse_stats_log(util::read_file(compiler_cache.stats_log));
  if (!compiler_cache.own_role.empty() && fs::is_regular_file(compiler_cache.own_stats_log))
    own = parse_stats_log(util::read_file(compiler_cache.own_stats_log));
  json cache_record = to_json(compiler_cache, stats, own);
  if (compiler_cache.used) publish_shared_compiler_cache(plan, compiler_cache, setup.shared_record, cache_record);
  record.extra["compile_cache"] = cache_record;
  staging.manifest["caches"]["compiler"] = cache_record;
  staging.step(record);
  if (compiler_cache.used)
    progress.detail(std::to_string(stats.hits) + "/" + std::to_string(stats.hits + stats.misses) +
                    " compilations from ccache" +
                    (compiler_cache.own_role == "reader"
                         ? ", " + std::to_string(own.remote_hits) + " of the others from the candidate's own"
                         : std::string()));
  return result;
}

/// The build's record in the manifest and its line of progress (with the end
/// of its log, or of configure's, when it failed).
BuildResult finish_build(const util::ProcessResult& result, Staging& staging, Progress& progress, double timeout,
                         Clock::time_point started, const fs::path& build_log) {
  BuildResult build;
  build.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  build.passed = result.started && result.exit_code == 0 && !result.timed_out;
  build.timed_out = result.timed_out;
  build.exit_code = result.started ? result.exit_code : 127;
  staging.manifest["build"] = {{"exit_code", build.exit_code}, {"seconds", build.seconds}, {"timed_out", build.timed_out}};
  if (build.timed_out) staging.incomplete("build", "build timed out after " + std::to_string(int(timeout)) + " s");
  std::string outcome = build.passed ? "passed" : (build.timed_out ? "TIMED OUT" : "FAILED");
  const json compiler_record = staging.manifest.value("caches", json::object()).value("compiler", json::object());
  if (compiler_record.value("used", false))
    outcome += " (" + std::to_string(compiler_record.value("hits", 0)) + "/" +
               std::to_string(compiler_record.value("hits", 0) + compiler_record.value("misses", 0)) +
               " compilations from ccache)";
  progress.finish(outcome);
  if (!build.passed && progress.enabled()) {
    // The end of the log says why; configure.log when the build never started.
    std::string log = util::read_file(build_log);
    if (log.empty() && fs::exists(staging.directory / "configure.log"))
      log = util::read_file(staging.directory / "configure.log");
    std::cerr << tail_lines(log, 15);
  }
  return build;
}

}  // namespace

BuildResult run_build(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                      Progress& progress, const std::function<void()>& configured) {
  // `build_dir` and `plan.source` are HydraScore's side of the trees; the
  // steps see them where the plan's tree mounts show them (plan.seen).
  BuildSetup setup;
  setup.build_dir = plan.build_dir;
  const fs::path& build_dir = setup.build_dir;
  setup.seen_build = plan.seen(build_dir);
  setup.seen_source = plan.seen(plan.source);
  const fs::path build_log = staging.directory / "build.log";
  fs::create_directories(build_dir);
  // The sandbox's TMPDIR: inside the (writable) build tree, emptied per capture.
  setup.sandbox_tmp = build_dir / ".hydra-tmp";
  prepare_step_folders(setup.sandbox_tmp);
  const auto started = Clock::now();
  const double timeout = plan.budget.seconds(plan.config.build_timeout_seconds);
  progress.start("build");
  // The compiler cache (compiler_cache.hpp): its launcher is a configure
  // setting; its directory is writable in the sandbox only for a baseline.
  setup.compiler_cache = prepare_compiler_cache(plan, request, build_dir);
  CompilerCache& compiler_cache = setup.compiler_cache;
  // The source tree is read-only: only the build tree (and the cache) is written.
  setup.writable = {build_dir};
  // What configure reads besides the build tree: the source tree, the user's
  // cache entries (beside the run directories, which are hidden).
  setup.readable = {plan.source};
  if (request.initial_cache) setup.readable.push_back(util::absolute_clean(*request.initial_cache));
  if (compiler_cache.used) {
    fs::create_directories(compiler_cache.directory);
    if (compiler_cache.read_only) fs::create_directories(build_dir / ".hydra-ccache-tmp");
    (compiler_cache.read_only ? setup.readable : setup.writable).push_back(compiler_cache.directory);
    std::error_code ignored;
    fs::remove(compiler_cache.stats_log, ignored);
    setup.shared_record = prepare_shared_compiler_cache(plan, compiler_cache, setup.readable);
  }
  util::ProcessResult result = configure_tree(plan, request, sandbox, staging, setup, timeout, configured);
  if (result.started && result.exit_code == 0 && !result.timed_out) {
    prepare_own_cache(plan, setup);
    result = build_tree(plan, request, sandbox, staging, progress, setup, timeout, started, build_log);
  }
  if (!fs::exists(build_log)) util::write_file_atomic(build_log, "");
  staging.add("build.log", "build_log");
  return finish_build(result, staging, progress, timeout, started, build_log);
}

}  // namespace hydra::capture
