#include <hydra/capture/core/progress.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace hydra::capture {
using Clock = std::chrono::steady_clock;

Progress::Progress(bool enabled, std::string agent, bool live)
    : enabled_(enabled), live_(live && enabled && ::isatty(STDERR_FILENO) != 0), agent_(std::move(agent)) {}

void Progress::start(const std::string& step) {
  std::lock_guard lock(mutex_);
  step_ = step;
  detail_.clear();
  started_ = Clock::now();
  if (!enabled_) return;
  if (live_) draw();
  else std::cerr << "hydra[" << agent_ << "]: " << step << " ...\n";
}

void Progress::detail(const std::string& text) {
  std::lock_guard lock(mutex_);
  detail_ = text;
  if (live_ && enabled_) draw();
}

void Progress::finish(const std::string& outcome) {
  std::lock_guard lock(mutex_);
  if (!enabled_) return;
  const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  char line[256];
  std::snprintf(line, sizeof line, "hydra[%s]: %-8s %-40s %6.1f s", agent_.c_str(), step_.c_str(), outcome.c_str(),
                seconds);
  if (live_) std::cerr << "\r\033[2K" << line << "\n";
  else std::cerr << line << "\n";
}

void Progress::draw() {
  const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  char line[256];
  std::snprintf(line, sizeof line, "hydra[%s]: %-8s %-40.40s %6.1f s", agent_.c_str(), step_.c_str(),
                detail_.c_str(), seconds);
  std::cerr << "\r\033[2K" << line << std::flush;
}

}  // namespace hydra::capture
