// The CMake File API's answer about a configured build tree: the codemodel
// (targets, their sources and compile and link settings) and the toolchains
// (each language's compiler), read right after HydraScore's configure step,
// before the tree's own build steps run and could rewrite it
// (docs/threat-model.md, "Held-out evaluation").
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <vector>
#include <string>

#include <hydra/model/build_targets.hpp>

namespace hydra::capture {

/// Writes the File API queries HydraScore reads (codemodel-v2, toolchains-v1)
/// into `build_dir`; returns true when one was not there yet (the tree must
/// be configured again for its answer).
bool write_file_api_queries(const std::filesystem::path& build_dir);

/// The targets of the reply in `build_dir` (the folder on HydraScore's side;
/// the paths inside are as the build saw them), for the configuration
/// `build_config` (multi-config generators; empty: the first). Never throws
/// for a missing or malformed reply: `problem` says why.
model::BuildTargets read_build_targets(const std::filesystem::path& build_dir, const std::string& build_config);

/// Fills each executable's `build_commands` from the Ninja build files of
/// `build_dir` (`ninja -t commands`, which reads them and runs nothing),
/// without a leading `launcher` (HydraScore's compiler cache; empty: none).
/// Leaves them empty for other generators or when ninja cannot answer.
void add_build_commands(model::BuildTargets& targets, const std::filesystem::path& build_dir,
                        const std::string& launcher);

/// Every command the Ninja build files of `build_dir` would run to build
/// the default targets (`ninja -t commands`, which reads them and runs
/// nothing), one a line, custom commands included. Empty for other
/// generators or when ninja cannot answer.
std::vector<std::string> build_command_lines(const std::filesystem::path& build_dir);

/// The output of `ninja -C build_dir -t <tool...>` (a Ninja tool reads the
/// build files and logs and runs nothing); nullopt for other generators or
/// when ninja cannot answer.
std::optional<std::string> ninja_tool(const std::filesystem::path& build_dir, const std::vector<std::string>& tool);

/// Which targets' objects include each header, from the Ninja deps log of
/// the built tree `build_dir` (`ninja -t deps`): header path as the
/// compiler saw it (absolute, or relative to the build tree) -> the names of
/// the targets whose objects depend on it. Empty for other generators, or
/// when the log cannot be read.
std::map<std::string, std::set<std::string>> header_users(const std::filesystem::path& build_dir);

/// The files the configure step read (the inputs of build.ninja's own
/// rule, `ninja -t query build.ninja`: every CMake file, and what
/// `configure_file` read), as cmake saw them. Empty for other generators.
std::set<std::string> configure_inputs(const std::filesystem::path& build_dir);

/// A header of the source tree that some object of the build depends on
/// while a file of the same name (the same trailing path) lies in one of the
/// compilers' implicit include directories: it shadows that system or
/// standard header for every source that finds it first.
struct ShadowingHeader {
  std::string header;   ///< relative to the source tree
  std::string shadows;  ///< the system file of the same name
};

/// The shadowing headers of the built tree `build_dir` (Ninja deps log, as
/// header_users), whose steps saw the source tree at `seen_source` and the
/// build tree at `seen_build`; the implicit include directories are CMake's
/// record of the C and C++ compilers (CMakeFiles/<version>/CMake*Compiler.cmake).
/// Empty for other generators.
std::vector<ShadowingHeader> shadowing_headers(const std::filesystem::path& build_dir,
                                               const std::filesystem::path& seen_source,
                                               const std::filesystem::path& seen_build);

}  // namespace hydra::capture
