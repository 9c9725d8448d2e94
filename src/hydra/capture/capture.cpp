#include <hydra/capture/capture.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include <hydra/capture/git.hpp>
#include <hydra/capture/process.hpp>
#include <hydra/capture/staging.hpp>
#include <hydra/config/config.hpp>
#include <hydra/error.hpp>
#include <hydra/eval/judge.hpp>
#include <hydra/eval/settings.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/lint_log.hpp>
#include <hydra/run/run_dir.hpp>
#include <hydra/run/signals.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/version.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

/// Live progress on a terminal, plain lines otherwise (CI).
class Progress {
 public:
  Progress(bool enabled, std::string agent)
      : enabled_(enabled), live_(enabled && ::isatty(STDERR_FILENO) != 0), agent_(std::move(agent)) {}

  void start(const std::string& step) {
    std::lock_guard lock(mutex_);
    step_ = step;
    detail_.clear();
    started_ = Clock::now();
    if (!enabled_) return;
    if (live_) draw();
    else std::cerr << "hydra[" << agent_ << "]: " << step << " ...\n";
  }

  void detail(const std::string& text) {
    std::lock_guard lock(mutex_);
    detail_ = text;
    if (live_ && enabled_) draw();
  }

  void finish(const std::string& outcome) {
    std::lock_guard lock(mutex_);
    if (!enabled_) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    char line[256];
    std::snprintf(line, sizeof line, "hydra[%s]: %-8s %-40s %6.1f s", agent_.c_str(), step_.c_str(),
                  outcome.c_str(), seconds);
    if (live_) std::cerr << "\r\033[2K" << line << "\n";
    else std::cerr << line << "\n";
  }

 private:
  void draw() {
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    char line[256];
    std::snprintf(line, sizeof line, "hydra[%s]: %-8s %-40.40s %6.1f s", agent_.c_str(), step_.c_str(),
                  detail_.c_str(), seconds);
    std::cerr << "\r\033[2K" << line << std::flush;
  }

  bool enabled_;
  bool live_;
  std::string agent_;
  std::string step_;
  std::string detail_;
  Clock::time_point started_ = Clock::now();
  std::mutex mutex_;
};

