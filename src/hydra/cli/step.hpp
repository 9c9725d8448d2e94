// The in-sandbox helpers' entry: the subcommands the capture runs inside the
// sandbox for every step and test, not listed in `--help`. hydra-score
// answers them through it (cli.cpp), and so does hydra-score-step
// (tool/step_main.cpp), which reaches nothing else of the library and so
// loads few libraries.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace hydra::cli {

/// The helper's file name: beside hydra-score in the build tree and once installed.
inline constexpr const char* kStepProgramName = "hydra-score-step";

/// Runs `argv[1]`: "run-step -- COMMAND...", the test launcher's or the
/// plain runner's subcommand. Returns the exit code (2, with a message, for
/// anything else).
int step_main(int argc, char** argv);

/// True when `argv[1]` names one of step_main's subcommands.
bool is_step_subcommand(const std::string& name);

/// The helper beside `self` (hydra-score), when it is an executable file there;
/// nullopt otherwise (hydra-score itself then serves).
std::optional<std::filesystem::path> step_program_beside(const std::filesystem::path& self);

/// What the capture runs inside the sandbox: the helper beside this
/// program, else this program (both answer step_main's subcommands);
/// nullopt when neither can be named.
std::optional<std::filesystem::path> in_sandbox_program();

}  // namespace hydra::cli
