#include <hydra/util/thread_pool.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace hydra::util {

void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body) {
  std::vector<std::exception_ptr> failures(count);
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t index; (index = next++) < count;) {
      try {
        body(index);
      } catch (...) {
        failures[index] = std::current_exception();
      }
    }
  };
  const std::size_t helpers = std::min<std::size_t>(std::max(1u, threads), std::max<std::size_t>(count, 1)) - 1;
  std::vector<std::thread> pool;
  try {
    for (std::size_t i = 0; i < helpers; ++i) pool.emplace_back(worker);
  } catch (const std::system_error&) {
    // No more threads to be had: the ones started and this one do the rest.
  }
  worker();
  for (std::thread& thread : pool) thread.join();
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace hydra::util
