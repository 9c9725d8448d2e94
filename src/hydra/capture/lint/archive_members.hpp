// Every object in the project's libraries is one lint knows (docs/threat-model.md,
// "The scorer's git", lint that never sees the code): a step of the build can
// compile code lint never sees (a nested CMake project configured and built
// by a post-build step, its compile commands only in its own build.ninja) and
// add the object to a library of the project (`ar rs`). After the build, each
// static library the codemodel lists as an artifact is read member by member,
// and each member's sha256 must be that of an object a compile command lint
// knows wrote (compile_commands.json, the compiler invocations of the build's
// own commands, build-commands.txt): honest CMake archives hold exactly their
// targets' objects, those of OBJECT libraries and `$<TARGET_OBJECTS>` and of
// unity sources included, all compiled by commands compile_commands.json lists.
#pragma once

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/lint/cache.hpp>

namespace hydra::capture {

/// One member of an `ar` archive: its name and where its bytes are.
struct ArchiveMember {
  std::string name;
  std::size_t offset = 0;  ///< of its bytes in the archive (none in a thin archive)
  std::size_t size = 0;
};

/// The members of an archive.
struct ArchiveListing {
  bool thin = false;  ///< `!<thin>`: members are files named relative to the archive's folder
  std::vector<ArchiveMember> members;
  std::string problem;  ///< not an archive, or cut short
};

/// The members of the `ar` archive `bytes` (System V/GNU with its long-name
/// table, BSD `#1/N` names, thin archives), without the symbol tables and
/// the long-name table. Pure.
ArchiveListing list_archive(std::string_view bytes);

/// The object files `commands` write (`-o FILE`, `-oFILE`; relative to each
/// command's directory), absolute and clean. Pure.
std::set<std::filesystem::path> compiled_objects(const std::vector<CompileCommand>& commands);

/// After a build of `plan` that passed: checks the members of its static
/// libraries against the objects of the compile commands lint knows and
/// records manifest.json's `archive_members` ({"archives": N, "members": M,
/// "unknown": [{"archive", "member"}]} or {"problem": why}); a member of a
/// candidate's archive that no such command wrote is a problem.
void check_archive_members(const Plan& plan, Staging& staging);

}  // namespace hydra::capture
