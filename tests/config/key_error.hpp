// A check shared by the tests of hydra.toml's readers.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <hydra/error.hpp>

namespace hydra::test {

/// Calls `parse(text, "hydra.toml")` expecting an InputError for hydra.toml
/// that names `key_path` at `line`:`column`.
template <class Parse>
void require_key_error(Parse parse, const std::string& text, const std::string& key_path, std::uint64_t line,
                       std::uint64_t column) {
  CAPTURE(text);
  try {
    parse(text, "hydra.toml");
    FAIL("expected hydra::InputError");
  } catch (const hydra::InputError& error) {
    CAPTURE(error.what());
    CHECK(error.file() == "hydra.toml");
    CHECK(error.message().rfind(key_path + ": ", 0) == 0);
    CHECK(error.line() == line);
    CHECK(error.column() == column);
  }
}

}  // namespace hydra::test
