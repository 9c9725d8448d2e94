// Framework reports in a capture (case_reports.hpp).
#include <hydra/capture/case_reports.hpp>
#include <hydra/capture/test_frameworks.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/pipeline/test_attempts.hpp>

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

}  // namespace hydra::capture
