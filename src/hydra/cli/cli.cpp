#include <hydra/cli/cli.hpp>

#include <iostream>

#include <CLI/CLI.hpp>

#include <hydra/cli/commands.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/cli/step.hpp>
#include <hydra/error.hpp>
#include <hydra/version.hpp>

namespace hydra::cli {

void register_commands(CLI::App& app, int& exit_code) {
  for (Register add : {&register_record, &register_score, &register_replay, &register_capture,
                       &register_compare, &register_loop, &register_apply, &register_record_results,
                       &register_leaderboard}) {
    add(app, exit_code);
  }
}

int main(int argc, char** argv) {
  // What the capture runs inside the sandbox (the step reaper, the test
  // launcher, the plain runner) takes its arguments as they are (step.hpp).
  if (argc >= 2 && is_step_subcommand(argv[1])) return step_main(argc, argv);
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