std::string first_line(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

std::string tool_version(const std::string& program) {
  ProcessRequest request;
  request.argv = {program, "--version"};
  request.timeout = std::chrono::seconds(20);
  const auto result = run_process(request);
  if (!result.started || result.exit_code != 0) return "unavailable";
  // clang-tidy prints a banner line first; keep the line naming the version.
  std::string best = first_line(result.output);
  std::size_t start = 0;
  while (start < result.output.size()) {
    const auto end = result.output.find('\n', start);
    const std::string line = result.output.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line.find("version") != std::string::npos) {
      best = line;
      break;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  while (!best.empty() && (best.front() == ' ')) best.erase(best.begin());
  return best;
}

bool is_within(const fs::path& path, const fs::path& directory) {
  const auto relative = path.lexically_relative(directory);
  return !relative.empty() && relative.native().rfind("..", 0) != 0;
}

fs::path absolute_clean(const fs::path& path) {
  std::error_code ec;
  fs::path result = fs::weakly_canonical(fs::absolute(path), ec);
  return ec ? fs::absolute(path).lexically_normal() : result;
}

json step_json(const std::string& name, const std::vector<std::string>& argv, const ProcessResult& result,
               double timeout_seconds) {
  std::string command;
  for (const auto& argument : argv) command += (command.empty() ? "" : " ") + argument;
  json step = {{"name", name},
               {"command", command},
               {"started", result.started},
               {"exit_code", result.exit_code},
               {"seconds", result.seconds},
               {"timed_out", result.timed_out},
               {"timeout_seconds", timeout_seconds}};
  if (!result.started) step["reason"] = result.error;
  else if (result.timed_out) step["reason"] = "timed out after " + std::to_string(int(timeout_seconds)) + " s; process group killed";
  else if (result.exit_code != 0) step["reason"] = "exit code " + std::to_string(result.exit_code);
  return step;
}

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

/// The .clang-tidy that lint uses: the baseline run's copy when there is one.
std::optional<fs::path> clang_tidy_config(const CaptureRequest& request, const fs::path& source) {
  if (request.baseline_run) {
    const fs::path stored = *request.baseline_run / "clang-tidy.yaml";
    if (fs::is_regular_file(stored)) return stored;
    return std::nullopt;
  }
  if (fs::is_regular_file(source / ".clang-tidy")) return source / ".clang-tidy";
  return std::nullopt;
}

struct LintOutcome {
  bool ran = false;
  bool complete = false;
  std::string inactive_reason;
  std::string log;
  json step;
};

LintOutcome run_clang_tidy(const fs::path& clang_tidy, const fs::path& source, const fs::path& build_dir,
                           const std::vector<fs::path>& excluded, const config::Config& config,
                           const std::optional<fs::path>& tidy_config, unsigned jobs, double timeout_seconds,
                           Progress& progress) {
  LintOutcome outcome;
  const fs::path database = build_dir / "compile_commands.json";
  if (!fs::is_regular_file(database)) {
    outcome.inactive_reason = "no compile_commands.json in the build tree (set CMAKE_EXPORT_COMPILE_COMMANDS)";
    return outcome;
  }
  json commands;
  try {
    commands = json::parse(util::read_file(database));
  } catch (const json::exception& error) {
    outcome.inactive_reason = database.string() + ": cannot be parsed: " + error.what();
    return outcome;
  }
  std::set<fs::path> files;
  for (const auto& entry : commands) {
    fs::path file = entry.value("file", std::string());
    if (file.is_relative()) file = fs::path(entry.value("directory", std::string())) / file;
    file = absolute_clean(file);
    if (!is_within(file, source)) continue;
    bool skip = false;
    for (const auto& tree : excluded) skip = skip || is_within(file, tree);
    const std::string relative = file.lexically_relative(source).generic_string();
    for (const auto& pattern : config.lint.exclude)
      skip = skip || relative.rfind(pattern, 0) == 0;
    if (!skip) files.insert(file);
  }
  const std::vector<fs::path> units(files.begin(), files.end());
  std::vector<std::string> outputs(units.size());
  std::vector<ProcessResult> results(units.size());
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::atomic<bool> timed_out{false};
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_seconds);
  const auto started = Clock::now();
  auto worker = [&] {
    for (;;) {
      const std::size_t index = next++;
      if (index >= units.size()) return;
      const auto remaining = std::chrono::duration<double>(deadline - Clock::now());
      if (remaining.count() <= 0) {
        timed_out = true;
        return;
      }
      ProcessRequest request;
      request.argv = {clang_tidy.string(), "-p", build_dir.string(), "--quiet"};
      if (tidy_config) request.argv.push_back("--config-file=" + tidy_config->string());
      request.argv.push_back(units[index].string());
      request.working_directory = build_dir;
      request.timeout = remaining;
      request.keep_output_bytes = std::size_t(1) << 30;
      results[index] = run_process(request);
      if (results[index].timed_out) timed_out = true;
      outputs[index] = std::move(results[index].output);
      progress.detail(std::to_string(++done) + "/" + std::to_string(units.size()) + " files");
    }
  };
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < std::max(1u, jobs); ++i) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();

  ProcessResult summary;
  summary.started = true;
  summary.exit_code = 0;
  summary.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  summary.timed_out = timed_out;
  int failed_units = 0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    outcome.log += outputs[i];
    if (!outputs[i].empty() && outputs[i].back() != '\n') outcome.log += '\n';
    if (results[i].started && results[i].exit_code != 0) ++failed_units;
  }
  summary.exit_code = failed_units == 0 ? 0 : 1;
  outcome.step = step_json("lint", {clang_tidy.string(), "-p", build_dir.string(), "<" + std::to_string(units.size()) + " translation units>"},
                           summary, timeout_seconds);
  outcome.step["translation_units"] = units.size();
  outcome.step["units_with_errors"] = failed_units;
  outcome.ran = true;
  outcome.complete = !timed_out;
  if (timed_out) outcome.inactive_reason = "lint timed out after " + std::to_string(int(timeout_seconds)) + " s";
  return outcome;
}

