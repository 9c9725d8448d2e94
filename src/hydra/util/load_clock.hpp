// A clock of the processor time a machine could give (docs/config.md, "Time
// budgets"): while the machine is busier than it has processors (its load
// average over its processor count), each second of wall time counts as
// `processors / load` of a second. A step's timeout measured on it is not
// used up by load from outside the step.
#pragma once

#include <chrono>
#include <mutex>

namespace hydra::util {

class LoadClock {
 public:
  using Clock = std::chrono::steady_clock;

  LoadClock();
  /// The seconds counted since construction. Thread-safe.
  double counted();

 private:
  std::mutex mutex_;
  Clock::time_point until_, share_read_at_;
  double counted_ = 0.0;
  double share_ = 1.0;
};

/// How much of a second of wall time counts on a machine with `processors`
/// whose load average is `load`: min(1, processors / load); 1 when either is
/// unknown (0). Pure.
double counted_share(double load, unsigned processors);

/// The machine's load average over the last minute (/proc/loadavg); 0 when unknown.
double machine_load();

}  // namespace hydra::util
