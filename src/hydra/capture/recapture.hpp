// Capturing a corrupted baseline again (recapture.cpp): from its recorded
// commit and diff, with its stored hydra.toml, into the same directory.
#pragma once

#include <optional>
#include <string>

#include <hydra/capture/core/request.hpp>
#include <hydra/model/manifest.hpp>

namespace hydra::capture {

/// Checks the seal of the run directory `request.baseline_run` and, when it
/// is broken, captures that baseline again: from its recorded source commit
/// (in a git worktree of `request.source`) with its recorded diff applied,
/// with its stored hydra.toml, into the same directory and build tree. The
/// corrupted directory is kept beside it as `<name>.tampered` for review.
/// Returns the seal problem that was repaired; nullopt when the seal held.
/// Throws hydra::Tampered when the baseline cannot be reproduced (its
/// manifest, diff or config is itself corrupted, or it has no commit).
std::optional<std::string> recapture_baseline(const CaptureRequest& request);

/// The manifest of `request.baseline_run` once its seal is verified (and,
/// when it was broken, once the baseline is captured again:
/// recapture_baseline); nullopt without a baseline run or when it has no
/// manifest (make_plan reports that).
std::optional<model::RunManifest> verified_baseline(const CaptureRequest& request);

}  // namespace hydra::capture
