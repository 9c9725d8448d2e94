#include <hydra/cli/cli.hpp>

#include <iostream>

#include <CLI/CLI.hpp>

#include <hydra/capture/runners/plain_runner.hpp>
#include <hydra/capture/runners/plain_tests.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/runners/test_launcher.hpp>
#include <hydra/cli/commands.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>
#include <hydra/version.hpp>

namespace hydra::cli {

void register_commands(CLI::App& app, int& exit_code) {
  for (Register add : {&register_record, &register_score, &register_replay, &register_capture,
                       &register_compare, &register_loop, &register_apply, &register_record_results,
                       &register_leaderboard, &register_run_step}) {
    add(app, exit_code);
  }
}

int main(int argc, char** argv) {
  // The test launcher of capture trees takes its arguments as they are.
  if (argc >= 2 && std::string(argv[1]) == capture::kLauncherSubcommand)
    return capture::run_test_launcher(std::vector<std::string>(argv + 2, argv + argc));
  // So does the plain runner of the launcher differential.
  if (argc >= 2 && std::string(argv[1]) == capture::kPlainSubcommand)
    return capture::run_plain_tests(std::vector<std::string>(argv + 2, argv + argc));
  CLI::App app{"hydra-score: reproducible scores for code changes in CMake projects"};
  app.set_version_flag("--version", std::string(engine_version));
  app.footer(exit_code_help());
  app.require_subcommand(1);
  int exit_code = status(ExitCode::success);
  register_commands(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return status(ExitCode::success);
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return status(ExitCode::success);
  } catch (const CLI::CallForVersion&) {
    std::cout << engine_version << "\n";
    return status(ExitCode::success);
  } catch (const CLI::ParseError& error) {
    std::cerr << "hydra-score: " << error.what() << "\n"
              << "Run 'hydra-score --help' for usage.\n";
    return status(exit_code_of(error));
  } catch (const std::exception& error) {
    // What went wrong decides the exit code (exit_codes.hpp); an exception
    // the library did not throw on purpose is a bug.
    const bool on_purpose = dynamic_cast<const Error*>(&error) != nullptr;
    std::cerr << "hydra-score: " << (on_purpose ? "error: " : "internal error: ") << error.what() << "\n";
    return status(exit_code_of(error));
  }
  return exit_code;
}

}  // namespace hydra::cli
