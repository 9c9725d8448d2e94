// A clock of the processor time a machine could give (load_clock.hpp).
#include <hydra/util/load_clock.hpp>

#include <algorithm>
#include <fstream>
#include <thread>

namespace hydra::util {

double counted_share(double load, unsigned processors) {
  if (load <= 0.0 || processors == 0) return 1.0;
  return std::min(1.0, static_cast<double>(processors) / load);
}

double machine_load() {
  std::ifstream file("/proc/loadavg");
  double load = 0.0;
  if (!(file >> load)) return 0.0;
  return load;
}

LoadClock::LoadClock() : until_(Clock::now()), share_read_at_(until_) { share_ = counted_share(machine_load(), std::max(1u, std::thread::hardware_concurrency())); }

double LoadClock::counted() {
  const std::lock_guard<std::mutex> lock(mutex_);
  const Clock::time_point now = Clock::now();
  counted_ += std::chrono::duration<double>(now - until_).count() * share_;
  until_ = now;
  if (now - share_read_at_ >= std::chrono::seconds(1)) {
    share_ = counted_share(machine_load(), std::max(1u, std::thread::hardware_concurrency()));
    share_read_at_ = now;
  }
  return counted_;
}

}  // namespace hydra::util
