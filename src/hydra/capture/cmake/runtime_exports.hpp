// What the C and C++ runtime libraries a build's compiler links against
// export (binutils `nm -D`): the object scan (object_references.hpp) finds
// code that defines the same names (interposition). Read once per compiler
// in a process; a capture reads them beside its build, and keeps them in
// its caches' folder for later captures. The compiler is the user's.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <hydra/parse/cmake_cache.hpp>

namespace hydra::capture {

/// The compiler whose runtime libraries HydraScore lists, running it outside
/// the sandbox (`-print-file-name`): the one the user named (the initial
/// cache's CMAKE_CXX_COMPILER, else its CMAKE_C_COMPILER, else $CXX, else
/// $CC), else `c++` on PATH; never one the tree's configure or test programs
/// wrote into the build tree's cache (the tree's code runs only in the
/// sandbox). Empty when there is none.
std::string user_compiler(const parse::CMakeCache& initial_cache);

/// The names (mangled, versions dropped) the runtime libraries of
/// `compiler` export (libc, libm, libpthread, libdl, libstdc++, libgcc_s and
/// the loader, as `compiler -print-file-name` finds them); read once per
/// compiler in a process. With `cache_dir`, kept there too
/// (exported_names_kept). None for an empty `compiler`.
std::set<std::string> runtime_exports(const std::string& compiler, const std::filesystem::path& nm,
                                      const std::optional<std::filesystem::path>& cache_dir = std::nullopt);

/// runtime_exports with the `nm` on PATH, its answer kept for the rest of
/// the process: scan_object_references needs it and finds it read. It
/// depends on the compiler only, so a capture reads it beside its build.
/// `cache_dir`: the captures' caches, which no step sees.
void read_runtime_exports(const std::string& compiler, const std::optional<std::filesystem::path>& cache_dir);

/// The names (mangled, versions dropped) `nm` lists as defined by the
/// shared `libraries` (`nm -D --defined-only`). With `cache_dir`, read from
/// or kept in `<cache_dir>/runtime-exports/`, under the identity of the
/// libraries and of nm (path, device and inode, size, modification and
/// status-change times): a library replaced, rewritten or touched is read
/// again. Kept only when nm read every library.
std::set<std::string> exported_names_kept(const std::vector<std::filesystem::path>& libraries,
                                          const std::filesystem::path& nm,
                                          const std::optional<std::filesystem::path>& cache_dir);

}  // namespace hydra::capture
