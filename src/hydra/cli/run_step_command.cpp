// hydra-score run-step -- COMMAND...: the step reaper (util/reaper.hpp). Not
// for people: the capture runs every step's command this way, inside the
// sandbox, so what the command's programs leave running ends with them.
#include <hydra/cli/commands.hpp>
#include <hydra/util/reaper.hpp>

namespace hydra::cli {

void register_run_step(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("run-step", "Run a capture step's command under the step reaper (internal)");
  command->group("");  // not listed in --help
  auto arguments = std::make_shared<std::vector<std::string>>();
  command->add_option("command", *arguments, "The command and its arguments (after --)")->required();
  command->callback([arguments, &exit_code] { exit_code = util::run_reaped(*arguments); });
}

}  // namespace hydra::cli
