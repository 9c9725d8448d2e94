// The in-sandbox helper (hydra::cli::step_main, the program hydra-score-step):
// what the capture runs inside the sandbox answers as hydra-score does.
#include <catch2/catch.hpp>

#include <string>

#include <hydra/cli/step.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kTool = HYDRA_TOOL_PATH;

hydra::util::ProcessResult run(const fs::path& program, std::vector<std::string> arguments) {
  hydra::util::ProcessRequest request;
  request.argv = {program.string()};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  request.timeout = std::chrono::seconds(60);
  return hydra::util::run_process(request);
}

}  // namespace

TEST_CASE("the in-sandbox helper is found beside hydra-score, and only there", "[cli]") {
  const auto helper = hydra::cli::step_program_beside(kTool);
  REQUIRE(helper);
  CHECK(*helper == kTool.parent_path() / hydra::cli::kStepProgramName);
  hydra::util::TempDir empty("hydra-step");
  CHECK_FALSE(hydra::cli::step_program_beside(empty.path() / "hydra-score"));
  // A file of that name that cannot run is not taken.
  hydra::util::write_file_atomic(empty.path() / hydra::cli::kStepProgramName, "#!/bin/sh\n");
  CHECK_FALSE(hydra::cli::step_program_beside(empty.path() / "hydra-score"));
}

TEST_CASE("the in-sandbox helper answers run-step and the plain runner as hydra-score does", "[cli]") {
  const auto helper = hydra::cli::step_program_beside(kTool);
  REQUIRE(helper);
  for (const fs::path& program : {kTool, *helper}) {
    INFO(program.string());
    CHECK(run(program, {"run-step", "--", "/bin/sh", "-c", "exit 5"}).exit_code == 5);
    const auto missing = run(program, {"run-step", "--", "/nonexistent/program"});
    CHECK(missing.exit_code == 127);
    CHECK(missing.output.find("cannot run /nonexistent/program") != std::string::npos);
    // The plain runner refuses a plan it cannot read, naming it.
    const auto plain = run(program, {"test-plain", "/nonexistent/plan.json"});
    CHECK(plain.exit_code == 2);
    CHECK(plain.output.find("/nonexistent/plan.json") != std::string::npos);
  }
  // Nothing else: a usage message and exit 2.
  const auto other = run(*helper, {"capture"});
  CHECK(other.exit_code == 2);
  CHECK(other.output.find("usage: hydra-score-step") != std::string::npos);
}