/// Bubblewrap, when it is installed and works here (user namespaces or root).
struct Sandbox {
  std::optional<fs::path> bwrap;
  /// --unshare-pid works here: the step's processes live in a PID namespace
  /// that ends with the step, so even one that left its process group
  /// (setsid, a daemon) does not outlive it.
  bool pid_namespace = false;
  std::string description;  ///< recorded in the manifest: which protection was in force

  /// `argv` run with everything but `writable` read-only (still visible, so
  /// toolchains and dependencies anywhere keep working), TMPDIR pointing at
  /// `temporary` (writable), and no process surviving hydra-score.
  std::vector<std::string> wrap(const std::vector<std::string>& argv, const std::vector<fs::path>& writable,
                                const fs::path& temporary) const {
    if (!bwrap) return argv;
    std::vector<std::string> wrapped = {bwrap->string(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                        "--die-with-parent"};
    if (pid_namespace) wrapped.push_back("--unshare-pid");
    for (const auto& path : writable) wrapped.insert(wrapped.end(), {"--bind", path.string(), path.string()});
    wrapped.insert(wrapped.end(), {"--setenv", "TMPDIR", temporary.string()});
    wrapped.push_back("--");
    wrapped.insert(wrapped.end(), argv.begin(), argv.end());
    return wrapped;
  }
};

Sandbox find_sandbox(bool wanted) {
  Sandbox sandbox;
  if (!wanted) {
    sandbox.description = "none: disabled (--no-sandbox)";
    return sandbox;
  }
  const auto bwrap = find_program("bwrap");
  if (!bwrap) {
    sandbox.description = "none: bubblewrap (bwrap) is not installed";
    return sandbox;
  }
  ProcessRequest probe;
  probe.argv = {bwrap->string(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--", "true"};
  probe.timeout = std::chrono::seconds(20);
  auto result = run_process(probe);
  sandbox.pid_namespace = result.started && result.exit_code == 0;
  if (!sandbox.pid_namespace) {
    probe.argv.erase(std::find(probe.argv.begin(), probe.argv.end(), "--unshare-pid"));
    result = run_process(probe);
  }
  if (!result.started || result.exit_code != 0) {
    sandbox.description = "none: bubblewrap cannot create a sandbox here (" + first_line(result.output + result.error) + ")";
    return sandbox;
  }
  sandbox.bwrap = bwrap;
  sandbox.description =
      "bubblewrap: everything outside the source tree, the build tree and ctest's JUnit directory read-only";
  if (sandbox.pid_namespace) sandbox.description += "; no process outlives its step (PID namespace)";
  return sandbox;
}

/// ctest's own per-test verdicts from its console output
/// ("  3/12 Test  #3: name ......   Passed    0.01 sec"): name -> passed.
/// Test programs cannot write here: ctest captures their output.
std::map<std::string, bool> ctest_console_verdicts(const std::string& log) {
  std::map<std::string, bool> verdicts;
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string_view line(log.data() + start, end - start);
    start = end + 1;
    const auto test = line.find(" Test ");
    const auto hash = line.find('#', test == std::string_view::npos ? 0 : test);
    const auto colon = line.find(": ", hash == std::string_view::npos ? 0 : hash);
    if (test == std::string_view::npos || hash == std::string_view::npos || colon == std::string_view::npos) continue;
    if (line.find('/') == std::string_view::npos || line.find('/') > test) continue;
    std::string_view rest = line.substr(colon + 2);
    const auto dots = rest.find(" .");
    const auto stars = rest.find("***");
    const auto name_end = std::min(dots, stars);
    if (name_end == std::string_view::npos) continue;
    std::string_view name = rest.substr(0, name_end);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    const std::string_view verdict = rest.substr(name_end);
    verdicts[std::string(name)] = verdict.find("***") == std::string_view::npos &&
                                  verdict.find(" Passed") != std::string_view::npos;
  }
  return verdicts;
}

/// Cross-checks the JUnit file with ctest's console verdicts; a JUnit file
/// that disagrees (a test wrote or altered it) is reported, never believed.
std::vector<std::string> junit_disagreements(const fs::path& junit, const std::string& console) {
  std::vector<std::string> problems;
  const auto verdicts = ctest_console_verdicts(console);
  std::vector<model::TestCase> tests;
  try {
    tests = parse::parse_junit_file(junit);
  } catch (const InputError&) {
    return problems;  // reported as an unparsable artifact
  }
  std::set<std::string> seen;
  for (const auto& test : tests) {
    seen.insert(test.name);
    const auto it = verdicts.find(test.name);
    if (it == verdicts.end()) {
      problems.push_back("JUnit lists test \"" + test.name + "\" that ctest did not report running");
    } else if (it->second != (test.status == model::TestStatus::passed)) {
      problems.push_back("JUnit says test \"" + test.name + "\" " + std::string(model::to_string(test.status)) +
                         " but ctest reported it " + (it->second ? "passed" : "not passed"));
    }
  }
  for (const auto& [name, passed] : verdicts)
    if (!seen.count(name)) problems.push_back("ctest ran test \"" + name + "\" but the JUnit file does not list it");
  return problems;
}

std::optional<std::string> ctest_progress(std::string_view line) {
  // "  3/12 Test  #3: name ......   Passed    0.01 sec"
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  const std::size_t digits_start = i;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == digits_start || i >= line.size() || line[i] != '/') return std::nullopt;
  const std::size_t slash = i++;
  const std::size_t total_start = i;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == total_start || line.substr(i, 6) != " Test ") return std::nullopt;
  return std::string(line.substr(digits_start, slash - digits_start)) + "/" +
         std::string(line.substr(total_start, i - total_start)) + " tests";
}

}  // namespace

