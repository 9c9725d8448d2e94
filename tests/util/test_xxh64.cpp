#include <catch2/catch.hpp>

#include <hydra/util/xxh64.hpp>

TEST_CASE("xxh64 matches xxHash's reference tool", "[util]") {
  // Each value printed by `printf '%s' TEXT | xxhsum -H1` (xxHash 0.8.1). The
  // lengths cover every step of the algorithm: the 1-byte, 4-byte and 8-byte
  // tails and the 32-byte stripes.
  using hydra::util::xxh64;
  CHECK(xxh64("") == 0xef46db3751d8e999ULL);
  CHECK(xxh64("a") == 0xd24ec4f1a98c6e5bULL);
  CHECK(xxh64("abc") == 0x44bc2cf5ad770999ULL);
  CHECK(xxh64("abcd") == 0xde0327b0d25d92ccULL);
  CHECK(xxh64("abcdefg") == 0x1860940e2902822dULL);
  CHECK(xxh64("abcdefgh") == 0x3ad351775b4634b7ULL);
  CHECK(xxh64("0123456789abcdefghijklmnopqrstu") == 0x80adfc1d42020f39ULL);    // 31 bytes
  CHECK(xxh64("0123456789abcdefghijklmnopqrstuv") == 0xbf7c9dbe16b5c6e2ULL);   // 32 bytes
  CHECK(xxh64("0123456789abcdefghijklmnopqrstuvw") == 0xe97423e605e2f3b4ULL);  // 33 bytes
  CHECK(xxh64("The quick brown fox jumps over the lazy dog; the quick brown fox jumps over the lazy dog again!!") ==
        0x9ac7867e1f5c370fULL);  // 96 bytes
}

TEST_CASE("hex64 gives 16 lower-case hex digits", "[util]") {
  CHECK(hydra::util::hex64(0) == "0000000000000000");
  CHECK(hydra::util::hex64(0x9ac7867e1f5c370fULL) == "9ac7867e1f5c370f");
}
