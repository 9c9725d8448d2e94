// The compiler cache of capture trees: ccache as the compiler launcher, so
// the trees of one output directory (baseline, candidates, held-out and loop
// trees) share compiled objects (docs/run-directory.md, "Caches").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::capture {

struct Plan;
struct CaptureRequest;

/// How one build step uses ccache.
struct CompilerCache {
  bool used = false;
  /// The tree's code may read the cache but never write it: a candidate's
  /// build (its CMake code and compiler runs) could otherwise plant objects
  /// that later compilations (its own held-out run, other candidates) take
  /// for their own. Only captures of a baseline fill the cache.
  bool read_only = false;
  /// ccache's direct mode (an object looked up by the files the unit
  /// included when it was stored, without preprocessing). Off for a
  /// candidate (CCACHE_NODIRECT): a new file earlier in the include path
  /// (a `src/cstdio` of the change) is not among those files, so direct
  /// mode would serve the baseline's object for a unit that now compiles
  /// to another one; the preprocessor mode hashes what the unit
  /// preprocesses to.
  bool direct_mode = true;
  std::string reason;                    ///< why it is not used
  std::filesystem::path program;         ///< ccache
  std::filesystem::path directory;       ///< CCACHE_DIR
  std::filesystem::path stats_log;       ///< CCACHE_STATSLOG of this step (in the build tree)
  /// -DCMAKE_<LANG>_COMPILER_LAUNCHER=... (empty values when unused and the
  /// project names no launcher of its own, so a tree configured with the
  /// cache before drops it).
  std::vector<std::string> configure_arguments;
  std::map<std::string, std::string> environment;  ///< for the build step
  /// The shared cache (docs/caches.md) as ccache's file: remote storage:
  /// for a writer, a folder of the build tree ccache copies every result
  /// into (CCACHE_RESHARE), sent to the shared cache after the build; for a
  /// reader, the cache folder its entries were fetched into before the
  /// build, read-only. Empty: no shared cache.
  std::filesystem::path shared_folder;
  bool shared_writer = false;
  /// The capture's own cache (own_cache.hpp): "writer" in a candidate's
  /// build that fills it, "reader" in its held-out builds; empty: unused.
  std::string own_role;
  std::string own_reason;  ///< why a candidate's build does not fill it (empty: it does, or no candidate)
  std::filesystem::path own_stats_log;  ///< the CCACHE_STATSLOG of the own cache's ccache (HydraScore's side)
};

/// Whether and how `plan`'s build in `build_dir` uses ccache: on when the
/// caches are on, [cache] compiler is true, ccache is installed and the
/// project names no compiler launcher of its own (in the initial cache or
/// the cmake arguments). Trees at different paths hit each other's objects:
/// CCACHE_BASEDIR is the deepest folder holding the source and build trees,
/// the working directory is not hashed (CCACHE_NOHASHDIR). That makes two
/// captures' command lines equal when their build trees sit at the same place
/// relative to their sources: work-tree captures beside one source, and
/// every capture of a commit, whose folder holds `source/` and `build/`
/// (core/plan.hpp, checkout_layout). A candidate
/// capture (`request.baseline_run` set) uses it read-only (CCACHE_READONLY,
/// temporary files in the build tree) and without direct mode (CCACHE_NODIRECT).
CompilerCache prepare_compiler_cache(const Plan& plan, const CaptureRequest& request,
                                     const std::filesystem::path& build_dir);

/// Compilations counted from a CCACHE_STATSLOG.
struct CompilerCacheStats {
  std::uint64_t calls = 0;   ///< compilations ccache saw
  std::uint64_t hits = 0;    ///< served from the cache (direct or preprocessed)
  std::uint64_t misses = 0;  ///< compiled and stored
  std::uint64_t remote_hits = 0;    ///< of the hits, from the shared cache's entries
  std::uint64_t remote_misses = 0;  ///< looked up there and not found
  std::uint64_t remote_writes = 0;  ///< stored there
};

/// Counts the invocations (`# file` lines) and their hit/miss counters in
/// the text of a ccache stats log. Pure.
CompilerCacheStats parse_stats_log(std::string_view log);

/// The manifest record of `cache` with `stats` (hit rate when there were
/// calls) and, when it has an own cache or a reason not to, `own` (the own
/// cache's ccache: its hits and what it stored) as "own".
nlohmann::json to_json(const CompilerCache& cache, const CompilerCacheStats& stats,
                       const CompilerCacheStats& own = {});

/// The shared cache's index of the compiler entries of a baseline at `commit`.
std::string shared_compiler_index(const std::string& commit);

/// Before the build, outside the sandbox: a reader's entries of its base
/// commit fetched from the shared cache into `cache.shared_folder`, which is
/// added to `readable` (the build reads it, never writes it); without an
/// index to fetch (the service unreachable, no baseline of that base), the
/// reader's ccache keeps its local cache alone. A writer's folder emptied.
/// Returns what was fetched (an empty object without a shared cache).
/// Never throws for the service's faults.
nlohmann::json prepare_shared_compiler_cache(const Plan& plan, CompilerCache& cache,
                                             std::vector<std::filesystem::path>& readable);

/// After the build, outside the sandbox: a writer's entries (what ccache
/// copied into its folder) sent to the shared cache under its commit's
/// index; `record["shared"]` completed with `fetched` and what was sent.
void publish_shared_compiler_cache(const Plan& plan, const CompilerCache& cache, const nlohmann::json& fetched,
                                   nlohmann::json& record);

}  // namespace hydra::capture
