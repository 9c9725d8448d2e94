// A candidate's own compiler cache (docs/caches.md, "A candidate's own
// objects"): what the compiler produced in a candidate's build step, kept for
// its own held-out builds, which compile most of the same units again.
//
// The trust argument (docs/threat-model.md, "Caches"): when the change
// touches no file the build system is made of and the build runs no program
// of the trees' own, the build step only runs the compiler and the linker on
// the tree's files, so what ccache stores then is what the compiler made of
// them. The test step that follows runs the candidate's code, which may
// write anything it can reach; so the cache is a folder of the capture's
// staging directory, made by HydraScore outside the sandbox, writable in the
// build step only, hidden from every other step but the held-out builds,
// which read it and never write it.
//
// How: ccache reads the baseline's local cache read-only and, on a miss,
// runs the compiler through its prefix command (CCACHE_PREFIX), a script of
// that folder that runs ccache again, on a `file:` storage of the folder
// alone: in the candidate's build writing (what the compiler compiled), in
// a held-out build reading. Both compute the key of the same command line,
// so a held-out unit that preprocesses to what a candidate's unit did is
// served its object.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace hydra::capture {

struct CompilerCache;

/// What decides whether a candidate's build may fill its own cache.
struct OwnCacheInputs {
  /// The files the change touches (both sides of a rename), relative to the
  /// work tree's top.
  std::vector<std::string> changed;
  std::filesystem::path top;    ///< the work tree's top, where the steps see it
  std::filesystem::path build;  ///< the build tree, where the steps see it
  /// The files the configure read (configure_inputs), as cmake saw them.
  std::set<std::string> configure_inputs;
  /// Every command the build runs (build_command_lines, `ninja -t commands`).
  std::vector<std::string> commands;
  std::string launcher;  ///< the compiler cache's program, the compilations' first word
};

/// Why the build of `inputs` may not fill a cache its held-out builds trust;
/// empty when it may. It may not when the change touches a build-system
/// file (a CMakeLists.txt, a *.cmake file, CMake presets, or any file the
/// configure read), when the build's commands are unknown (not Ninja), or
/// when a command runs what the trees hold: a program in the build tree or
/// a file of the change, a command that names a file of the change (other
/// than a compilation, whose source it is), or any command but a link that
/// names what a link of the build makes (a program run by an interpreter, a
/// compiler plugin, a preloaded library). Pure.
std::string own_cache_refusal(const OwnCacheInputs& inputs);

/// The folder of a capture's own cache in its staging directory `staging`.
std::filesystem::path own_cache_folder(const std::filesystem::path& staging);

/// Readies `cache` (a candidate's ccache, used) to store what its build
/// compiles into `folder` (emptied first): CCACHE_PREFIX is a script of
/// `folder` that runs ccache on `folder`/store alone. `seen` maps a path to
/// where the build step sees it; `seen_build` is the build tree there.
/// Adds to `writable` what the build step must write (`folder`/store and
/// `folder`/local), to `readable` the folder. Returns why not (leaving
/// `cache` as it was) when a path cannot be written in ccache's settings (a
/// space, a '|'); empty when ready.
std::string prepare_own_cache_writer(CompilerCache& cache, const std::filesystem::path& folder,
                              const std::filesystem::path& seen_folder, const std::filesystem::path& seen_build,
                              std::vector<std::filesystem::path>& writable,
                              std::vector<std::filesystem::path>& readable);

/// Readies `cache` (a held-out build's ccache, used) to read what the
/// candidate's build stored in `folder`, never writing it: the script, its
/// ccache read-only, its statistics in `build_dir` (seen at `seen_build`).
/// Adds the folder to `readable`. Returns why not, as the writer does.
std::string prepare_own_cache_reader(CompilerCache& cache, const std::filesystem::path& folder,
                              const std::filesystem::path& seen_folder, const std::filesystem::path& build_dir,
                              const std::filesystem::path& seen_build,
                              std::vector<std::filesystem::path>& readable);

}  // namespace hydra::capture