CaptureOutcome capture(const CaptureRequest& request) {
  CaptureOutcome outcome;
  Progress progress(request.progress, request.agent);
  const unsigned jobs = request.jobs > 0 ? request.jobs : std::max(1u, std::thread::hardware_concurrency());
  const auto cmake = find_program("cmake");
  const auto ctest = find_program("ctest");
  if (!cmake || !ctest) throw Error("capture needs cmake and ctest on PATH", ExitCode::step_failed);

  // --- configuration: explicit, else the baseline's, else the tree's -------
  std::optional<fs::path> config_file = request.config;
  json baseline_manifest;
  if (request.baseline_run) {
    baseline_manifest = run::read_manifest(*request.baseline_run);
    if (!config_file && fs::is_regular_file(*request.baseline_run / "hydra.toml"))
      config_file = *request.baseline_run / "hydra.toml";
  } else if (!config_file && request.checkout.empty() && fs::is_regular_file(request.source / "hydra.toml")) {
    config_file = request.source / "hydra.toml";
  }
  // A worktree checkout reads the config of the commit it captures (below).

  fs::path source = absolute_clean(request.source);
  const fs::path build_dir = absolute_clean(request.build_dir);
  const fs::path out = absolute_clean(request.out);
  std::string source_commit;
  const bool in_git = is_git_work_tree(source);
  if (!request.checkout.empty()) {
    if (!in_git) throw Error(source.string() + " is not a git work tree; cannot check out " + request.checkout, ExitCode::usage);
    source_commit = resolve_commit(source, request.checkout);
  } else if (in_git) {
    try {
      source_commit = resolve_commit(source, "HEAD");
    } catch (const Error&) {
      source_commit.clear();  // a repository without commits
    }
  }
  std::string base_commit;
  if (!request.base_ref.empty()) base_commit = resolve_commit(source, request.base_ref);
  else if (request.baseline_run) base_commit = baseline_manifest.value("source_commit", std::string());
  if (base_commit.empty()) base_commit = source_commit;

  // Build trees and HydraScore's own output never count as part of the
  // change or the lint scope, even inside the source tree.
  std::vector<fs::path> excluded = {build_dir, out};
  for (const auto& path : request.exclude) excluded.push_back(absolute_clean(path));

  // --- the cache key: an unchanged base is not rebuilt ----------------------
  std::string initial_cache_text;
  if (request.initial_cache) initial_cache_text = util::read_file(*request.initial_cache);
  std::string config_text = config_file ? util::read_file(*config_file) : std::string();
  std::string tree_diff;
  if (request.checkout.empty() && in_git && !source_commit.empty() && request.reuse)
    tree_diff = diff_against(source, source_commit, excluded);
  const std::string cache_key = util::sha256_hex(
      json{{"engine", engine_version}, {"commit", source_commit}, {"checkout", !request.checkout.empty()},
           {"tree", util::sha256_hex(tree_diff)}, {"config", util::sha256_hex(config_text)},
           {"initial_cache", util::sha256_hex(initial_cache_text)}, {"generator", request.generator},
           {"build_config", request.build_config}, {"cmake_arguments", request.cmake_arguments},
           {"agent", request.agent}, {"base", base_commit}}
          .dump());
  if (request.reuse && fs::is_regular_file(out / "manifest.json")) {
    try {
      const json manifest = run::read_manifest(out);
      if (manifest.value("cache_key", std::string()) == cache_key) {
        run::verify_seal(out);
        outcome.reused = true;
        outcome.build_passed = manifest.value("build", json::object()).value("exit_code", 1) == 0;
        outcome.summary = out.string() + " is up to date (commit " + source_commit.substr(0, 12) + ")";
        if (request.progress) std::cerr << "hydra[" << request.agent << "]: " << outcome.summary << "\n";
        return outcome;
      }
    } catch (const Error&) {
      // Stale or damaged: capture again.
    }
  }

  if (!request.checkout.empty()) {
    const fs::path worktree = absolute_clean(out.parent_path() / "worktrees" / out.filename());
    progress.start("checkout");
    checkout_worktree(source, source_commit, worktree);
    progress.finish(source_commit.substr(0, 12));
    source = worktree;
    if (!config_file && fs::is_regular_file(source / "hydra.toml")) {
      config_file = source / "hydra.toml";
      config_text = util::read_file(*config_file);
    }
  }
  const config::Config config = config_file ? config::load(*config_file) : config::Config{};
  if (config.profile != "cmake")
    throw Error("capture drives the \"cmake\" profile; for the \"" + config.profile +
                    "\" profile run its commands yourself and use `hydra-score record`",
                ExitCode::usage);

  const Sandbox sandbox = find_sandbox(request.sandbox);
  fs::create_directories(out.parent_path());
  // Locked while this capture runs; stale ones of killed captures go first.
  const StagingDirectory staging(out);
  const fs::path staged = staging.path();
  excluded.push_back(staged);
  try {
    json manifest = {{"schema", "hydra-score/run/1"},
                     {"engine_version", engine_version},
                     {"agent", request.agent},
                     {"task", request.task},
                     {"source_root", source.string()},
                     {"source_commit", source_commit},
                     {"build_dir", build_dir.string()},
                     {"base_commit", base_commit},
                     {"cache_key", cache_key},
                     {"config_digest", config::digest(config)},
                     {"steps", json::array()},
                     {"problems", json::array()},
                     {"security", {{"ran", false}, {"detail", "not configured"}}},
                     {"capture", {{"generator", request.generator}, {"build_config", request.build_config}, {"jobs", jobs}}},
                     {"sandbox", sandbox.description}};
    json roles = json::object();
    if (request.agent_seconds) manifest["agent_seconds"] = *request.agent_seconds;
    if (config_file) {
      util::write_file_atomic(staged / "hydra.toml", config_text);
      roles["hydra.toml"] = "config";
    }
    if (request.metrics) {
      util::write_file_atomic(staged / "metrics.json", util::read_file(*request.metrics));
      roles["metrics.json"] = "metrics";
    }
    const auto tidy_config = clang_tidy_config(request, source);
    if (tidy_config) {
      util::write_file_atomic(staged / "clang-tidy.yaml", util::read_file(*tidy_config));
      roles["clang-tidy.yaml"] = "clang_tidy_config";
    }

    // --- build (configure when the tree is new, then build) ----------------
    const fs::path build_log = staged / "build.log";
    fs::create_directories(build_dir);
    // The sandbox's TMPDIR: inside the (writable) build tree, emptied per capture.
    const fs::path sandbox_tmp = build_dir / ".hydra-tmp";
    {
      std::error_code ec;
      fs::remove_all(sandbox_tmp, ec);
      fs::create_directories(sandbox_tmp);
    }
    ProcessResult build_result;
    std::vector<std::string> build_argv;
    const auto build_started = Clock::now();
    const double build_timeout = config.build_timeout_seconds;
    progress.start("build");
    // Configure when the tree is new, when its last configure failed, or when
    // the settings it was configured with changed (the marker holds them).
    const fs::path configured_marker = build_dir / ".hydra-configured";
    const std::string configure_settings = util::sha256_hex(
        json{{"initial_cache", initial_cache_text}, {"generator", request.generator},
             {"cmake_arguments", request.cmake_arguments}, {"source", source.string()}}
            .dump());
    const bool configured = fs::is_regular_file(build_dir / "CMakeCache.txt") &&
                            fs::is_regular_file(configured_marker) &&
                            util::read_file(configured_marker) == configure_settings;
    if (!configured) {
      std::error_code ec;
      fs::remove(configured_marker, ec);
      std::vector<std::string> configure = {cmake->string(), "-S", source.string(), "-B", build_dir.string()};
      if (!request.generator.empty()) configure.insert(configure.end(), {"-G", request.generator});
      if (request.initial_cache) configure.insert(configure.end(), {"-C", absolute_clean(*request.initial_cache).string()});
      configure.push_back("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
      configure.push_back("-DHYDRA_SCORE_NESTED=ON");
      configure.insert(configure.end(), request.cmake_arguments.begin(), request.cmake_arguments.end());
      ProcessRequest process;
      process.argv = sandbox.wrap(configure, {source, build_dir}, sandbox_tmp);
      process.output_file = staged / "configure.log";
      process.timeout = std::chrono::duration<double>(build_timeout);
      process.environment["CLICOLOR_FORCE"] = "0";
      build_result = run_process(process);
      roles["configure.log"] = "configure_log";
      manifest["steps"].push_back(step_json("configure", configure, build_result, build_timeout));
      if (build_result.started && build_result.exit_code == 0 && !build_result.timed_out)
        util::write_file_atomic(configured_marker, configure_settings);
      build_argv = configure;
    }
    if (build_result.exit_code == 0 || !build_result.started) {
      if (build_result.started || build_argv.empty()) {
        build_argv = {cmake->string(), "--build", build_dir.string(), "--parallel", std::to_string(jobs)};
        if (!request.build_config.empty()) build_argv.insert(build_argv.end(), {"--config", request.build_config});
        ProcessRequest process;
        process.argv = sandbox.wrap(build_argv, {source, build_dir}, sandbox_tmp);
        process.output_file = build_log;
        const double spent = std::chrono::duration<double>(Clock::now() - build_started).count();
        process.timeout = std::chrono::duration<double>(std::max(1.0, build_timeout - spent));
        process.on_line = [&](std::string_view line) {
          if (!line.empty() && line.front() == '[') progress.detail(std::string(line.substr(0, line.find(']') + 1)));
        };
        build_result = run_process(process);
        manifest["steps"].push_back(step_json("build", build_argv, build_result, build_timeout));
      }
    }
    if (!fs::exists(build_log)) util::write_file_atomic(build_log, "");
    roles["build.log"] = "build_log";
    const double build_seconds = std::chrono::duration<double>(Clock::now() - build_started).count();
    const bool build_passed = build_result.started && build_result.exit_code == 0 && !build_result.timed_out;
    manifest["build"] = {{"exit_code", build_result.started ? build_result.exit_code : 127},
                         {"seconds", build_seconds},
                         {"timed_out", build_result.timed_out}};
    if (build_result.timed_out)
      manifest["problems"].push_back("build timed out after " + std::to_string(int(build_timeout)) + " s");
    progress.finish(build_passed ? "passed" : (build_result.timed_out ? "TIMED OUT" : "FAILED"));
    if (!build_passed && request.progress) {
      std::string log;
      try {
        log = util::read_file(build_log);
      } catch (const Error&) {
      }
      if (log.empty() && fs::exists(staged / "configure.log")) log = util::read_file(staged / "configure.log");
      std::cerr << tail_lines(log, 15);
    }

    // --- tests ---------------------------------------------------------------
    if (build_passed) {
      manifest["tests_expected"] = true;
      const double test_timeout = config.test_timeout_seconds;
      fs::create_directories(staged / "junit");
      std::vector<std::string> list_argv = {ctest->string(), "--test-dir", build_dir.string(), "--show-only=json-v1"};
      if (!request.build_config.empty()) list_argv.insert(list_argv.end(), {"-C", request.build_config});
      ProcessRequest list;
      list.argv = list_argv;
      list.separate_stderr = true;
      list.keep_output_bytes = std::size_t(1) << 30;
      list.timeout = std::chrono::seconds(120);
      const auto listed = run_process(list);
      if (listed.started && listed.exit_code == 0) {
        util::write_file_atomic(staged / "ctest.json", listed.output);
        roles["ctest.json"] = "ctest_json";
      } else {
        manifest["problems"].push_back("ctest --show-only=json-v1 failed: " + first_line(listed.error_output + listed.error));
      }
      const fs::path junit = staged / "junit" / "0.xml";
      std::vector<std::string> test_argv = {ctest->string(), "--test-dir", build_dir.string(), "--output-junit",
                                            junit.string(), "--parallel", std::to_string(jobs),
                                            // ctest stops a hanging test at 90% of the step's
                                            // budget, so it still writes JUnit with that test failed;
                                            // the step timeout below is the backstop.
                                            "--timeout", std::to_string(std::max(1, int(test_timeout * 0.9)))};
      if (!request.build_config.empty()) test_argv.insert(test_argv.end(), {"-C", request.build_config});
      ProcessRequest process;
      process.argv = sandbox.wrap(test_argv, {source, build_dir, staged / "junit"}, sandbox_tmp);
      process.output_file = staged / "test.log";
      process.timeout = std::chrono::duration<double>(test_timeout);
      process.on_line = [&](std::string_view line) {
        if (auto text = ctest_progress(line)) progress.detail(*text);
      };
      progress.start("test");
      const auto tested = run_process(process);
      roles["test.log"] = "test_log";
      manifest["steps"].push_back(step_json("test", test_argv, tested, test_timeout));
      if (tested.timed_out) {
        manifest["problems"].push_back("test step timed out after " + std::to_string(int(test_timeout)) +
                                       " s; process group killed");
        std::error_code ec;
        fs::remove(junit, ec);  // a partial JUnit would under-count failures
      }
      if (fs::is_regular_file(junit) && !tested.timed_out) {
        for (auto& problem : junit_disagreements(junit, util::read_file(staged / "test.log")))
          manifest["problems"].push_back(std::move(problem));
      }
      if (fs::is_regular_file(junit)) roles["junit/0.xml"] = "junit";
      else if (!tested.timed_out) manifest["problems"].push_back("ctest wrote no JUnit file (exit code " + std::to_string(tested.exit_code) + ")");
      progress.finish(tested.timed_out ? "TIMED OUT" : (tested.exit_code == 0 ? "all passed" : "some failed"));
    }

    // --- lint (clang-tidy over the translation units of the source tree) ------
    std::optional<fs::path> clang_tidy;
    if (const char* from_environment = std::getenv("HYDRA_SCORE_CLANG_TIDY"); from_environment && *from_environment)
      clang_tidy = fs::path(from_environment);
    else
      clang_tidy = find_program("clang-tidy");
    if (!request.lint) {  // CaptureRequest::lint: the caller asked for no lint step
      manifest["lint_inactive_reason"] = "lint was not requested for this capture";
    } else if (!clang_tidy || !fs::exists(*clang_tidy)) {
      manifest["lint_inactive_reason"] = "clang-tidy was not found (install it or set HYDRA_SCORE_CLANG_TIDY)";
    } else if (!build_passed && !fs::is_regular_file(build_dir / "compile_commands.json")) {
      manifest["lint_inactive_reason"] = "the build failed before compile_commands.json existed";
    } else {
      progress.start("lint");
      LintOutcome lint = run_clang_tidy(*clang_tidy, source, build_dir, excluded, config, tidy_config, jobs,
                                        config.lint_timeout_seconds, progress);
      if (lint.ran) manifest["steps"].push_back(lint.step);
      if (lint.ran && lint.complete) {
        fs::create_directories(staged / "lint");
        util::write_file_atomic(staged / "lint" / "0.log", lint.log);
        roles["lint/0.log"] = "lint_log";
        progress.finish("done");
      } else {
        manifest["lint_inactive_reason"] = lint.inactive_reason;
        if (lint.ran) {
          util::write_file_atomic(staged / "lint-partial.log", lint.log);
          roles["lint-partial.log"] = "lint_partial_log";
          manifest["problems"].push_back(lint.inactive_reason);
        }
        progress.finish(lint.ran ? "TIMED OUT" : "skipped");
      }
      manifest["tools"]["clang-tidy"] = tool_version(clang_tidy->string());
    }

    // --- security check (optional; runs in the tree being captured) -----------
    if (!config.gates.security_command.empty()) {
      ProcessRequest process;
      process.argv = sandbox.wrap({"/bin/sh", "-c", config.gates.security_command}, {source, build_dir}, sandbox_tmp);
      process.working_directory = source;
      process.output_file = staged / "security.log";
      process.timeout = std::chrono::duration<double>(config.lint_timeout_seconds);
      progress.start("security");
      const auto checked = run_process(process);
      roles["security.log"] = "security_log";
      manifest["steps"].push_back(step_json("security", process.argv, checked, config.lint_timeout_seconds));
      manifest["security"] = {{"ran", true},
                              {"exit_code", checked.started ? checked.exit_code : 127},
                              {"timed_out", checked.timed_out},
                              {"detail", "`" + config.gates.security_command + "` " +
                                             (checked.timed_out ? "timed out"
                                                                : "exited " + std::to_string(checked.exit_code))}};
      progress.finish(checked.exit_code == 0 && !checked.timed_out ? "passed" : "FAILED");
    }

    // --- the change against the base commit ----------------------------------
    if (in_git && !base_commit.empty()) {
      const std::string diff = request.checkout.empty() ? diff_against(source, base_commit, excluded) : std::string();
      util::write_file_atomic(staged / "diff.patch", diff);
      roles["diff.patch"] = "diff";
    } else {
      manifest["diff_inactive_reason"] = in_git ? "the repository has no commit to diff against"
                                                : "the source tree is not a git work tree";
    }

    // The optional judge dimension: the configured judge grades the change
    // now, and its answer is sealed with the run (scoring stays a pure
    // function of stored artifacts). Judging never fails a capture.
    if (config.weights.judge > 0 && config_file && fs::is_regular_file(staged / "diff.patch")) {
      const eval::JudgeSettings judge = eval::load_eval_tables(*config_file).judge;
      if (!judge.command.empty()) {
        progress.start("judge");
        const eval::JudgeOutcome outcome =
            eval::run_judge(judge, {request.task.empty() ? request.agent : request.task,
                                    util::read_file(staged / "diff.patch")});
        json answer = {{"rationale", outcome.rationale}};
        if (outcome.score0to1) answer["score0to1"] = *outcome.score0to1;
        else answer["failure"] = outcome.failure;
        util::write_file_atomic(staged / "judge.json", answer.dump(2) + "\n");
        roles["judge.json"] = "judge";
        progress.finish(outcome.score0to1 ? "graded" : "no grade: " + outcome.failure);
      }
    }

    manifest["tools"]["cmake"] = tool_version(cmake->string());
    manifest["tools"]["ctest"] = tool_version(ctest->string());
    if (in_git) manifest["tools"]["git"] = tool_version("git");

    // An artifact the tools left malformed (a crash mid-write) is kept for
    // audit but marked unparsable: the run is then never mergeable.
    json unparsable = json::array();
    for (const auto& [path, role] : roles.items()) {
      try {
        if (role == "junit") parse::parse_junit_file(staged / path);
        else if (role == "lint_log") parse::parse_clang_tidy_file(staged / path);
      } catch (const InputError& error) {
        unparsable.push_back({{"path", path}, {"reason", error.what()}});
      }
    }
    if (!unparsable.empty()) manifest["unparsable_artifacts"] = unparsable;

    // Parsed summaries, then seal and publish atomically.
    json for_signals = manifest;
    const model::Run parsed = run::parse_artifacts(staged, for_signals, roles, config.lint.compiler_warnings);
    util::write_file_atomic(staged / "signals.json", run::signals_json(parsed).dump(2) + "\n");
    roles["signals.json"] = "signals";
    manifest["artifact_roles"] = roles;
    run::seal_and_publish(staged, manifest, out);
    outcome.build_passed = build_passed;
    outcome.summary = out.string() + ": build " + (build_passed ? "passed" : "FAILED");
    return outcome;
  } catch (...) {
    std::error_code ec;
    fs::remove_all(staged, ec);
    throw;
  }
}

}  // namespace hydra::capture
