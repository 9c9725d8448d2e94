// The compilers the build ran, read from its own commands (with the Ninja
// generator, `ninja -t commands`: every command of every edge, custom
// commands included), so that lint sees every unit the build compiled and
// not only those the codemodel knows (docs/threat-model.md, "The scorer's
// git: what is scored is what would be merged").
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <hydra/capture/lint/cache.hpp>

namespace hydra::capture {

/// Whether `program` (a command's first word) is a C or C++ compiler: one of
/// `compilers` (the toolchains' compilers CMake recorded, compared by path
/// and by file name) or named cc, c++, gcc, g++, clang or clang++, with a
/// target prefix (`x86_64-linux-gnu-g++`) or a version suffix (`clang-14`,
/// `g++-12`) or not. Pure.
bool is_compiler_program(const std::string& program, const std::vector<std::string>& compilers);

/// One compile command for each C or C++ source file a compiler invocation
/// of `lines` compiles (shell command lines as the build runs them; `cd DIR
/// &&` sets the folder of what follows, relative paths start in
/// `directory`). Invocations behind launchers (`ccache`, `sccache`,
/// `distcc`, `env`, `cmake -E env`, `NAME=value` assignments) count;
/// preprocessing-only ones (`-E`, `-M`, `-MM`) do not. A source is an input
/// with a C or C++ extension, or any input after `-x c`/`-x c++`; each
/// command keeps the invocation's arguments without its launchers and
/// without its other inputs. Pure.
std::vector<CompileCommand> compiler_invocations(const std::vector<std::string>& lines,
                                                 const std::vector<std::string>& compilers,
                                                 const std::filesystem::path& directory);

/// The compile commands of the compiler invocations among the build's own
/// commands (build-commands.txt in `staging_directory`, written after
/// configure; none without it), by `compilers` (is_compiler_program).
std::vector<CompileCommand> build_log_units(const std::filesystem::path& staging_directory,
                                            const std::vector<std::string>& compilers,
                                            const std::filesystem::path& build_dir);

/// The files the build compiled or its objects depend on (Ninja's deps log):
/// the suppression detector reads them as code whatever their names.
std::set<std::filesystem::path> built_files(const std::vector<std::filesystem::path>& units,
                                            const std::vector<CompileCommand>& compiled,
                                            const std::filesystem::path& build_dir);

}  // namespace hydra::capture
