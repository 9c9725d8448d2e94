// The steps of the js-node, rust and python profiles: the tree is copied into
// the build tree, then the profile's lint, build and test commands run in the
// copy under the sandbox and the step timeouts; their machine-readable
// results become the run's artifacts (docs/config.md, "Profiles").
#include <hydra/capture/sandbox/network_use.hpp>
#include <hydra/capture/profile_steps.hpp>
#include <hydra/capture/runners/profile_commands.hpp>
#include <hydra/capture/runners/runner_helpers.hpp>
#include <hydra/capture/runners/test_attempts.hpp>
#include <hydra/capture/trees/tree_copy.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>

#include <set>

#include <hydra/error.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string first_line(const std::string& text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return {};
  return text.substr(start, text.find('\n', start) - start);
}

/// What every step of a profile runs with: tools' caches and outputs in the
/// build tree, no colour codes in logs, no byte-code files in the tree.
std::map<std::string, std::string> profile_environment(const fs::path& build_dir) {
  return {{"CARGO_TARGET_DIR", (build_dir / "target").string()},
          {"CARGO_TERM_COLOR", "never"},
          {"NO_COLOR", "1"},
          {"FORCE_COLOR", "0"},
          {"CI", "true"},
          {"PYTHONDONTWRITEBYTECODE", "1"},
          {"RUFF_CACHE_DIR", (build_dir / ".ruff-cache").string()},
          {"npm_config_cache", (build_dir / ".npm-cache").string()},
          {"npm_config_update_notifier", "false"},
          {"npm_config_fund", "false"},
          {"npm_config_audit", "false"}};
}

/// jest-junit's folder: the project's own, else npm's global one; empty when neither has it.
fs::path find_jest_junit(const fs::path& tree) {
  std::error_code error;
  if (fs::is_directory(tree / "node_modules" / "jest-junit", error)) return tree / "node_modules" / "jest-junit";
  util::ProcessRequest request;
  request.argv = {"npm", "root", "--global"};
  request.separate_stderr = true;
  request.timeout = std::chrono::seconds(60);
  const auto result = util::run_process(request);
  if (!result.started || result.exit_code != 0) return {};
  const fs::path global = fs::path(util::trim(result.output)) / "jest-junit";
  return fs::is_directory(global, error) ? global : fs::path();
}

/// Throws hydra::Error (exit 8) when the step's program, or the cargo
/// subcommand it needs, is not installed.
/// The folders the tree's copy links to (its node_modules, tree_copy.hpp):
/// readable by its steps.
std::vector<fs::path> dependency_folders(const Plan& plan) {
  std::error_code error;
  const fs::path link = plan.build_dir / "tree" / "node_modules";
  if (!fs::is_symlink(link, error)) return {};
  const fs::path target = fs::read_symlink(link, error);
  if (error) return {};
  return {util::absolute_clean(target.is_absolute() ? target : link.parent_path() / target)};
}

/// A policy for asking a program of the tree's profile its version: it may
/// be the tree's own (a script in it; cargo reads the tree's configuration).
StepPolicy probe_policy(const Plan& plan) {
  StepPolicy policy =
      tree_step_policy(plan, "tool probe", {plan.build_dir}, plan.build_dir / ".hydra-tmp", dependency_folders(plan));
  policy.working_directory = plan.build_dir / "tree";
  for (const auto& [key, value] : profile_environment(plan.build_dir)) policy.environment[key] = value;
  return policy;
}

void require_tool(const Plan& plan, const Sandbox& sandbox, const std::string& step, const StepCommand& command,
                  const fs::path& tree) {
  const std::string& profile = plan.config.profile;
  const std::string& program = command.program;
  const bool found = program.find('/') != std::string::npos ? fs::exists(tree / program) || fs::exists(program)
                                                            : util::find_program(program).has_value();
  if (!found)
    throw StepFailed("the " + profile + " profile's " + step + " step runs `" + command.shell.substr(0, 200) +
                     "`, but " + program + " is not installed (not on PATH)");
  static const std::set<std::string> builtin = {"build", "test", "check", "run", "bench", "doc", "b", "t", "c", "r"};
  if (command.cargo_subcommand.empty() || builtin.count(command.cargo_subcommand)) return;
  util::ProcessRequest probe = sandbox.request(probe_policy(plan), {program, command.cargo_subcommand, "--version"});
  probe.timeout = std::chrono::seconds(60);
  const auto result = util::run_process(probe);
  if (!result.started || result.exit_code != 0)
    throw StepFailed("the " + profile + " profile's " + step + " step needs `cargo " + command.cargo_subcommand +
                    "`, which is not installed (" + first_line(result.output + result.error) + ")");
}

