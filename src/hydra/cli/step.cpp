// The in-sandbox helpers' entry (step.hpp).
#include <hydra/cli/step.hpp>

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <hydra/capture/runners/plain_runner.hpp>
#include <hydra/capture/runners/plain_tests.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/runners/test_launcher.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/reaper.hpp>

namespace hydra::cli {

bool is_step_subcommand(const std::string& name) {
  return name == "run-step" || name == capture::kLauncherSubcommand || name == capture::kPlainSubcommand;
}

int step_main(int argc, char** argv) {
  const std::string name = argc >= 2 ? argv[1] : "";
  const std::vector<std::string> rest(argv + std::min(argc, 2), argv + argc);
  if (name == capture::kLauncherSubcommand) return capture::run_test_launcher(rest);
  if (name == capture::kPlainSubcommand) return capture::run_plain_tests(rest);
  if (name == "run-step" && !rest.empty() && rest.front() == "--" && rest.size() > 1)
    return util::run_reaped(std::vector<std::string>(rest.begin() + 1, rest.end()));
  const std::string program = argc >= 1 ? std::filesystem::path(argv[0]).filename().string() : kStepProgramName;
  std::cerr << program << ": usage: " << program << " run-step -- COMMAND... | "
            << capture::kLauncherSubcommand << " ... | " << capture::kPlainSubcommand
            << " PLAN (run by hydra-score inside its sandbox)\n";
  return 2;
}

std::optional<std::filesystem::path> step_program_beside(const std::filesystem::path& self) {
  const std::filesystem::path beside = self.parent_path() / kStepProgramName;
  std::error_code error;
  if (std::filesystem::is_regular_file(beside, error) && ::access(beside.c_str(), X_OK) == 0) return beside;
  return std::nullopt;
}

std::optional<std::filesystem::path> in_sandbox_program() {
  const auto self = util::current_executable();
  if (!self) return std::nullopt;
  return step_program_beside(*self).value_or(*self);
}

}  // namespace hydra::cli
