// The publish step (publish_step.cpp): validate, summarize, seal, rename into place.
#pragma once

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/config/config.hpp>

namespace hydra::capture {

/// Records tool versions, marks artifacts the tools left malformed, writes
/// signals.json, then seals the run and renames it into place at `plan.out`.
void publish(const Plan& plan, const config::Config& config, Staging& staging);

}  // namespace hydra::capture
