// What one step that runs a tree's code may read, write and reach, as data
// (docs/threat-model.md, "What candidate code can reach"). The capture
// builds one policy per step (which trees it works in, which caches it may
// use, what is hidden from it, its environment, network and limits),
// Sandbox::wrap turns it into a bubblewrap command line, and the run's
// manifest records it with the step, so what a candidate's code could reach
// is on record.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/parse/cmake_cache.hpp>
#include <hydra/config/settings.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

/// One path as a step sees it. The most specific path wins: mounts are made
/// shallowest path first (a read-only or hidden path inside a writable tree,
/// a writable one inside that again); at one path, a later mount replaces
/// an earlier one. Everything no mount names is read-only.
struct Mount {
  enum class Access {
    read_write,  ///< `source` is writable at `path`
    read_only,   ///< `source` is readable at `path`
    hidden,      ///< an empty read-only folder (or, for a file, a device node no step may open) at `path`: nothing of what is there can be read
    symlink,     ///< a symbolic link at `path` whose target is `source` (as the tree has it, resolved inside the sandbox)
  };
  Access access = Access::read_only;
  std::filesystem::path path;    ///< where the step sees it
  std::filesystem::path source;  ///< what it sees there; empty: `path` itself (`hidden`: what is hidden, whose kind, folder or file, decides how; `symlink`: the link's target)

  /// `source`, or `path` when no other source is named.
  const std::filesystem::path& origin() const { return source.empty() ? path : source; }
};

/// Resource limits of one step (util::ResourceLimits: a control group where
/// the machine allows one, RLIMIT_* otherwise).
using StepLimits = util::ResourceLimits;

/// What one step may read, write and reach.
struct StepPolicy {
  std::string step;            ///< "configure", "build", "test", "held-out build", ... (for the record)
  std::vector<Mount> mounts;   ///< see Mount: the most specific path wins
  std::filesystem::path temporary;  ///< TMPDIR: writable, emptied per capture
  /// HOME: an empty folder of the step's own (the user's home is hidden);
  /// writable, emptied per capture.
  std::filesystem::path home;
  std::filesystem::path working_directory;  ///< where the step starts, as it sees it; empty: unchanged
  /// The step's whole environment: the allowlist of step_environment() and
  /// what the step sets itself (CCACHE_*, the test runners' settings, ...).
  /// Nothing else of HydraScore's own environment reaches the step.
  std::map<std::string, std::string> environment;
  bool network = false;  ///< false: only a private loopback (a network namespace of its own)
  StepLimits limits;
  /// The command runs under the step reaper (util/reaper.hpp): what its
  /// programs leave running when they end is killed then.
  bool reaped = true;

  /// Adds a mount (over the ones before it at the same path).
  void add(Mount::Access access, std::filesystem::path path, std::filesystem::path source = {}) {
    mounts.push_back({access, std::move(path), std::move(source)});
  }
  /// The manifest's record of this policy (paths as the step sees them; the
  /// environment by name only, its values may be secrets the user passed).
  nlohmann::json to_json() const;
};

/// The environment of a step that runs a tree's code: from `inherited`
/// (HydraScore's own environment), only the variables compilers, CMake,
/// CTest, cargo, npm, pytest and the locale need (docs/config.md,
/// "[sandbox]") and those `settings.environment` names; HOME set to `home`,
/// TMPDIR to `temporary`, and the tool homes the step may read at their own
/// paths (RUSTUP_HOME, PYENV_ROOT, PYTHONUSERBASE; CARGO_HOME inside `home`).
/// `user_home` is the user's home folder (HOME in `inherited`). Pure.
std::map<std::string, std::string> step_environment(const config::SandboxSettings& settings,
                                                    const std::map<std::string, std::string>& inherited,
                                                    const std::filesystem::path& home,
                                                    const std::filesystem::path& temporary);

/// HydraScore's own environment (environ) as a map.
std::map<std::string, std::string> current_environment();

/// The paths no step that runs a tree's code may read, whatever the plan
/// (docs/threat-model.md): the user's home and every home, the temporary and
/// runtime folders (other programs' files and sockets: an SSH agent, a
/// container engine's socket, a desktop session), removable media, and
/// `settings.hidden`. `inherited` gives HOME.
std::vector<std::filesystem::path> hidden_system_paths(const config::SandboxSettings& settings,
                                                       const std::map<std::string, std::string>& inherited);

/// What a step may still read inside the hidden paths: what its environment
/// (step_environment) points at, but its own HOME and TMPDIR (the folders on
/// PATH and the `lib` beside a `bin`, CMAKE_PREFIX_PATH and the compilers'
/// search paths, rustup's toolchains, pyenv's Pythons, the Python user base's
/// `lib`), cargo's registry and git checkouts mounted read-only inside
/// `home`, `settings.read_only`, and `extra` (what the user's cache entries
/// point at). Each as a mount; only those inside one of `hidden` (but
/// `settings.read_only` and cargo's, always).
std::vector<Mount> tool_mounts(const config::SandboxSettings& settings,
                               const std::map<std::string, std::string>& inherited, const std::filesystem::path& home,
                               const std::vector<std::filesystem::path>& hidden,
                               const std::vector<std::filesystem::path>& extra);

/// The existing absolute paths the cache entries of an initial-cache script
/// (`cmake -C`, as cmake/HydraScore.cmake writes it; parse_initial_cache)
/// point at: entries of type PATH or FILEPATH and those named *_DIR, *_ROOT,
/// *_PATH or *_FILE, each ';'-separated value. Reads only whether each exists.
std::vector<std::filesystem::path> initial_cache_paths(const parse::CMakeCache& initial_cache);

/// Empties (or makes) a step's temporary folder `temporary` and its home
/// folder beside it (home_folder_of).
void prepare_step_folders(const std::filesystem::path& temporary);
/// The home folder of steps whose TMPDIR is `temporary`: ".hydra-home" beside it.
std::filesystem::path home_folder_of(const std::filesystem::path& temporary);

/// The limits of `settings` for a step ([sandbox] memory_megabytes,
/// cpu_seconds, processes; a memory limit not given: half of
/// `machine_memory_bytes`). Pure.
StepLimits step_limits(const config::SandboxSettings& settings, std::uint64_t machine_memory_bytes);

/// Paths whose hiding would hide the system itself (/, /usr, /proc, ...). Pure.
bool is_system_root(const std::filesystem::path& path);

/// Where a step sees `path` (a path on HydraScore's side): inside the origin
/// of one of `tree_mounts` (the last that holds it), at that mount's path;
/// otherwise `path` itself. Pure.
std::filesystem::path seen_path(const std::vector<Mount>& tree_mounts, const std::filesystem::path& path);

/// The mounts that show a tree's copy at the place of another (the held-out
/// trees at the candidate's paths, docs/threat-model.md): `top` (the work
/// tree's top, or the source tree) read-only from `top_origin`, then each of
/// `kept` inside `top` (HydraScore's own folders there: build trees, run
/// directories, caches) read-only at its own path again, then `build`
/// writable from `build_origin`. Pure.
std::vector<Mount> tree_view_mounts(const std::filesystem::path& top, const std::filesystem::path& top_origin,
                                    const std::filesystem::path& build, const std::filesystem::path& build_origin,
                                    const std::vector<std::filesystem::path>& kept);

}  // namespace hydra::capture
