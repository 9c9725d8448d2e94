#include <hydra/util/xxh64.hpp>

#include <cstring>

namespace hydra::util {
namespace {

// As xxHash's specification (doc/xxhash_spec.md) defines it.

constexpr std::uint64_t xxh_prime_1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t xxh_prime_2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t xxh_prime_3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t xxh_prime_4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t xxh_prime_5 = 0x27D4EB2F165667C5ULL;

/// Little-endian reads, whatever the machine's byte order.
std::uint64_t read_little_endian_64(const unsigned char* bytes) {
  std::uint64_t value;
  std::memcpy(&value, bytes, sizeof value);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  value = __builtin_bswap64(value);
#endif
  return value;
}

std::uint32_t read_little_endian_32(const unsigned char* bytes) {
  std::uint32_t value;
  std::memcpy(&value, bytes, sizeof value);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  value = __builtin_bswap32(value);
#endif
  return value;
}

std::uint64_t rotate_left(std::uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

std::uint64_t xxh64_round(std::uint64_t accumulator, std::uint64_t input) {
  accumulator += input * xxh_prime_2;
  return rotate_left(accumulator, 31) * xxh_prime_1;
}

std::uint64_t xxh64_merge_round(std::uint64_t accumulator, std::uint64_t lane) {
  accumulator ^= xxh64_round(0, lane);
  return accumulator * xxh_prime_1 + xxh_prime_4;
}

}  // namespace

std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed) noexcept {
  const auto* input = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t length = bytes.size();
  const unsigned char* const end = input + length;
  std::uint64_t hash;
  if (length >= 32) {
    std::uint64_t lane_1 = seed + xxh_prime_1 + xxh_prime_2;
    std::uint64_t lane_2 = seed + xxh_prime_2;
    std::uint64_t lane_3 = seed;
    std::uint64_t lane_4 = seed - xxh_prime_1;
    for (; end - input >= 32; input += 32) {
      lane_1 = xxh64_round(lane_1, read_little_endian_64(input));
      lane_2 = xxh64_round(lane_2, read_little_endian_64(input + 8));
      lane_3 = xxh64_round(lane_3, read_little_endian_64(input + 16));
      lane_4 = xxh64_round(lane_4, read_little_endian_64(input + 24));
    }
    hash = rotate_left(lane_1, 1) + rotate_left(lane_2, 7) + rotate_left(lane_3, 12) + rotate_left(lane_4, 18);
    hash = xxh64_merge_round(hash, lane_1);
    hash = xxh64_merge_round(hash, lane_2);
    hash = xxh64_merge_round(hash, lane_3);
    hash = xxh64_merge_round(hash, lane_4);
  } else {
    hash = seed + xxh_prime_5;
  }
  hash += length;
  for (; end - input >= 8; input += 8) {
    hash ^= xxh64_round(0, read_little_endian_64(input));
    hash = rotate_left(hash, 27) * xxh_prime_1 + xxh_prime_4;
  }
  if (end - input >= 4) {
    hash ^= std::uint64_t{read_little_endian_32(input)} * xxh_prime_1;
    hash = rotate_left(hash, 23) * xxh_prime_2 + xxh_prime_3;
    input += 4;
  }
  for (; input < end; ++input) {
    hash ^= *input * xxh_prime_5;
    hash = rotate_left(hash, 11) * xxh_prime_1;
  }
  hash ^= hash >> 33;
  hash *= xxh_prime_2;
  hash ^= hash >> 29;
  hash *= xxh_prime_3;
  hash ^= hash >> 32;
  return hash;
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
