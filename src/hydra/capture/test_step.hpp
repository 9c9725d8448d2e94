// The test step (test_step.cpp): list the tests, run them, cross-check the reports.
#pragma once

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/progress.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

struct TestResult {
  bool ran = false;
  bool timed_out = false;
  int exit_code = -1;
  bool junit_written = false;
};
/// Lists the tests (ctest --show-only=json-v1) and runs them with JUnit
/// output, cross-checking the JUnit file with ctest's console verdicts.
TestResult run_tests(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                     Progress& progress);

}  // namespace hydra::capture
