// hydra-score apply: a scored candidate's stored change onto the working tree.
#include <cstdlib>
#include <iostream>

#include <hydra/apply/apply.hpp>
#include <hydra/cli/commands.hpp>
#include <hydra/cli/exit_codes.hpp>
#include <hydra/error.hpp>

namespace hydra::cli {

namespace {

bool environment_says_yes(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return false;
  const std::string text = value;
  return text == "1" || text == "ON" || text == "on" || text == "YES" || text == "yes" || text == "TRUE" ||
         text == "true";
}

}  // namespace

void register_apply(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "apply",
      "Apply a scored candidate's stored change (its run's diff.patch) to the working tree.\n"
      "A dry run unless --confirm (or HYDRA_APPLY_CONFIRM=1): checks and lists the files, writes nothing.");
  struct Options {
    std::string score, agent, source = ".";
    bool confirm = false, force = false;
  };
  auto options = std::make_shared<Options>();
  command->add_option("--score", options->score, "Score JSON written by `hydra-score score --json`")->required();
  command->add_option("--agent", options->agent,
                      "The candidate to apply (default: HYDRA_APPLY_AGENT, else the top-ranked one)");
  command->add_option("--source", options->source, "A directory of the git work tree to change (default: .)");
  command->add_flag("--confirm", options->confirm, "Write the change (default: a dry run; HYDRA_APPLY_CONFIRM=1 too)");
  command->add_flag("--force", options->force, "Apply a candidate that is not mergeable");
  command->callback([options, &exit_code] {
    apply::ApplyRequest request;
    request.score_file = options->score;
    request.agent = options->agent;
    if (request.agent.empty())
      if (const char* agent = std::getenv("HYDRA_APPLY_AGENT"); agent != nullptr) request.agent = agent;
    request.source = options->source;
    request.confirm = options->confirm || environment_says_yes("HYDRA_APPLY_CONFIRM");
    request.force = options->force;
    const apply::ApplyResult result = apply::apply_candidate(request);
    std::cout << (result.applied ? "Applied" : "Would apply") << " agent \"" << result.agent << "\" (rank "
              << result.rank << ", " << (result.mergeable ? "mergeable" : "NOT mergeable, forced") << ") from "
              << result.run.string() << "\nto " << result.work_tree.string() << " at "
              << result.base_commit.substr(0, 12) << ":\n";
    for (const auto& file : result.files) std::cout << "  " << file.status << "  " << file.path << "\n";
    std::cout << "check: applies cleanly to HEAD " << result.base_commit.substr(0, 12)
              << " (git apply --cached into a temporary index); the working tree has no other changes\n";
    if (!result.applied)
      std::cout << "dry run: nothing written; --confirm (or HYDRA_APPLY_CONFIRM=1) writes it\n";
    else
      std::cout << result.files.size() << " file(s) written to the working tree (the index is unchanged)\n";
    exit_code = status(ExitCode::success);
  });
}

}  // namespace hydra::cli
