// Where the parser tests find their recorded fixtures (tests/fixtures/parse/,
// recorded by tests/fixtures/parse/record.sh).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>

#include <hydra/util/files.hpp>
#include "test_paths.hpp"

namespace hydra::test {

inline std::filesystem::path parse_fixture(const std::string& name) {
  return std::filesystem::path(HYDRA_FIXTURES_DIR) / "parse" / name;
}

inline std::string read_parse_fixture(const std::string& name) {
  return util::read_file(parse_fixture(name));
}

/// How many elements of `items` satisfy `predicate`.
template <typename Items, typename Predicate>
std::size_t count_if(const Items& items, Predicate predicate) {
  return static_cast<std::size_t>(std::count_if(items.begin(), items.end(), predicate));
}

}  // namespace hydra::test
