// hydra-score: the command-line tool. All behaviour lives in the library;
// this file only hands the arguments over and returns the exit code.
#include <hydra/cli/cli.hpp>

int main(int argc, char** argv) { return hydra::cli::main(argc, argv); }
