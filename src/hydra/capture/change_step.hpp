// The change step (change_step.cpp): the diff against the base commit and the judge's grade.
#pragma once

#include <string>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

/// The change's diff against the base commit, as diff.patch records it;
/// empty outside git or without a base commit. Once `plan.change` is taken
/// (before the tree's code runs), that.
std::string change_diff(const Plan& plan, const CaptureRequest& request);

/// The change against the base commit (diff.patch) and, when the judge
/// dimension is on, the judge's grade of it (judge.json).
void record_change(const Plan& plan, const CaptureRequest& request, Staging& staging, Progress& progress);

}  // namespace hydra::capture