/// The version line of the programs the profile ran ("tools" in the manifest).
void record_tool_versions(const std::vector<std::string>& programs, const fs::path& tree, const Plan& plan,
                          const Sandbox& sandbox, Staging& staging) {
  // Asked in the tree's copy, under the sandbox: a program may be the tree's
  // own, and rustup picks the toolchain the tree names.
  const StepPolicy policy = probe_policy(plan);
  const auto version = [&](const std::string& program) {
    return tool_version(sandbox.request(policy, {program, "--version"}));
  };
  std::set<std::string> seen;
  for (const auto& program : programs) {
    if (program.empty() || !seen.insert(program).second) continue;
    const std::string name = fs::path(program).filename().string();
    staging.manifest["tools"][name] =
        version(program.find('/') != std::string::npos && fs::exists(tree / program) ? (tree / program).string()
                                                                                     : program);
    if (name == "cargo") staging.manifest["tools"]["rustc"] = version("rustc");
    if (name == "npm" || name == "npx") staging.manifest["tools"]["node"] = version("node");
  }
}

struct StepRun {
  util::ProcessResult result;
  std::string stderr_text;
};

class ProfileRunner {
 public:
  ProfileRunner(const Plan& plan, const Sandbox& sandbox, Staging& staging, fs::path tree)
      : plan_(plan), sandbox_(sandbox), staging_(staging), tree_(std::move(tree)),
        environment_(profile_environment(plan.build_dir)) {}

  /// Runs `command` in the copy; its output goes to `log` (a path in the
  /// run directory), merged with stderr unless `stdout_only`.
  StepRun run(const std::string& name, const StepCommand& command, double timeout, const fs::path& log,
              bool stdout_only, Progress& progress) {
    std::vector<fs::path> writable = {tree_, plan_.build_dir};
    if (command.source == ResultSource::file) writable.push_back(command.result_file.parent_path());
    StepPolicy policy = tree_step_policy(plan_, name, writable, plan_.build_dir / ".hydra-tmp", dependency_folders(plan_));
    policy.working_directory = tree_;
    for (const auto& [key, value] : environment_) policy.environment[key] = value;
    for (const auto& [key, value] : command.environment) policy.environment[key] = value;
    util::ProcessRequest process = sandbox_.request(policy, {"/bin/sh", "-c", command.shell});
    process.output_file = log;
    process.separate_stderr = stdout_only;
    process.timeout = std::chrono::duration<double>(timeout);
    progress.start(name);
    StepRun run;
    run.result = util::run_process(process);
    run.stderr_text = run.result.error_output;
    StepRecord record = step_record(name, {command.shell}, run.result, timeout, policy);
    record.command = command.shell;
    staging_.step(record);
    return run;
  }

 private:
  const Plan& plan_;
  const Sandbox& sandbox_;
  Staging& staging_;
  fs::path tree_;
  std::map<std::string, std::string> environment_;
};

/// Whether the build or lint step (`step`, running `command`) runs: a
/// profile without the command has none; an npm script package.json lacks
/// (js-node's `npm run build`, `npm run lint`) means none; and a candidate
/// runs it exactly when its baseline did (`baseline_had`: a candidate that
/// deletes the script fails the step, one that adds it does not make the
/// dimension active for itself alone).
bool has_step(const std::string& step, const std::string& command, const Plan& plan,
              const ProfileContext& context, bool (*baseline_had)(const model::RunManifest&), std::string& why_not) {
  if (command.find_first_not_of(" \t") == std::string::npos) {
    why_not = "the " + plan.config.profile + " profile has no " + step + " step";
    return false;
  }
  if (plan.baseline) {
    if (baseline_had(*plan.baseline)) return true;
    why_not = "the baseline run had no " + step + " step";
    return false;
  }
  const std::string script = npm_script_name(command);
  if (!script.empty() && !context.npm_scripts.count(script)) {
    why_not = "package.json has no \"" + script + "\" script";
    return false;
  }
  return true;
}

