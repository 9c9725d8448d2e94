// hydra-score-step: what the capture runs inside the sandbox, many times per
// capture (docs/threat-model.md, "What candidate code can reach"): the step
// reaper (`run-step`), the test launcher and the plain runner. The same
// subcommands hydra-score has, in a program that loads only what they need,
// so that each start costs a fraction of hydra-score's.
#include <hydra/cli/step.hpp>

int main(int argc, char** argv) { return hydra::cli::step_main(argc, argv); }
