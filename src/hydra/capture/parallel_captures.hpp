// Several captures at once (`hydra-score capture` with several --source or
// --ref): each gets its share of the jobs, and a capture whose step ran out
// of time while other captures ran beside it is captured again alone before
// the timeout counts against it (docs/config.md, "Time budgets").
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <hydra/capture/capture.hpp>
#include <hydra/error.hpp>

namespace hydra::capture {

/// What became of one capture of a batch.
struct BatchCapture {
  std::optional<CaptureOutcome> outcome;  ///< set when the capture was done
  std::exception_ptr failure;             ///< set when it could not be done (an Error says which kind)
  /// How many other captures ran beside it at most (0: it ran alone).
  std::size_t beside = 0;
  /// Why it was captured again alone; empty when it was not.
  std::string retried_alone;
};

/// Captures one request (capture() in use; tests give their own).
using CaptureFunction = std::function<CaptureOutcome(const CaptureRequest&)>;

/// Captures `requests`, at most `parallel` at a time (0 counts as 1), each
/// with `jobs / parallel` jobs (at least 1) and `jobs_alone = jobs`. Then
/// every capture that reported a timed-out step (CaptureOutcome::
/// timed_out_steps) and had another capture beside it at any moment is
/// captured again, one at a time, alone with all `jobs`, not reused, its
/// request's `retried_alone` saying why; that capture's result is the one
/// returned. Every request is attempted; failures are returned, not thrown.
std::vector<BatchCapture> capture_in_parallel(std::vector<CaptureRequest> requests, unsigned jobs, unsigned parallel,
                                              const CaptureFunction& capture_one = capture);

}  // namespace hydra::capture
