// Capturing a source tree: run the profile's build, test, lint (and
// security) steps in a build tree of HydraScore's own, with per-step
// timeouts, and write a sealed run directory atomically.
#pragma once

#include <hydra/capture/core/request.hpp>
#include <hydra/capture/recapture.hpp>

namespace hydra::capture {

/// Runs the capture. A candidate capture (`baseline_run` set) first checks
/// the baseline's seal and, when it is broken, captures the baseline again
/// from its recorded commit and diff (recapture_baseline); after its own
/// steps it checks the seal again, and a baseline changed while the
/// candidate's code ran is an integrity problem of the candidate (and the
/// baseline is captured again). Step failures (a failing build, failing tests, a
/// timeout) are recorded in the run, not thrown. Throws hydra::Error when the
/// capture itself cannot be done (no cmake, unreadable config, not a git tree
/// when `checkout` is set).
CaptureOutcome capture(const CaptureRequest& request);

}  // namespace hydra::capture
