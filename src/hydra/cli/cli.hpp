// The hydra-score command line. Reference: docs/cli.md.
#pragma once

namespace hydra::cli {

/// Parses `argv`, runs the subcommand, maps errors to exit codes (see
/// hydra::ExitCode). Never throws.
int main(int argc, char** argv);

}  // namespace hydra::cli
