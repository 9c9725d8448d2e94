#include <hydra/cli/cli.hpp>

#include <iostream>

#include <CLI/CLI.hpp>

#include <hydra/error.hpp>
#include <hydra/version.hpp>

namespace hydra::cli {

int main(int argc, char** argv) {
  CLI::App app{"hydra-score: reproducible scores for code changes"};
  app.set_version_flag("--version", std::string(engine_version));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : static_cast<int>(ExitCode::usage);
  }
  return 0;
}

}  // namespace hydra::cli
