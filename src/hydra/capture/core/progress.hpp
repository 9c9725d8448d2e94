// Live progress of a capture: one redrawn line per step on a terminal,
// plain lines otherwise (CI logs).
#pragma once

#include <chrono>
#include <mutex>
#include <string>

namespace hydra::capture {

class Progress {
 public:
  /// `enabled`: print at all; lines are prefixed with `agent`. `live`:
  /// redraw one line on a terminal (a step run beside another prints plain
  /// lines, or the two would draw over each other).
  Progress(bool enabled, std::string agent, bool live = true);

  /// A step begins (`step` is its short name: "build", "lint", ...).
  void start(const std::string& step);
  /// What the running step is doing now ("3/12 tests"); redrawn on a terminal only.
  void detail(const std::string& text);
  /// The step ended with `outcome` ("passed", "FAILED", ...), with its wall time.
  void finish(const std::string& outcome);
  /// Whether anything is printed.
  bool enabled() const { return enabled_; }

 private:
  void draw();

  bool enabled_;
  bool live_;
  std::string agent_;
  std::string step_;
  std::string detail_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
};

}  // namespace hydra::capture
