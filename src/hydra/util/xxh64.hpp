// XXH64, the 64-bit xxHash (from libxxhash): the hash under lint finding
// fingerprints.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hydra::util {

/// XXH64 of `bytes` with `seed`, as xxHash specifies it (the input read as
/// little-endian words whatever the machine's byte order; with seed 0,
/// `xxhsum -H1` prints the same value).
std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed = 0) noexcept;

/// `value` as 16 lower-case hex digits.
std::string hex64(std::uint64_t value);

}  // namespace hydra::util
