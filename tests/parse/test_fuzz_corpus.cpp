// Every fuzz seed (the recorded fixtures, copied by tests/fuzz/fuzz.cmake)
// and every past crash (tests/fuzz/crashes/) through its parser, in every
// build, with the normal compiler: bad input ends in hydra::InputError (exit
// 2), never in another exception ("internal error", exit 1) or a crash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <hydra/util/files.hpp>

#include "fuzz/fuzz_parsers.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> files_in(const fs::path& directory) {
  std::vector<fs::path> files;
  std::error_code error;
  if (!fs::is_directory(directory, error)) return files;
  for (const auto& entry : fs::directory_iterator(directory))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("fuzz: no corpus input ends in an internal error", "[parse][fuzz]") {
  const fs::path crashes = fs::path(HYDRA_SOURCE_DIR) / "tests" / "fuzz" / "crashes";
  std::size_t replayed = 0;
  for (const hydra::fuzz::Target& target : hydra::fuzz::targets()) {
    std::vector<fs::path> inputs = files_in(fs::path(HYDRA_FUZZ_SEEDS_DIR) / target.name);
    // Every target has seeds: a missing seed directory would test nothing.
    CAPTURE(target.name);
    CHECK_FALSE(inputs.empty());
    for (const fs::path& crash : files_in(crashes / target.name)) inputs.push_back(crash);
    for (const fs::path& input : inputs) {
      CAPTURE(input.string());
      const std::string bytes = hydra::util::read_file(input);
      std::string internal_error;
      try {
        hydra::fuzz::run(target.parse, bytes);
      } catch (const std::exception& error) {
        internal_error = error.what();
      }
      CHECK(internal_error.empty());
      ++replayed;
    }
  }
  // 12 targets, each with at least one seed.
  CHECK(replayed >= 12);
}

TEST_CASE("fuzz: the past crashes are still rejected as input errors or parsed", "[parse][fuzz]") {
  // Each file in tests/fuzz/crashes/ once crashed or ended in "internal
  // error"; these are now clean input errors (exit 2).
  const fs::path crashes = fs::path(HYDRA_SOURCE_DIR) / "tests" / "fuzz" / "crashes";
  const auto input_error = [&](void (*parse)(std::string_view), const std::string& file) {
    CAPTURE(file);
    try {
      parse(hydra::util::read_file(crashes / file));
    } catch (const hydra::InputError&) {
      return true;
    }
    return false;
  };
  CHECK(input_error(hydra::fuzz::ctest_json, "ctest_json/kind-number.json"));
  CHECK(input_error(hydra::fuzz::ctest_json, "ctest_json/kind-object.json"));
  CHECK(input_error(hydra::fuzz::diff, "diff/short-git-header.diff"));
  CHECK(input_error(hydra::fuzz::task_set, "task_set/count-2-64.json"));
  CHECK(input_error(hydra::fuzz::hydra_toml, "hydra_toml/nested-parentheses.toml"));
  // Parsed, with U+FFFD in place of the invalid bytes.
  CHECK_FALSE(input_error(hydra::fuzz::junit, "junit/invalid-utf8-name.xml"));
}
