// The steps of a capture, each in its own file, each returning a typed
// result: plan (what to capture, with which config, against which base),
// build (configure + build), test (ctest), lint (clang-tidy), security, change
// (diff and judge), publish (validate, summarize, seal). capture() in
// capture.cpp runs them in that order. Every step records what it ran in the
// run's manifest (docs/run-directory.md).
#pragma once

#include <hydra/capture/build_step.hpp>
#include <hydra/capture/change_step.hpp>
#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/held_out.hpp>
#include <hydra/capture/lint_step.hpp>
#include <hydra/capture/profile_steps.hpp>
#include <hydra/capture/publish_step.hpp>
#include <hydra/capture/security_step.hpp>
#include <hydra/capture/test_step.hpp>
