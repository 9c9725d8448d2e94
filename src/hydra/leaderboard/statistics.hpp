// The leaderboard's statistics, each a pure function with its formula in
// docs/leaderboard.md: the seeded PRNG and the bootstrap, the unbiased
// pass@k and pass^k estimators, the exact sign test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace hydra::leaderboard {

/// SplitMix64 (Steele, Lea, Flood 2014): the bootstrap's generator, written
/// out so any implementation can reproduce its draws.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// A draw in [0, n): floor(next() * n / 2^64) (Lemire's multiply-shift; no division).
  std::size_t below(std::size_t n) {
    __extension__ using Wide = unsigned __int128;  // GCC and Clang; __extension__ keeps -Wpedantic quiet
    return static_cast<std::size_t>((static_cast<Wide>(next()) * n) >> 64);
  }

 private:
  std::uint64_t state_;
};

/// An estimate with its 95% percentile bootstrap interval.
struct Interval {
  double estimate = 0;
  double low = 0;
  double high = 0;
};

/// One task's values for one agent (means over the agent's attempts at it).
struct TaskValues {
  double mergeable = 0;             ///< share of attempts mergeable
  double composite = 0;             ///< mean composite (0-100)
  std::optional<double> resolved;   ///< share of attempts resolved; nullopt: no attempt had acceptance tests
};

/// The three intervals of one agent.
struct BootstrapResult {
  std::optional<Interval> mergeable_rate;
  std::optional<Interval> resolved_rate;
  std::optional<Interval> mean_composite;
};

/// Percentile bootstrap over tasks: `resamples` times, draw tasks.size()
/// task indices with SplitMix64(seed).below(n) and take each statistic's mean
/// over the drawn tasks (resolved: over the drawn tasks with a known
/// resolution; a resample without one is left out). The interval is the
/// sorted statistics' [floor(0.025 B)] and [ceil(0.975 B) - 1] entries (B =
/// the number of statistics kept); the estimate is the mean over all tasks.
/// nullopt for a statistic without data.
BootstrapResult bootstrap(const std::vector<TaskValues>& tasks, std::uint64_t seed, std::size_t resamples);

/// Unbiased pass@k for n attempts with c successes: 1 - C(n-c, k) / C(n, k)
/// (Chen et al. 2021). Needs k <= n.
double pass_at_k(std::uint64_t n, std::uint64_t c, std::uint64_t k);

/// Unbiased pass^k (all k attempts succeed): C(c, k) / C(n, k). Needs k <= n.
double pass_hat_k(std::uint64_t n, std::uint64_t c, std::uint64_t k);

/// Exact two-sided sign test of `wins` against `losses` (ties dropped):
/// p = min(1, 2 * sum_{i=0}^{min(w,l)} C(w+l, i) / 2^(w+l)); 1 when w+l = 0.
double sign_test_p(std::uint64_t wins, std::uint64_t losses);

}  // namespace hydra::leaderboard
