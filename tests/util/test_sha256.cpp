#include <catch2/catch.hpp>

#include <hydra/util/files.hpp>
#include <hydra/util/sha256.hpp>
#include <hydra/error.hpp>

#include <string>

using hydra::util::sha256_hex;

TEST_CASE("sha256 matches the FIPS 180-4 test vectors", "[util]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a': exercises the multi-block path.
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("incremental updates equal one update", "[util]") {
  hydra::util::Sha256 hash;
  const std::string text(200, 'x');
  for (char c : text) hash.update(std::string_view(&c, 1));
  CHECK(hash.hex_digest() == sha256_hex(text));
}

TEST_CASE("require_text rejects binary data and invalid UTF-8 with a position", "[util]") {
  SECTION("valid input") {
    CHECK_NOTHROW(hydra::util::require_text("héllo\nwörld\n", "f.txt"));
  }
  SECTION("NUL byte") {
    try {
      hydra::util::require_text(std::string("ab\ncd\0e", 7), "f.log");
      FAIL("expected an error");
    } catch (const hydra::InputError& error) {
      CHECK(error.file() == "f.log");
      CHECK(error.line() == 2);
      CHECK(error.column() == 3);
    }
  }
  SECTION("invalid UTF-8") {
    try {
      hydra::util::require_text("ok\nx\xff", "f.log");
      FAIL("expected an error");
    } catch (const hydra::InputError& error) {
      CHECK(error.line() == 2);
      CHECK(error.column() == 2);
      CHECK(std::string(error.what()) == "f.log:2:2: invalid UTF-8");
    }
  }
}

TEST_CASE("write_file_atomic replaces the file and leaves no temporary", "[util]") {
  hydra::util::TempDir dir;
  const auto file = dir.path() / "out.json";
  hydra::util::write_file_atomic(file, "one");
  hydra::util::write_file_atomic(file, "two");
  CHECK(hydra::util::read_file(file) == "two");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 1);
  CHECK_THROWS_AS(hydra::util::read_file(dir.path() / "missing"), hydra::InputError);
}
