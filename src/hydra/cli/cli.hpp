// The hydra-score command line. Reference: docs/cli.md.
#pragma once

namespace hydra::cli {

/// Parses `argv`, runs the subcommand, and maps what it threw or returned
/// to the exit code (cli/exit_codes.hpp). Never throws.
int main(int argc, char** argv);

}  // namespace hydra::cli
