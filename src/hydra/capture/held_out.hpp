// The held-out step (held_out.cpp; docs/threat-model.md, "Held-out evaluation").
#pragma once

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

/// The held-out runs of a capture (docs/threat-model.md, "Held-out
/// evaluation"): the baseline's tests (and the private test patch) on the
/// candidate's code, and the candidate's new tests on the baseline's code,
/// each built in a tree of its own only when the change needs it. Writes
/// held-out/ and on-baseline/ and the manifest's "held_out" record.
void run_held_out(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                  Progress& progress);

}  // namespace hydra::capture
