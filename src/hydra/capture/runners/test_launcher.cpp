// HydraScore's test launcher (test_launcher.hpp).
#include <hydra/capture/runners/test_launcher.hpp>
#include <hydra/capture/runners/child_run.hpp>
#include <hydra/capture/runners/judged_run.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The framework the plan names for the launch `key`; empty when none (or
/// the plan cannot be read: the program then runs as it is, and the capture,
/// which expects its report, says that it wrote none).
std::string planned_framework(const std::string& plan_file, const std::string& key) {
  std::ifstream in(plan_file);
  if (!in) return {};
  const json plan = json::parse(in, nullptr, false);
  if (!plan.is_object() || !plan.contains("programs") || !plan["programs"].is_array()) return {};
  for (const auto& program : plan["programs"])
    if (program.is_object() && program.value("key", std::string()) == key)
      return program.value("framework", std::string());
  return {};
}

}  // namespace

Launch plan_launch(const std::vector<std::string>& arguments, const std::string& plan_file,
                   const std::string& reports) {
  Launch launch;
  const auto separator = std::find(arguments.begin(), arguments.end(), kLauncherSeparator);
  if (separator == arguments.end() || separator + 1 == arguments.end()) {
    launch.error = std::string("usage: hydra-score ") + kLauncherSubcommand + " [WRAPPER...] " +
                   kLauncherSeparator + " PROGRAM [ARGUMENTS...]";
    return launch;
  }
  launch.argv.assign(arguments.begin(), separator);
  const std::vector<std::string> program(separator + 1, arguments.end());
  launch.program_index = launch.argv.size();
  launch.program = program.front();
  launch.argv.insert(launch.argv.end(), program.begin(), program.end());
  if (plan_file.empty() || reports.empty()) return launch;
  launch.judged = true;
  const std::string key = launch_key(program);
  const std::string name = planned_framework(plan_file, key);
  const auto framework = parse::junit_dialect_from_string(name);
  if (!framework || *framework == parse::JunitDialect::generic) return launch;
  const fs::path report = fs::path(reports) / (key + ".xml");
  // Catch2 and doctest write their report into a pipe the launcher holds
  // (GoogleTest streams its verdicts instead, result_stream.hpp).
  launch.report_pipe = *framework != parse::JunitDialect::googletest;
  const auto options = report_options(*framework, std::vector<std::string>(program.begin() + 1, program.end()),
                                      launch.report_pipe ? fs::path(kReportPipeWord) : report);
  if (!options) {
    launch.report_pipe = false;
    return launch;
  }
  launch.argv.insert(launch.argv.end(), options->arguments.begin(), options->arguments.end());
  for (const auto& [variable, value] : options->environment) launch.environment.emplace_back(variable, value);
  launch.report = report.string();
  launch.framework = name;
  return launch;
}

int run_test_launcher(const std::vector<std::string>& arguments) {
  const char* plan = std::getenv(kTestProgramsVariable);
  const char* reports = std::getenv(kTestReportsVariable);
  const Launch launch = plan_launch(arguments, plan ? plan : "", reports ? reports : "");
  if (!launch.error.empty()) {
    std::cerr << "hydra-score: " << launch.error << "\n";
    return 127;
  }
  if (!launch.report.empty()) {
    // The record of the launch, beside the report it asks for: a missing
    // report then says that the program ran and wrote none.
    std::ofstream record(fs::path(launch.report).replace_extension(".launch"));
    record << launch.framework << "\n";
    for (const auto& word : launch.argv) record << word << "\n";
  }
  if (launch.judged)
    if (const auto code = run_judged(launch)) return *code;
  for (const auto& [variable, value] : launch.environment) ::setenv(variable.c_str(), value.c_str(), 1);
  std::vector<char*> argv;
  for (const auto& word : launch.argv) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::cerr << "hydra-score " << kLauncherSubcommand << ": cannot run " << launch.argv[0] << ": "
            << std::strerror(errno) << "\n";
  return 127;
}

}  // namespace hydra::capture
