#include <hydra/leaderboard/statistics.hpp>

#include <algorithm>
#include <cmath>

namespace hydra::leaderboard {
namespace {

/// The percentile interval of `values` (sorted here) around `estimate`.
std::optional<Interval> percentile_interval(std::vector<double>& values, double estimate) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const auto count = static_cast<double>(values.size());
  const auto low = static_cast<std::size_t>(std::floor(0.025 * count));
  auto high = static_cast<std::size_t>(std::ceil(0.975 * count));
  high = high == 0 ? 0 : high - 1;
  return Interval{estimate, values[std::min(low, values.size() - 1)], values[std::min(high, values.size() - 1)]};
}

}  // namespace

BootstrapResult bootstrap(const std::vector<TaskValues>& tasks, std::uint64_t seed, std::size_t resamples) {
  BootstrapResult result;
  const std::size_t n = tasks.size();
  if (n == 0) return result;
  double mergeable_sum = 0, composite_sum = 0, resolved_sum = 0;
  std::size_t resolved_known = 0;
  for (const auto& task : tasks) {
    mergeable_sum += task.mergeable;
    composite_sum += task.composite;
    if (task.resolved) {
      resolved_sum += *task.resolved;
      ++resolved_known;
    }
  }
  // Columns of the tasks' values, so the resampling loop has no branch.
  std::vector<double> task_mergeable(n), task_composite(n), task_resolved(n), task_known(n);
  for (std::size_t index = 0; index < n; ++index) {
    task_mergeable[index] = tasks[index].mergeable;
    task_composite[index] = tasks[index].composite;
    task_resolved[index] = tasks[index].resolved.value_or(0.0);
    task_known[index] = tasks[index].resolved ? 1.0 : 0.0;
  }
  std::vector<double> mergeable, composite, resolved;
  mergeable.reserve(resamples);
  composite.reserve(resamples);
  SplitMix64 generator(seed);
  for (std::size_t sample = 0; sample < resamples; ++sample) {
    double m = 0, c = 0, r = 0, known = 0;
    for (std::size_t draw = 0; draw < n; ++draw) {
      const std::size_t task = generator.below(n);
      m += task_mergeable[task];
      c += task_composite[task];
      r += task_resolved[task];
      known += task_known[task];
    }
    mergeable.push_back(m / static_cast<double>(n));
    composite.push_back(c / static_cast<double>(n));
    if (known > 0) resolved.push_back(r / known);
  }
  result.mergeable_rate = percentile_interval(mergeable, mergeable_sum / static_cast<double>(n));
  result.mean_composite = percentile_interval(composite, composite_sum / static_cast<double>(n));
  if (resolved_known > 0)
    result.resolved_rate = percentile_interval(resolved, resolved_sum / static_cast<double>(resolved_known));
  return result;
}

double pass_at_k(std::uint64_t n, std::uint64_t c, std::uint64_t k) {
  if (k == 0 || k > n) return 0;
  if (n - c < k) return 1.0;
  // C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i)
  double none = 1.0;
  for (std::uint64_t i = n - c + 1; i <= n; ++i) none *= 1.0 - static_cast<double>(k) / static_cast<double>(i);
  return 1.0 - none;
}

double pass_hat_k(std::uint64_t n, std::uint64_t c, std::uint64_t k) {
  if (k == 0 || k > n || c < k) return 0;
  // C(c, k) / C(n, k) = prod_{i=0}^{k-1} (c - i) / (n - i)
  double all = 1.0;
  for (std::uint64_t i = 0; i < k; ++i) all *= static_cast<double>(c - i) / static_cast<double>(n - i);
  return all;
}

double sign_test_p(std::uint64_t wins, std::uint64_t losses) {
  const std::uint64_t n = wins + losses;
  if (n == 0) return 1.0;
  const std::uint64_t smaller = std::min(wins, losses);
  const double total = static_cast<double>(n);
  double tail = 0;
  for (std::uint64_t i = 0; i <= smaller; ++i) {
    const double x = static_cast<double>(i);
    tail += std::exp(std::lgamma(total + 1) - std::lgamma(x + 1) - std::lgamma(total - x + 1) - total * std::log(2.0));
  }
  return std::min(1.0, 2 * tail);
}

}  // namespace hydra::leaderboard
