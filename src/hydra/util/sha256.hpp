// SHA-256, for sealing run directories and deriving run ids: a thin wrapper
// over OpenSSL's libcrypto (EVP), which uses the CPU's SHA extensions.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace hydra::util {

/// Incremental SHA-256.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view bytes);
  void update(const void* data, std::size_t size);
  /// Finishes and returns 64 lower-case hex digits. The object is spent after.
  std::string hex_digest();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

/// SHA-256 of `bytes` as 64 hex digits.
std::string sha256_hex(std::string_view bytes);
/// SHA-256 of a file's content; throws hydra::InputError if unreadable.
std::string sha256_file(const std::filesystem::path& file);

}  // namespace hydra::util
