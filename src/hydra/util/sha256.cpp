#include <hydra/util/sha256.hpp>

#include <array>
#include <fstream>

#include <openssl/evp.h>

#include <hydra/error.hpp>

namespace hydra::util {

struct Sha256::Context {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  if (context_->md == nullptr || EVP_DigestInit_ex(context_->md, EVP_sha256(), nullptr) != 1)
    throw Error("libcrypto: cannot start a SHA-256 digest");
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view bytes) { update(bytes.data(), bytes.size()); }

void Sha256::update(const void* data, std::size_t size) {
  if (size > 0 && EVP_DigestUpdate(context_->md, data, size) != 1) throw Error("libcrypto: SHA-256 update failed");
}

std::string Sha256::hex_digest() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_->md, digest.data(), &length) != 1 || length != 32)
    throw Error("libcrypto: SHA-256 final failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.hex_digest();
}

std::string sha256_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "cannot open file for reading");
  Sha256 hash;
  std::array<char, 1 << 16> chunk;
  while (in) {
    in.read(chunk.data(), chunk.size());
    hash.update(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw InputError(file.string(), "read error");
  return hash.hex_digest();
}

}  // namespace hydra::util