bool had_build(const model::RunManifest& manifest) { return manifest.build.has_value(); }
bool had_lint(const model::RunManifest& manifest) { return !manifest.lint_inactive_reason.has_value(); }

/// The copy the commands run in: the project's files, node_modules linked
/// from the tree captured (or, for a worktree, from the user's tree).
fs::path copy_profile_tree(const Plan& plan, const CaptureRequest& request, Staging& staging, Progress& progress) {
  const fs::path tree = plan.build_dir / "tree";
  fs::path dependencies = plan.source / "node_modules";
  std::error_code error;
  if (!fs::is_directory(dependencies, error)) dependencies = util::absolute_clean(request.source) / "node_modules";
  progress.start("copy");
  const TreeCopyStats copied = copy_tree(plan.source, tree, plan.in_git, plan.excluded, dependencies);
  progress.finish(std::to_string(copied.copied) + " of " + std::to_string(copied.files) + " files copied");
  staging.manifest["tree_copy"] = {{"path", tree.string()}, {"files", copied.files}, {"copied", copied.copied},
                                   {"removed", copied.removed}};
  // Tools print paths in the copy: findings are made relative to it.
  staging.manifest["source_roots"] = json::array({tree.string()});
  prepare_step_folders(plan.build_dir / ".hydra-tmp");
  return tree;
}

/// Packages the tree does not have would come from the network, which its
/// steps do not have: said plainly before npm fails on it (thrown for a
/// baseline, one of a candidate's `unclear` problems).
void check_packages_offline(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                            const fs::path& tree, std::vector<std::string>& unclear) {
  std::error_code error;
  if (plan.config.profile == "js-node" && !plan.config.sandbox.network && sandbox.confined() &&
      fs::is_regular_file(tree / "package.json") && !fs::exists(tree / "node_modules", error)) {
    const auto packages = declared_packages(util::read_file(tree / "package.json"));
    if (!packages.empty()) {
      std::string named;
      for (std::size_t index = 0; index < packages.size() && index < 5; ++index)
        named += (index ? ", " : "") + packages[index];
      if (packages.size() > 5) named += ", ...";
      const std::string message = network_needed_message(
          "package.json", std::to_string(packages.size()) + " package(s) (" + named +
                              ") and no node_modules to take them from; run `npm ci` in the tree first");
      if (!request.baseline_run) throw StepFailed(message);
      unclear.push_back(message);
    }
  }
}

/// The lint step, writing `lint_output` (lint/0.<extension>); a lint that
/// fails leaves the lint dimension inactive, saying why.
void run_profile_lint(ProfileRunner& runner, const Plan& plan, Staging& staging, Progress& progress,
                      const StepCommand& lint, const fs::path& lint_output, const std::string& lint_extension) {
  const double timeout = plan.budget.seconds(plan.config.lint_timeout_seconds);
  const bool to_stdout = lint.source == ResultSource::stdout_;
  const fs::path log = to_stdout ? lint_output : staging.directory / "lint.log";
  const StepRun linted = runner.run("lint", lint, timeout, log, to_stdout, progress);
  if (to_stdout && !linted.stderr_text.empty()) staging.write("lint-stderr.log", linted.stderr_text, "lint_stderr");
  if (!to_stdout) staging.add("lint.log", "lint_console");
  std::string failure;
  std::size_t findings = 0;
  if (linted.result.timed_out) {
    failure = "lint timed out after " + std::to_string(int(timeout)) + " s";
  } else if (!linted.result.started) {
    failure = "the lint command could not start: " + linted.result.error;
  } else if (!fs::is_regular_file(lint_output)) {
    failure = "the lint command wrote no results (exit code " + std::to_string(linted.result.exit_code) + ")";
  } else {
    try {
      findings = pipeline::parse_lint_artifact(lint.role, lint_output).findings.size();
      if (linted.result.exit_code != 0 && findings == 0)
        failure = "the lint command failed (exit code " + std::to_string(linted.result.exit_code) +
                  ") and reported no finding: " +
                  first_line(linted.stderr_text.empty() ? util::read_file(log) : linted.stderr_text);
    } catch (const InputError& bad) {
      failure = std::string("the lint command's output does not parse: ") + bad.what();
    }
  }
  if (failure.empty()) {
    staging.add("lint/0." + lint_extension, lint.role);
    progress.finish(std::to_string(findings) + " findings");
  } else {
    // Kept for review, not read: the lint dimension is inactive, and a run
    // whose lint result is unknown is never mergeable.
    if (fs::is_regular_file(lint_output)) {
      fs::rename(lint_output, staging.directory / ("lint-failed." + lint_extension));
      staging.add("lint-failed." + lint_extension, "lint_failed");
    }
    staging.manifest["lint_inactive_reason"] = failure;
    if (!linted.result.timed_out) staging.problem("lint: " + failure);
    progress.finish(linted.result.timed_out ? "TIMED OUT" : "FAILED");
  }
}

