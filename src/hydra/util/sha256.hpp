// SHA-256 (FIPS 180-4), for sealing run directories and deriving run ids.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace hydra::util {

/// Incremental SHA-256.
class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  void update(const void* data, std::size_t size);
  /// Finishes and returns 64 lower-case hex digits. The object is spent after.
  std::string hex_digest();

 private:
  void compress(const std::uint8_t* block);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

/// SHA-256 of `bytes` as 64 hex digits.
std::string sha256_hex(std::string_view bytes);
/// SHA-256 of a file's content; throws hydra::InputError if unreadable.
std::string sha256_file(const std::filesystem::path& file);

}  // namespace hydra::util
