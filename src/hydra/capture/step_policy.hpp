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
/// in) and keeps its temporary files in `temporary`: those trees writable,
/// HydraScore's evidence (`plan.evidence`: this run, the runs beside it, the
/// baseline) read-only even inside them, and the writable trees inside the
/// evidence writable again; then `plan.tree_mounts`.
StepPolicy tree_step_policy(const Plan& plan, std::string step, const std::vector<std::filesystem::path>& writable,
                            const std::filesystem::path& temporary);

}  // namespace hydra::capture
