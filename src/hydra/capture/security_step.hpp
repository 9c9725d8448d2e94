// The security step (security_step.cpp): `[scoring.gates] security_command`.
#pragma once

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

/// Runs `[scoring.gates] security_command` in the tree when one is set.
void run_security(const Plan& plan, const Sandbox& sandbox, Staging& staging, Progress& progress);

}  // namespace hydra::capture
