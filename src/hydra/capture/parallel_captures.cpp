// Parallel captures and their retries alone (parallel_captures.hpp).
#include <hydra/capture/parallel_captures.hpp>

#include <algorithm>
#include <mutex>
#include <set>

#include <hydra/util/thread_pool.hpp>

namespace hydra::capture {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

/// Which captures ran beside which: every start sees the ones running.
class Overlaps {
 public:
  explicit Overlaps(std::size_t count) : beside_(count, 0) {}
  void start(std::size_t index) {
    const std::lock_guard<std::mutex> lock(mutex_);
    running_.insert(index);
    for (const std::size_t other : running_) beside_[other] = std::max(beside_[other], running_.size() - 1);
  }
  void finish(std::size_t index) {
    const std::lock_guard<std::mutex> lock(mutex_);
    running_.erase(index);
  }
  std::size_t beside(std::size_t index) const { return beside_[index]; }

 private:
  std::mutex mutex_;
  std::set<std::size_t> running_;
  std::vector<std::size_t> beside_;
};

void attempt(const CaptureFunction& capture_one, const CaptureRequest& request, BatchCapture& into) {
  into.outcome.reset();
  into.failure = nullptr;
  try {
    into.outcome = capture_one(request);
  } catch (const std::exception&) {
    into.failure = std::current_exception();
  }
}

}  // namespace

std::vector<BatchCapture> capture_in_parallel(std::vector<CaptureRequest> requests, unsigned jobs, unsigned parallel,
                                              const CaptureFunction& capture_one) {
  const std::size_t count = requests.size();
  parallel = std::max(1u, parallel);
  jobs = std::max(1u, jobs);
  for (auto& request : requests) {
    request.jobs = std::max(1u, jobs / parallel);
    request.jobs_alone = jobs;
  }
  std::vector<BatchCapture> results(count);
  Overlaps overlaps(count);
  util::parallel_for(count, parallel, [&](std::size_t index) {
    overlaps.start(index);
    attempt(capture_one, requests[index], results[index]);
    overlaps.finish(index);
  });
  for (std::size_t index = 0; index < count; ++index) {
    BatchCapture& result = results[index];
    result.beside = overlaps.beside(index);
    if (!result.outcome || result.outcome->timed_out_steps.empty() || result.beside == 0) continue;
    const auto& steps = result.outcome->timed_out_steps;
    CaptureRequest alone = requests[index];
    result.retried_alone =
        "its " + joined(steps) + (steps.size() == 1 ? " step" : " steps") + " ran out of time with " +
        std::to_string(alone.jobs) + " of " + std::to_string(jobs) + (jobs == 1 ? " job" : " jobs") + " while " +
        std::to_string(result.beside) + (result.beside == 1 ? " other capture" : " other captures") +
        " ran beside it; captured again alone with " + std::to_string(jobs) + (jobs == 1 ? " job" : " jobs");
    alone.jobs = jobs;
    alone.reuse = false;
    alone.retried_alone = result.retried_alone;
    attempt(capture_one, alone, result);
  }
  return results;
}

}  // namespace hydra::capture
