// What one step that runs a tree's code may read, write and reach, as data
// (docs/threat-model.md). The capture builds one policy per step (which
// trees it works in, which caches it may use, what HydraScore's evidence is),
// Sandbox::wrap turns it into a bubblewrap command line, and the run's
// manifest records it, so what a candidate's code could reach is on record.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::capture {

struct Plan;

/// One path as a step sees it. Mounts apply in order, later over earlier
/// (a read-only mount inside a writable tree, a writable one inside that
/// again); everything no mount names is read-only.
struct Mount {
  enum class Access {
    read_write,  ///< `source` is writable at `path`
    read_only,   ///< `source` is readable at `path`
    hidden,      ///< an empty folder (or an empty file) at `path`: nothing of what is there can be read
  };
  Access access = Access::read_only;
  std::filesystem::path path;    ///< where the step sees it
  std::filesystem::path source;  ///< what it sees there; empty: `path` itself (not used by `hidden`)

  /// `source`, or `path` when no other source is named.
  const std::filesystem::path& origin() const { return source.empty() ? path : source; }
};

/// Resource limits of one step (each process of it: RLIMIT_* where no
/// cgroup can hold the step).
struct StepLimits {
  std::optional<std::uint64_t> cpu_seconds;   ///< CPU time per process
  std::optional<std::uint64_t> memory_bytes;  ///< address space per process
  std::optional<std::uint64_t> processes;     ///< processes the step may have at once
};

/// What one step may read, write and reach.
struct StepPolicy {
  std::string step;            ///< "configure", "build", "test", "held-out build", ... (for the record)
  std::vector<Mount> mounts;   ///< in order, later over earlier
  std::filesystem::path temporary;  ///< TMPDIR: writable, emptied per capture
  std::filesystem::path working_directory;  ///< where the step starts, as it sees it; empty: unchanged
  /// Variables the step gets beyond the sandbox's environment (CCACHE_*,
  /// the test runners' report settings, ...).
  std::map<std::string, std::string> environment;
  bool network = false;  ///< false: only a private loopback (a network namespace of its own)
  StepLimits limits;

  /// Adds a mount at the end (over the ones before it).
  void add(Mount::Access access, std::filesystem::path path, std::filesystem::path source = {}) {
    mounts.push_back({access, std::move(path), std::move(source)});
  }
  /// The manifest's record of this policy (paths as the step sees them).
  nlohmann::json to_json() const;
};

/// The policy of a step of `plan` that writes `writable` (the trees it works
/// in, as HydraScore's side names them) and keeps its temporary files in
/// `temporary`: first `plan.tree_mounts` (a tree shown at another path than
/// its own), then those trees writable at the paths the step sees them
/// (seen_path), HydraScore's evidence (`plan.evidence`: this run, the runs
/// beside it, the baseline) read-only even inside them, and the writable
/// trees inside the evidence writable again. Creates the folders (or empty
/// files) a later mount needs inside the origin of an earlier one, so that
/// bubblewrap can mount it there.
StepPolicy tree_step_policy(const Plan& plan, std::string step, const std::vector<std::filesystem::path>& writable,
                            const std::filesystem::path& temporary);

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
