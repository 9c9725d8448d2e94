// docs/cli.md documents every option of every command: the options each
// command registers (cli/*_command.cpp) against the text of the command's
// sections ("## `hydra-score NAME`" and any section whose title starts so).
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <string>

#include <CLI/CLI.hpp>

#include <hydra/cli/commands.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

namespace {

/// The text of every section of `reference` whose heading starts with
/// "## `hydra-score COMMAND`".
std::string sections_of(const std::string& reference, const std::string& command) {
  const std::string heading = "\n## `hydra-score " + command + "`";
  std::string text;
  for (auto start = reference.find(heading); start != std::string::npos; start = reference.find(heading, start + 1)) {
    const auto end = reference.find("\n## ", start + 1);
    text += reference.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }
  return text;
}

}  // namespace

TEST_CASE("docs/cli.md names every option of every command", "[cli]") {
  CLI::App app{"hydra-score"};
  int exit_code = 0;
  hydra::cli::register_commands(app, exit_code);
  const std::string reference =
      hydra::util::read_file(std::filesystem::path(HYDRA_SOURCE_DIR) / "docs" / "cli.md");
  std::size_t commands = 0;
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->get_group().empty()) continue;  // hidden
    ++commands;
    const std::string name = command->get_name();
    CAPTURE(name);
    const std::string documented = sections_of(reference, name);
    CHECK_FALSE(documented.empty());
    for (const CLI::Option* option : command->get_options()) {
      for (const std::string& long_name : option->get_lnames()) {
        if (long_name == "help") continue;
        const std::string flag = "--" + long_name;
        CAPTURE(flag);
        // The flag as a word: "--task" is not found in "--task-set".
        CHECK(std::regex_search(documented, std::regex(flag + "(?![a-z-])")));
      }
    }
  }
  CHECK(commands == 9);
}
