// hydra-score record: a run directory from artifacts that already exist.
#include <iostream>

#include <hydra/cli/commands.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>
#include <hydra/pipeline/run_dir.hpp>

namespace hydra::cli {

void register_record(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "record", "Make a run directory from artifacts that already exist (e.g. produced by CI); runs nothing");
  struct Options {
    std::string out;
    std::optional<int> build_exit;
    std::optional<double> build_seconds;
    std::string build_log;
    std::vector<std::string> junit;
    std::string ctest_json;
    std::vector<std::string> lint_logs;
    std::string lint_format = "clang-tidy";
    std::vector<std::string> cargo_test_logs;
    std::string profile = "cmake";
    std::string diff;
    std::string agent = "candidate";
    std::optional<double> agent_seconds;
    std::string metrics;
    std::string judge;
    std::string config;
    std::optional<int> security_exit;
    std::string task;
    std::vector<std::string> source_roots;
    std::vector<std::string> tool_versions;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--out", options->out, "Run directory to write (replaced if it is a run directory)")->required();
  command->add_option("--build-exit", options->build_exit, "Exit code of the build (omit: build unknown)");
  command->add_option("--build-seconds", options->build_seconds, "Duration of the build in seconds");
  command->add_option("--build-log", options->build_log, "Build output (compiler warnings are a lint source)");
  command->add_option("--junit", options->junit, "JUnit XML file (repeatable)");
  command->add_option("--ctest-json", options->ctest_json, "Output of ctest --show-only=json-v1 (labels)");
  command->add_option("--lint-log", options->lint_logs, "Lint output, clang-tidy's unless --lint-format (repeatable)");
  command->add_option("--lint-format", options->lint_format,
                      "What the --lint-log files are: clang-tidy (default), clippy-json (cargo "
                      "--message-format=json), eslint-json (--format json), flake8, ruff (concise text)")
      ->check(CLI::IsMember({"clang-tidy", "clippy-json", "eslint-json", "flake8", "ruff"}));
  command->add_option("--cargo-test-log", options->cargo_test_logs,
                      "cargo test's output, stdout and stderr together (repeatable), read like --junit");
  command->add_option("--profile", options->profile,
                      "The profile the artifacts come from (cmake: the build log's compiler warnings count)")
      ->check(CLI::IsMember({"cmake", "js-node", "rust", "python"}));
  command->add_option("--diff", options->diff, "The change as `git diff` prints it");
  command->add_option("--agent", options->agent, "Agent name");
  command->add_option("--agent-seconds", options->agent_seconds, "How long the agent took (speed dimension)");
  command->add_option("--metrics", options->metrics, "Agent metrics JSON (tokens, cost_usd, ...)");
  command->add_option("--judge", options->judge,
                      "The judge's answer (JSON with score0to1 and rationale) for the optional judge dimension");
  command->add_option("--config", options->config, "hydra.toml to store with the run");
  command->add_option("--security-exit", options->security_exit, "Exit code of the security check, if one ran");
  command->add_option("--task", options->task, "Task id (for compare and the results store)");
  command->add_option("--source-root", options->source_roots,
                      "Checkout folder the logs' absolute paths are made relative to (repeatable; default: "
                      "inferred per log by matching its paths against --diff)");
  command->add_option("--tool-version", options->tool_versions,
                      "NAME=VERSION of a tool that made the artifacts, as the tool prints it (repeatable; e.g. "
                      "clang-tidy='Debian LLVM version 14.0.6'): the SARIF report names it");
  command->callback([options, &exit_code] {
    pipeline::RecordRequest request;
    request.agent = options->agent;
    request.build_exit_code = options->build_exit;
    request.build_seconds = options->build_seconds;
    if (!options->build_log.empty()) request.build_log = options->build_log;
    for (const auto& file : options->junit) request.junit_files.emplace_back(file);
    if (!options->ctest_json.empty()) request.ctest_json = options->ctest_json;
    for (const auto& file : options->lint_logs) request.lint_logs.emplace_back(file);
    static const std::map<std::string, std::string> lint_roles = {{"clang-tidy", "lint_log"},
                                                                 {"clippy-json", "clippy_json"},
                                                                 {"eslint-json", "eslint_json"},
                                                                 {"flake8", "flake8_log"},
                                                                 {"ruff", "ruff_log"}};
    request.lint_role = lint_roles.at(options->lint_format);
    for (const auto& file : options->cargo_test_logs) request.cargo_test_logs.emplace_back(file);
    request.profile = options->profile;
    if (!options->diff.empty()) request.diff = options->diff;
    request.agent_seconds = options->agent_seconds;
    if (!options->metrics.empty()) request.metrics = options->metrics;
    if (!options->judge.empty()) request.judge = options->judge;
    if (!options->config.empty()) request.config = options->config;
    request.security_exit_code = options->security_exit;
    request.task = options->task;
    for (const auto& root : options->source_roots) request.source_roots.emplace_back(root);
    for (const auto& entry : options->tool_versions) {
      const auto equals = entry.find('=');
      if (equals == std::string::npos || equals == 0 || equals + 1 == entry.size())
        throw UsageError("--tool-version " + entry + ": expected NAME=VERSION, e.g. clang-tidy='Debian LLVM version 14.0.6'");
      const std::string name = entry.substr(0, equals);
      if (request.extra_manifest.contains("tools") && request.extra_manifest["tools"].contains(name))
        throw UsageError("--tool-version " + name + ": given twice");
      request.extra_manifest["tools"][name] = entry.substr(equals + 1);
    }
    pipeline::record(request, options->out);
    std::cout << "recorded " << options->out << "\n";
    exit_code = status(ExitCode::success);
  });
}

}  // namespace hydra::cli