/// The build step; returns whether it passed.
bool run_profile_build(ProfileRunner& runner, const Plan& plan, Staging& staging, Progress& progress,
                       const StepCommand& build) {
  const double timeout = plan.budget.seconds(plan.config.build_timeout_seconds);
  const StepRun built = runner.run("build", build, timeout, staging.directory / "build.log", false, progress);
  staging.add("build.log", "build_log");
  const auto& result = built.result;
  const bool build_passed = result.started && result.exit_code == 0 && !result.timed_out;
  staging.manifest["build"] = {{"exit_code", result.started ? result.exit_code : 127},
                               {"seconds", result.seconds},
                               {"timed_out", result.timed_out}};
  if (result.timed_out) staging.incomplete("build", "build timed out after " + std::to_string(int(timeout)) + " s");
  progress.finish(build_passed ? "passed" : (result.timed_out ? "TIMED OUT" : "FAILED"));
  return build_passed;
}

/// The test step, its results (`junit` when the command writes a file) and
/// their agreement with its exit status, then reruns and repeats.
void run_profile_test(ProfileRunner& runner, const Plan& plan, const CaptureRequest& request,
                      const ProfileContext& context, Staging& staging, Progress& progress, const StepCommand& test,
                      const fs::path& junit) {
  std::error_code error;
  const double timeout = plan.budget.seconds(plan.config.test_timeout_seconds);
  const StepRun tested = runner.run("test", test, timeout, staging.directory / "test.log", false, progress);
  const auto& result = tested.result;
  const fs::path results = test.source == ResultSource::file ? junit : staging.directory / "test.log";
  staging.add("test.log", test.source == ResultSource::file ? "test_log" : test.role);
  if (result.timed_out) {
    staging.incomplete("test", "test step timed out after " + std::to_string(int(timeout)) + " s; process group killed");
    if (test.source == ResultSource::file) fs::remove(junit, error);  // partial results under-count failures
    progress.finish("TIMED OUT");
    return;
  }
  if (!fs::is_regular_file(results)) {
    staging.problem("the test command wrote no JUnit file (exit code " + std::to_string(result.exit_code) + ")");
    progress.finish("FAILED");
    return;
  }
  if (test.source == ResultSource::file) staging.add("junit/0.xml", test.role);
  // The runner's exit status and its results must agree: results the tests'
  // own code rewrote, or a runner that failed outside any test, are not believed.
  try {
    const pipeline::TestArtifact parsed = pipeline::parse_test_artifact(test.role, results);
    std::size_t failing = 0;
    for (const auto& one : parsed.tests)
      if (one.status == model::TestStatus::failed || one.status == model::TestStatus::error) ++failing;
    if (result.exit_code == 0 && failing > 0)
      staging.problem("the test command exited 0, but its results list " + std::to_string(failing) +
                      " failing tests");
    else if (result.exit_code != 0 && failing == 0)
      staging.problem("the test command failed (exit code " + std::to_string(result.exit_code) +
                      "), but its results list no failing test");
    progress.finish(std::to_string(parsed.tests.size() - failing) + "/" + std::to_string(parsed.tests.size()) +
                    " passed");
  } catch (const InputError&) {
    progress.finish("results do not parse");  // the publish step marks the artifact unparsable
  }
  // Reruns of failing tests, repeats of a baseline's suite.
  run_profile_attempts(plan, request, context, plan.config.steps.test, test, staging, progress,
                       [&](const StepCommand& command, const fs::path& log, double budget, const std::string& step) {
                         return runner.run(step, command, budget, log, false, progress).result;
                       });
}

