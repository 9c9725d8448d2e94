// What clang-tidy lints and with which compile commands, so that lint sees
// every line the change adds (docs/threat-model.md, "Lint sees what
// suppressions hide"):
//  - the units are the compiled C and C++ sources of the build's targets
//    (the codemodel, read right after configure), generated ones included
//    (a configure_file output or a custom command's in the build tree),
//    whether or not compile_commands.json lists them (a target with
//    EXPORT_COMPILE_COMMANDS OFF): a unit it does not list gets a command
//    made from its compile group;
//  - the units the build's own commands compiled that neither lists (a
//    custom command calling the compiler directly) get that command;
//  - the project's own include directories given as SYSTEM (`-isystem`,
//    where clang-tidy reports nothing) are given as `-I`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/lint/cache.hpp>
#include <hydra/model/build_targets.hpp>

namespace hydra::capture {

/// Whether `file` is a build-tree file the project made (not CMake's own
/// CMakeFiles/, fetched dependencies in _deps/, AUTOMOC's *_autogen/ or
/// HydraScore's .hydra/ and .hydra-lint-view/ folders). Pure.
bool is_project_generated(const std::filesystem::path& file, const std::filesystem::path& build);

/// What of `arguments` decides the code the preprocessor makes: macro
/// definitions, forced includes, include paths and the language standard,
/// in order (a value given as the next argument joined to its option).
/// Pure.
std::vector<std::string> preprocessor_signature(const std::vector<std::string>& arguments);

struct LintDatabase {
  nlohmann::json commands = nlohmann::json::array();  ///< compile_commands.json for `-p`, "arguments" form
  std::vector<std::filesystem::path> units;          ///< what clang-tidy lints, sorted
  std::vector<std::string> made_from_codemodel;      ///< units compile_commands.json did not list
  std::vector<std::string> made_from_build_commands;  ///< units only the build's own commands compiled, sorted
  /// Units the build's own commands compiled once more with other macros or
  /// include paths (a custom command compiling a source again): each command
  /// is linted (clang-tidy runs every command the database has for a file), sorted.
  std::vector<std::string> compiled_again;
  std::vector<std::string> system_made_user;         ///< project include directories linted as -I, sorted
};

/// The lint database of a tree configured from `source` into `build`:
/// `compile_commands` (compile_commands.json) with the project's SYSTEM
/// include directories made ordinary and the missing units added from
/// `targets`, then from `compiled` (the compiler invocations of the build's
/// own commands, lint/build_commands.hpp: a custom command that calls the
/// compiler directly). Units are inside `source` (outside `excluded` and the
/// `lint_exclude` patterns) or project-generated files of `build`. Pure.
LintDatabase lint_database(const nlohmann::json& compile_commands, const model::BuildTargets& targets,
                           const std::filesystem::path& source, const std::filesystem::path& build,
                           const std::vector<std::filesystem::path>& excluded,
                           const std::vector<std::string>& lint_exclude,
                           const std::vector<CompileCommand>& compiled = {});

}  // namespace hydra::capture
