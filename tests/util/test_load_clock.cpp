// Tests for util/load_clock.hpp: a second of wall time counts as the share
// of the processors the machine could give.
#include <catch2/catch.hpp>

#include <thread>

#include <hydra/util/load_clock.hpp>
#include <hydra/util/process.hpp>

using hydra::util::counted_share;

TEST_CASE("counted_share: processors over load, at most 1", "[util][load]") {
  SECTION("valid input: an overloaded machine counts a share of each second") {
    CHECK(counted_share(4.0, 2) == 0.5);   // 2 / 4
    CHECK(counted_share(3.0, 1) == Approx(1.0 / 3.0));
  }
  SECTION("valid input: a machine with spare processors counts whole seconds") {
    CHECK(counted_share(1.0, 2) == 1.0);  // min(1, 2 / 1)
    CHECK(counted_share(2.0, 2) == 1.0);
  }
  SECTION("bad input: an unknown load or processor count counts whole seconds") {
    CHECK(counted_share(0.0, 2) == 1.0);
    CHECK(counted_share(-1.0, 2) == 1.0);
    CHECK(counted_share(2.0, 0) == 1.0);
  }
}

TEST_CASE("LoadClock and a load-following timeout count no more than wall time", "[util][load]") {
  const auto start = std::chrono::steady_clock::now();  // before the clock starts: the wall time is the longer
  hydra::util::LoadClock clock;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double counted = clock.counted();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(counted > 0.0);
  CHECK(counted <= wall);
  // A hanging process is still stopped: the counted time reaches the timeout.
  hydra::util::ProcessRequest request;
  request.argv = {"sleep", "30"};
  request.timeout = std::chrono::milliseconds(200);
  request.timeout_follows_load = true;
  const auto result = hydra::util::run_process(request);
  CHECK(result.timed_out);
  CHECK(result.counted_seconds >= 0.15);  // counted from before the child started, at most its wall time
  CHECK(result.counted_seconds <= result.seconds);
}
