#include <hydra/util/xxh64.hpp>

#include <xxhash.h>

namespace hydra::util {

std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed) noexcept {
  return XXH64(bytes.data(), bytes.size(), seed);
}

std::string hex64(std::uint64_t value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = digits[value & 0xF];
    value >>= 4;
  }
  return out;
}

}  // namespace hydra::util
