// Framework reports in a capture (case_reports.hpp).
#include <hydra/capture/runners/case_reports.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/case_results.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/pipeline/test_attempts.hpp>

#include <algorithm>
#include <set>

namespace hydra::capture {
namespace fs = std::filesystem;

void write_test_program_plan(const std::string& ctest_json, const CaptureRequest& request, Staging& staging) {
  if (request.test_launcher.empty()) return;
  std::vector<model::TestDefinition> definitions;
  try {
    definitions = parse::parse_ctest_json(ctest_json, "ctest.json");
  } catch (const InputError&) {
    return;
  }
  staging.write(kTestProgramsFile, plan_test_programs(definitions, request.test_launcher).dump(1) + "\n",
                "test_programs");
}

std::map<std::string, std::string> case_report_environment(const Staging& staging, const fs::path& reports) {
  const fs::path plan = staging.directory / kTestProgramsFile;
  std::error_code error;
  if (!fs::is_regular_file(plan, error)) return {};
  fs::create_directories(reports, error);
  return {{kTestProgramsVariable, plan.string()}, {kTestReportsVariable, reports.string()}};
}

void add_case_reports(Staging& staging, const fs::path& reports) {
  std::error_code error;
  if (!fs::is_directory(reports, error)) return;
  for (const auto& entry : fs::directory_iterator(reports, error)) {
    if (!entry.is_regular_file(error)) continue;
    const std::string relative = entry.path().lexically_relative(staging.directory).generic_string();
    const std::string extension = entry.path().extension().string();
    std::string role = extension == ".xml" ? "case_report" : extension == ".launch" ? "case_launch" : "";
    if (role.empty()) continue;
    if (pipeline::attempt_number(relative) > 0) role = pipeline::attempt_role(role);
    staging.add(relative, role);
  }
}

namespace {

/// The identities of the cases of the first ctest run in `directory` (roles
/// `roles`: path -> role), by CTest test; none when its results do not parse.
std::map<std::string, std::set<std::string>> cases_by_test(const fs::path& directory,
                                                           const std::map<std::string, std::string>& roles) {
  std::map<std::string, std::set<std::string>> cases;
  const std::string junit = "junit/0.xml";
  if (roles.count(junit) == 0 || roles.at(junit) != "junit") return cases;
  try {
    model::Run ignored;
    const pipeline::CaseReports reports(directory, roles, ignored);
    const auto levels = reports.expand(junit, pipeline::parse_test_artifact("junit", directory / junit).tests);
    for (const auto& test : levels.cases)
      if (!test.program.empty()) cases[test.program].insert(test.id());
  } catch (const InputError&) {
    // Reported where the run is loaded.
  }
  return cases;
}

}  // namespace

std::vector<std::string> tests_with_new_cases(const Staging& staging, const fs::path& baseline_run,
                                              const model::RunManifest& baseline) {
  std::map<std::string, std::string> staged, baseline_roles;
  for (const auto& [path, role] : staging.roles.items())
    if (role.is_string()) staged[path] = role.get<std::string>();
  for (const auto& artifact : baseline.artifacts) baseline_roles[artifact.path] = artifact.role;
  const auto before = cases_by_test(baseline_run, baseline_roles);
  std::vector<std::string> tests;
  for (const auto& [test, ids] : cases_by_test(staging.directory, staged)) {
    const auto found = before.find(test);
    const bool adds = found == before.end() || std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
                        return found->second.count(id) == 0;
                      });
    if (adds) tests.push_back(test);
  }
  return tests;
}

}  // namespace hydra::capture