/// The steps in the copy of `plan.source`; lint only when `with_lint`.
/// Returns whether the build passed (true when there is no build step).
bool run_in_copy(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                 Progress& progress, bool with_lint) {
  const config::Profile& steps = plan.config.steps;
  const std::string& profile = plan.config.profile;
  staging.manifest["profile"] = profile;
  staging.manifest["capture"]["profile"] = profile;
  const fs::path tree = copy_profile_tree(plan, request, staging, progress);

  ProfileContext context;
  context.profile = profile;
  // A candidate's own files that leave its commands unclear (a package.json
  // that does not parse, a test script no runner is known for) fail that
  // candidate, not the capture: the problem is recorded and the steps that
  // cannot run give no results. For a baseline they are errors.
  std::vector<std::string> unclear;
  const auto resolve = [&](auto make) -> std::optional<StepCommand> {
    try {
      return make();
    } catch (const StepFailed&) {
      throw;  // a tool the step needs is missing: no candidate could run it either
    } catch (const Error& error) {
      if (!request.baseline_run) throw;
      unclear.push_back(error.what());
      return std::nullopt;
    }
  };
  if (fs::is_regular_file(tree / "package.json")) {
    try {
      context.npm_scripts = npm_scripts(util::read_file(tree / "package.json"), (plan.source / "package.json").string());
    } catch (const InputError& error) {
      if (!request.baseline_run) throw;
      unclear.push_back(error.what());
    }
  }
  check_packages_offline(plan, request, sandbox, tree, unclear);

  // Every command is resolved and its tool found before anything runs.
  const fs::path junit = staging.directory / "junit" / "0.xml";
  std::string no_lint_reason;
  if (!request.lint) no_lint_reason = "lint was turned off for this capture";
  const bool lint_wanted =
      with_lint && request.lint && has_step("lint", steps.lint, plan, context, had_lint, no_lint_reason);
  const std::string lint_extension = profile == "python" ? "log" : "json";
  const fs::path lint_output = staging.directory / "lint" / ("0." + lint_extension);
  std::string no_build_reason;
  const bool build_wanted = has_step("build", steps.build, plan, context, had_build, no_build_reason);
  if (profile == "js-node" && steps.test.find("{junit}") == std::string::npos) {
    context.jest_junit = find_jest_junit(tree);
    context.runner_helpers = plan.build_dir / ".hydra-runners";
    write_runner_helpers(context.runner_helpers);
  }
  const std::optional<StepCommand> test =
      resolve([&] { return prepare_test_step(plan, context, test_command(context, steps.test, junit)); });
  const std::optional<StepCommand> lint =
      lint_wanted ? resolve([&] { return lint_command(context, steps.lint, lint_output); }) : std::nullopt;
  const std::optional<StepCommand> build =
      build_wanted ? std::optional<StepCommand>(build_command(steps.build)) : std::nullopt;
  if (build) require_tool(plan, sandbox, "build", *build, tree);
  if (test) require_tool(plan, sandbox, "test", *test, tree);
  if (lint) require_tool(plan, sandbox, "lint", *lint, tree);
  record_tool_versions({build ? build->program : "", test ? test->program : "", lint ? lint->program : ""}, tree,
                       plan, sandbox, staging);
  for (const auto& problem : unclear) staging.problem(problem);

  ProfileRunner runner(plan, sandbox, staging, tree);
  fs::create_directories(staging.directory / "junit");
  fs::create_directories(staging.directory / "lint");

  // Lint first: on the tree exactly as copied, before the project's build
  // or tests run code that could change the copy.
  if (!with_lint) {
    // A held-out run: only its tests are read.
  } else if (!lint) {
    staging.manifest["lint_inactive_reason"] = lint_wanted ? "the lint command could not be resolved" : no_lint_reason;
  } else {
    run_profile_lint(runner, plan, staging, progress, *lint, lint_output, lint_extension);
  }

  if (!build) {
    staging.manifest["build_inactive_reason"] = no_build_reason;
  } else if (!run_profile_build(runner, plan, staging, progress, *build)) {
    return false;
  }

  staging.manifest["tests_expected"] = true;
  if (!test) return true;  // the problem says why: zero tests ran
  run_profile_test(runner, plan, request, context, staging, progress, *test, junit);
  return true;
}

}  // namespace

void run_profile_steps(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                       Progress& progress) {
  run_in_copy(plan, request, sandbox, staging, progress, true);
}

bool run_profile_build_and_tests(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox,
                                 Staging& staging, Progress& progress) {
  return run_in_copy(plan, request, sandbox, staging, progress, false);
}

}  // namespace hydra::capture
