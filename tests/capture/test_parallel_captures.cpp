// Tests for hydra::capture::capture_in_parallel: captures side by side share
// the jobs, and one whose step ran out of time beside the others is captured
// again alone. The capture function is the test's: it records each call and
// reports a timed-out step when told to.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <hydra/capture/parallel_captures.hpp>

using hydra::capture::capture_in_parallel;
using hydra::capture::CaptureOutcome;
using hydra::capture::CaptureRequest;

namespace {

struct Call {
  std::string agent;
  unsigned jobs = 0, jobs_alone = 0;
  bool reuse = false;
  std::string retried_alone;
};

/// Records calls; the first `meet` calls wait (up to 10 s) until all of them
/// have started, so they are certainly side by side.
class FakeCaptures {
 public:
  explicit FakeCaptures(std::size_t meet) : meet_(meet) {}
  /// Which agents report a timed-out build, and when.
  std::function<bool(const CaptureRequest&)> times_out = [](const CaptureRequest&) { return false; };
  std::function<void(const CaptureRequest&)> throws = [](const CaptureRequest&) {};

  CaptureOutcome operator()(const CaptureRequest& request) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      calls_.push_back({request.agent, request.jobs, request.jobs_alone, request.reuse, request.retried_alone});
      if (started_ < meet_) {
        ++started_;
        arrived_.notify_all();
        arrived_.wait_for(lock, std::chrono::seconds(10), [&] { return started_ >= meet_; });
      }
    }
    throws(request);
    CaptureOutcome outcome;
    outcome.summary = request.agent;
    if (times_out(request)) outcome.timed_out_steps = {"build", "held-out build"};
    return outcome;
  }
  std::vector<Call> calls_of(const std::string& agent) const {
    std::vector<Call> found;
    for (const auto& call : calls_)
      if (call.agent == agent) found.push_back(call);
    return found;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::size_t meet_ = 0, started_ = 0;
  std::vector<Call> calls_;
};

std::vector<CaptureRequest> requests_for(const std::vector<std::string>& agents) {
  std::vector<CaptureRequest> requests;
  for (const auto& agent : agents) {
    CaptureRequest request;
    request.agent = agent;
    request.reuse = true;
    requests.push_back(request);
  }
  return requests;
}

}  // namespace

TEST_CASE("capture_in_parallel shares the jobs and captures a capture that ran out of time beside others again alone",
          "[capture]") {
  SECTION("a timeout beside another capture: captured again alone with every job, not reused") {
    FakeCaptures fake(2);
    // slow's build runs out of time with a share of the jobs, not with all of them.
    fake.times_out = [](const CaptureRequest& request) { return request.agent == "slow" && request.jobs < 2; };
    const auto results = capture_in_parallel(requests_for({"slow", "quick"}), 2, 2, std::ref(fake));
    REQUIRE(results.size() == 2);
    const auto slow = fake.calls_of("slow");
    REQUIRE(slow.size() == 2);
    CHECK(slow[0].jobs == 1);  // 2 jobs / 2 captures side by side
    CHECK(slow[0].jobs_alone == 2);
    CHECK(slow[0].reuse);
    CHECK(slow[0].retried_alone.empty());
    CHECK(slow[1].jobs == 2);
    CHECK_FALSE(slow[1].reuse);  // the timed-out run must not be taken for up to date
    CHECK(slow[1].retried_alone ==
          "its build and held-out build steps ran out of time with 1 of 2 jobs while 1 other capture ran beside it; "
          "captured again alone with 2 jobs");
    CHECK(results[0].retried_alone == slow[1].retried_alone);
    CHECK(results[0].beside == 1);
    REQUIRE(results[0].outcome);
    CHECK(results[0].outcome->timed_out_steps.empty());  // the second capture's outcome is the result
    const auto quick = fake.calls_of("quick");
    REQUIRE(quick.size() == 1);
    CHECK(quick[0].jobs == 1);
    CHECK(results[1].retried_alone.empty());
  }

  SECTION("a timeout again alone stays: it counts against the candidate") {
    FakeCaptures fake(3);
    fake.times_out = [](const CaptureRequest& request) { return request.agent == "hangs"; };
    const auto results = capture_in_parallel(requests_for({"hangs", "b", "c"}), 3, 3, std::ref(fake));
    CHECK(fake.calls_of("hangs").size() == 2);
    CHECK(results[0].beside == 2);
    CHECK(results[0].retried_alone.find("while 2 other captures ran beside it") != std::string::npos);
    REQUIRE(results[0].outcome);
    CHECK(results[0].outcome->timed_out_steps.size() == 2);
  }

  SECTION("a capture that ran alone is not captured again") {
    FakeCaptures fake(0);
    fake.times_out = [](const CaptureRequest&) { return true; };
    SECTION("one capture") {
      const auto results = capture_in_parallel(requests_for({"only"}), 2, 1, std::ref(fake));
      CHECK(fake.calls_of("only").size() == 1);
      CHECK(fake.calls_of("only")[0].jobs == 2);
      CHECK(results[0].beside == 0);
      CHECK(results[0].retried_alone.empty());
    }
    SECTION("captures one after another") {
      const auto results = capture_in_parallel(requests_for({"a", "b"}), 2, 1, std::ref(fake));
      CHECK(fake.calls_of("a").size() == 1);
      CHECK(fake.calls_of("b").size() == 1);
      CHECK(fake.calls_of("b")[0].jobs == 2);
      CHECK(results[1].retried_alone.empty());
    }
  }

  SECTION("bad input: a capture that cannot be done is returned as its failure; the others are done") {
    FakeCaptures fake(2);
    fake.throws = [](const CaptureRequest& request) {
      if (request.agent == "broken") throw hydra::StepFailed("git worktree add failed");
    };
    const auto results = capture_in_parallel(requests_for({"broken", "fine"}), 2, 2, std::ref(fake));
    REQUIRE(results[0].failure);
    CHECK_THROWS_AS(std::rethrow_exception(results[0].failure), hydra::StepFailed);
    CHECK_THROWS_WITH(std::rethrow_exception(results[0].failure), "git worktree add failed");
    CHECK_FALSE(results[0].outcome);
    REQUIRE(results[1].outcome);
    CHECK(results[1].outcome->summary == "fine");
  }
}
