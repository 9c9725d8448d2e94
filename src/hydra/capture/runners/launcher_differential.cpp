// The launcher differential (launcher_differential.hpp).
#include <hydra/capture/runners/launcher_differential.hpp>
#include <hydra/capture/runners/rerun_commands.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <hydra/error.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr const char* kTamperingPrefix = "hydra-score: tampering: ";
}  // namespace

json plain_listing(const json& listing, const std::vector<std::string>& prefix) {
  json plain = listing;
  if (!plain.is_object() || !plain.contains("tests") || !plain["tests"].is_array()) return plain;
  for (auto& test : plain["tests"]) {
    if (!test.is_object() || !test.contains("command") || !test["command"].is_array()) continue;
    const json& command = test["command"];
    if (command.size() < 4 || command[1] != kLauncherSubcommand) continue;
    json words = json::array();
    for (const auto& word : prefix) words.push_back(word);
    bool separated = false;
    for (std::size_t index = 2; index < command.size(); ++index) {
      if (!separated && command[index] == kLauncherSeparator) {
        separated = true;
        continue;
      }
      words.push_back(command[index]);
    }
    if (separated && words.size() > prefix.size()) test["command"] = std::move(words);
  }
  return plain;
}

std::vector<std::string> improved_tests(const std::vector<model::TestCase>& baseline,
                                        const std::vector<model::TestCase>& judged) {
  std::map<std::string, bool> baseline_passed;
  for (const auto& test : baseline) {
    bool& passed = baseline_passed[test.name];
    passed = passed || test.status == model::TestStatus::passed;
  }
  std::set<std::string> improved;
  for (const auto& test : judged) {
    const auto found = baseline_passed.find(test.name);
    if (test.status == model::TestStatus::passed && found != baseline_passed.end() && !found->second)
      improved.insert(test.name);
  }
  return {improved.begin(), improved.end()};
}

std::vector<std::string> passed_tests(const std::vector<model::TestCase>& judged) {
  std::set<std::string> passed;
  for (const auto& test : judged)
    if (test.status == model::TestStatus::passed) passed.insert(test.name);
  return {passed.begin(), passed.end()};
}

std::vector<model::TestCase> run_folder_tests(const fs::path& folder) {
  std::vector<fs::path> files = {folder / "junit" / "0.xml"};
  std::error_code error;
  if (fs::is_directory(folder / "attempts", error))
    for (const auto& entry : fs::directory_iterator(folder / "attempts", error))
      files.push_back(entry.path() / "junit.xml");
  std::vector<model::TestCase> tests;
  for (const auto& file : files) {
    if (!fs::is_regular_file(file, error)) continue;
    try {
      auto read = parse::parse_junit_file(file);
      tests.insert(tests.end(), read.begin(), read.end());
    } catch (const InputError&) {
      // An unparsable file is reported where the run is loaded.
    }
  }
  return tests;
}

json caught_tampering(const fs::path& folder) {
  std::set<std::pair<std::string, std::string>> caught;
  for (const auto& test : run_folder_tests(folder))
    if (test.message.rfind(kTamperingPrefix, 0) == 0) caught.emplace(test.name, test.message);
  json list = json::array();
  for (const auto& [test, message] : caught) list.push_back({{"test", test}, {"message", message}});
  return list;
}

json plain_run_differences() {
  return json::array({"no test launcher (no witness, pipes, report options or neutral name)",
                      "no ctest where the plain runner can judge the test: started by bash, stdout and stderr "
                      "two regular files, stdin an empty regular file, the environment in the shell's order",
                      "HOME and TMPDIR outside the build tree",
                      "in bubblewrap: HOME at the user's own home path and /tmp, fresh folders on disk, no TMPDIR; "
                      "SHELL, USER and LOGNAME as a login sets them; process numbers from the thousands on",
                      "more environment variables (" + std::to_string(kPlainNeutralVariables.size()) + " neutral ones)",
                      "no CPU-seconds limit (the memory and process limits stay)",
                      "each test in a session and process group of its own (setsid)"});
}

void run_launcher_differential(const Plan& plan, Staging& staging, Progress& progress, const PlainRun& run_plain) {
  if (!plan.plain_differential) return;
  json record = {{"tests", json::array()}};
  if (plan.improved_against) record["baseline_results"] = plan.improved_against->generic_string();
  const auto judged = run_folder_tests(staging.directory);
  const auto improved =
      plan.improved_against ? improved_tests(run_folder_tests(*plan.improved_against), judged) : std::vector<std::string>{};
  const auto passed = passed_tests(judged);
  record["differences"] = plain_run_differences();
  if (passed.empty()) {
    record["reason"] = "no test passed under the launcher";
    staging.manifest["launcher_differential"] = std::move(record);
    return;
  }
  const auto numbers = ctest_console_results(util::read_file(staging.directory / "test.log"));
  std::map<std::string, std::pair<std::string, int>> results;  // test -> plain result, runs
  std::vector<std::string> pending;
  for (const auto& name : passed) {
    results[name] = {"not run", 0};
    if (numbers.count(name)) pending.push_back(name);
  }
  const double timeout = plan.budget.seconds(plan.config.test_timeout_seconds);
  const int rounds = std::max(1, plan.config.tests.attempts);
  fs::create_directories(staging.directory / "launcher-differential");
  for (int round = 1; round <= rounds && !pending.empty(); ++round) {
    const std::string relative = "launcher-differential/" + std::to_string(round) + ".log";
    progress.start("test plain");
    const PlainOutcome outcome = run_plain(pending, staging.directory / relative, timeout, "test without launcher");
    staging.add(relative, kPlainLogRole);
    std::vector<std::string> failing;
    for (const auto& name : pending) {
      auto& [result, runs] = results[name];
      ++runs;
      const auto found = outcome.results.find(name);
      result = found != outcome.results.end() ? found->second : (outcome.timed_out ? "timed out" : "failed");
      if (result != "passed") failing.push_back(name);
    }
    progress.finish(std::to_string(pending.size() - failing.size()) + " of " + std::to_string(pending.size()) +
                    " passed");
    pending = std::move(failing);
  }
  const std::set<std::string> improving(improved.begin(), improved.end());
  for (const auto& [name, result] : results)
    record["tests"].push_back({{"test", name},
                               {"judged", "passed"},
                               {"improved", improving.count(name) > 0},
                               {"plain", result.first},
                               {"plain_runs", result.second}});
  staging.manifest["launcher_differential"] = std::move(record);
}

}  // namespace hydra::capture
