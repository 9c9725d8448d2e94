// Capturing a corrupted baseline again (recapture.cpp): from its recorded
// commit and diff, with its stored hydra.toml, into the same directory.
#pragma once

#include <optional>
#include <string>

#include <hydra/capture/core/request.hpp>

namespace hydra::capture {

/// Checks the seal of the run directory `request.baseline_run` and, when it
/// is broken, captures that baseline again: from its recorded source commit
/// (in a git worktree of `request.source`) with its recorded diff applied,
/// with its stored hydra.toml, into the same directory and build tree. The
/// corrupted directory is kept beside it as `<name>.tampered` for review.
/// Returns the seal problem that was repaired; nullopt when the seal held.
/// Throws hydra::Error (exit 7) when the baseline cannot be reproduced (its
/// manifest, diff or config is itself corrupted, or it has no commit).
std::optional<std::string> recapture_baseline(const CaptureRequest& request);

}  // namespace hydra::capture
