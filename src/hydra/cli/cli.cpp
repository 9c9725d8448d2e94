#include <hydra/cli/cli.hpp>

#include <iostream>

#include <CLI/CLI.hpp>

#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/runners/test_launcher.hpp>
#include <hydra/cli/commands.hpp>
#include <hydra/error.hpp>
#include <hydra/version.hpp>

namespace hydra::cli {

namespace {

constexpr const char* kExitCodes = R"(Exit codes:
  0  success (score: the top candidate is mergeable; compare: improved)
  1  internal error
  2  bad usage, or an unreadable or malformed input file
  3  score: the top-ranked candidate is not mergeable; apply: the candidate is not mergeable (no --force)
  4  compare: regressed
  5  compare: neutral (no meaningful change; never promotes)
  6  replay: re-scoring gave different output
  7  a run directory's sealed artifacts do not match their digests
  8  capture/loop: a step could not be run
  9  apply: refused (the working tree has changes, its base moved, or the change does not apply))";

}  // namespace

int main(int argc, char** argv) {
  // The test launcher of capture trees takes its arguments as they are.
  if (argc >= 2 && std::string(argv[1]) == capture::kLauncherSubcommand)
    return capture::run_test_launcher(std::vector<std::string>(argv + 2, argv + argc));
  CLI::App app{"hydra-score: reproducible scores for code changes in CMake projects"};
  app.set_version_flag("--version", std::string(engine_version));
  app.footer(kExitCodes);
  app.require_subcommand(1);
  int exit_code = static_cast<int>(ExitCode::success);
  for (Register add : {&register_record, &register_score, &register_replay, &register_capture,
                       &register_compare, &register_loop, &register_apply, &register_record_results,
                       &register_leaderboard, &register_run_step}) {
    add(app, exit_code);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    std::cout << engine_version << "\n";
    return 0;
  } catch (const CLI::ParseError& error) {
    std::cerr << "hydra-score: " << error.what() << "\n"
              << "Run 'hydra-score --help' for usage.\n";
    return static_cast<int>(ExitCode::usage);
  } catch (const InputError& error) {
    std::cerr << "hydra-score: error: " << error.what() << "\n";
    return static_cast<int>(error.code());
  } catch (const Error& error) {
    std::cerr << "hydra-score: error: " << error.what() << "\n";
    return static_cast<int>(error.code());
  } catch (const std::exception& error) {
    std::cerr << "hydra-score: internal error: " << error.what() << "\n";
    return static_cast<int>(ExitCode::internal);
  }
  return exit_code;
}

}  // namespace hydra::cli
