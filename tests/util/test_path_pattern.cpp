// Tests for hydra::util path patterns (util/path_pattern.hpp): the one
// syntax of every path-pattern key in hydra.toml.
#include <string>

#include <catch2/catch.hpp>

#include <hydra/util/path_pattern.hpp>

using namespace hydra;

TEST_CASE("path_matches anchors patterns like .gitignore", "[util]") {
  SECTION("valid input") {
    CHECK(util::path_matches("tests/", "tests/test_count.cpp"));
    CHECK(util::path_matches("tests/", "lib/tests/a.cpp"));
    CHECK(util::path_matches("test_*.*", "tests/test_count.cpp"));
    CHECK(util::path_matches("*_test.*", "src/io_test.cpp"));
    CHECK(util::path_matches(".clang-tidy", "src/.clang-tidy"));
    CHECK(util::path_matches("cmake/HydraScore*.cmake", "cmake/HydraScoreDemo.cmake"));
    CHECK(util::path_matches("hydra-score/", "third_party/hydra-score/cmake/HydraScore.cmake"));
    CHECK(util::path_matches("src/**/gen/", "src/a/b/gen/x.cpp"));
    CHECK(util::path_matches("./hydra.toml", "hydra.toml"));
  }
  SECTION("bad input") {
    CHECK_FALSE(util::path_matches("tests/", "tests"));  // a file named "tests", not a folder
    CHECK_FALSE(util::path_matches("cmake/HydraScore.cmake", "other/cmake/HydraScore.cmake"));
    CHECK_FALSE(util::path_matches("*_test.*", "src/latest.cpp"));
    CHECK_FALSE(util::path_matches("cmake/*.cmake", "cmake/sub/x.cmake"));  // `*` stops at "/"
    CHECK_FALSE(util::path_matches("", "a"));
  }
}

TEST_CASE("path_matches understands folder prefixes, plain paths and globs", "[util]") {
  SECTION("valid input") {
    CHECK(util::path_matches("infra/", "infra/main.tf"));
    CHECK(util::path_matches("infra/", "./infra/deep/x.tf"));
    CHECK(util::path_matches("scripts/release", "scripts/release/tag.sh"));
    CHECK(util::path_matches("CMakeLists.txt", "CMakeLists.txt"));
    CHECK(util::path_matches("*.cmake", "cmake/deps.cmake"));
    CHECK(util::path_matches("src/gen/*", "src/gen/a/b.cpp"));  // "src/gen/a" is a folder that matches
    CHECK(util::path_matches("infra/", "src/infra/main.tf"));   // a folder pattern without another "/" is at any depth
  }
  SECTION("bad input") {
    CHECK_FALSE(util::path_matches("infra/", "infrastructure/main.tf"));
    CHECK_FALSE(util::path_matches("scripts/release", "scripts/release-notes.md"));
    CHECK_FALSE(util::path_matches("*.cmake", "CMakeLists.txt"));
    CHECK_FALSE(util::path_matches("", "anything"));
  }
}

TEST_CASE("glob_matches stays fast on patterns with many stars", "[util]") {
  // A backtracking matcher takes exponential time here; the table takes
  // |pattern| x |text| steps.
  const std::string text(4000, 'a');
  CHECK_FALSE(util::glob_matches("*a*a*a*a*a*a*a*a*a*a*a*a*b", text));
  CHECK(util::glob_matches("**a**a**a", text));
  CHECK(util::glob_matches("a?a*", "aba/c") == false);  // `*` does not cross "/"
  CHECK(util::glob_matches("a?a**", "aba/c"));
}
