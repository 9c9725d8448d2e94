// Tests for the CMake cache reader (parse/cmake_cache.hpp):
// the CMakeCache.txt and the initial-cache script of a real cmake configure
// (tests/fixtures/cmake-cache/record.sh), and the -D options of a command line.
#include <catch2/catch.hpp>

#include <hydra/parse/cmake_cache.hpp>
#include <hydra/util/files.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using hydra::parse::CMakeCache;
using hydra::parse::parse_cache_definitions;
using hydra::parse::parse_cmake_cache;
using hydra::parse::parse_initial_cache;
using hydra::parse::read_cmake_cache;

namespace {

const fs::path fixtures = fs::path(HYDRA_FIXTURES_DIR) / "cmake-cache";
const std::string record_root = "/tmp/hydra-cmake-cache-record";

}  // namespace

TEST_CASE("cmake cache: CMakeCache.txt of a real configure", "[parse][cmake_cache]") {
  SECTION("valid input") {
    const std::optional<CMakeCache> cache = read_cmake_cache(fixtures);
    REQUIRE(cache);
    const auto* generator = cache->find("CMAKE_GENERATOR");
    REQUIRE(generator);
    CHECK(generator->type == "INTERNAL");
    CHECK(generator->value == "Ninja");
    CHECK(cache->value("CMAKE_HOME_DIRECTORY") == record_root + "/source");
    CHECK(cache->value("CMAKE_MAKE_PROGRAM") == "/usr/bin/ninja");
    CHECK(cache->find("CMAKE_MAKE_PROGRAM")->type == "FILEPATH");
    // From the initial-cache script: escapes resolved by cmake, ';' lists kept.
    CHECK(cache->value("CMAKE_CXX_FLAGS") == "-DGREETING=\"hi\" -Wall");
    CHECK(cache->value("CMAKE_PREFIX_PATH") == record_root + "/prefix a;/usr/local");
    CHECK(cache->find("FIXTURE_ROOT")->type == "PATH");
    // From a -D option: only the first '=' ends the name and type.
    CHECK(cache->value("FIXTURE_NOTE") == "a=b:c");
    // Empty values are entries; comments and "-ADVANCED" properties are read as the file has them.
    CHECK(cache->value("CMAKE_GENERATOR_PLATFORM") == "");
    CHECK(cache->value("CMAKE_MAKE_PROGRAM-ADVANCED") == "1");
    CHECK_FALSE(cache->has("ADVANCED property for variable"));
    CHECK_FALSE(cache->value("NOT_SET"));
  }
  SECTION("bad input") {
    hydra::util::TempDir temp("hydra-cmake-cache");
    CHECK_FALSE(read_cmake_cache(temp.path()));
    const CMakeCache cache = parse_cmake_cache("no entry here\r\n\"QUOTED:NAME\":STRING=x\r\n=value\n:TYPE=value\n");
    REQUIRE(cache.entries.size() == 1);
    CHECK(cache.entries[0].name == "QUOTED:NAME");
    CHECK(cache.entries[0].value == "x");
  }
}

TEST_CASE("cmake cache: an initial-cache script as cmake/HydraScore.cmake writes it", "[parse][cmake_cache]") {
  const CMakeCache script = parse_initial_cache(hydra::util::read_file(fixtures / "initial-cache.cmake"));
  SECTION("valid input") {
    REQUIRE(script.entries.size() == 5);
    CHECK(script.entries[0].name == "CMAKE_BUILD_TYPE");
    CHECK(script.entries[0].type == "STRING");
    CHECK(script.entries[0].value == "RelWithDebInfo");
    // The script's escapes give what cmake itself stored (CMakeCache.txt).
    const CMakeCache configured = *read_cmake_cache(fixtures);
    for (const auto& entry : script.entries) {
      CAPTURE(entry.name);
      CHECK(configured.value(entry.name) == entry.value);
      CHECK(configured.find(entry.name)->type == entry.type);
    }
  }
  SECTION("other spellings") {
    const CMakeCache cache = parse_initial_cache("  set(A bare CACHE STRING \"\")\nset(B \"x\")\nset(A \"again\" CACHE PATH \"\" FORCE)\n"
                                                 "message(STATUS \"set(C 1)\")\nset()\n");
    REQUIRE(cache.entries.size() == 3);
    CHECK(cache.entries[0].value == "bare");
    CHECK(cache.entries[1].type.empty());
    CHECK(cache.value("A") == "again");  // the last one, as CMake keeps it
    CHECK(cache.find("A")->type == "PATH");
    CHECK_FALSE(cache.has("C"));
    CHECK(parse_initial_cache("").entries.empty());
  }
}

TEST_CASE("cmake cache: the -D options of a command line", "[parse][cmake_cache]") {
  const CMakeCache cache = parse_cache_definitions(
      {"-G", "Ninja", "-DA=1", "-DB:FILEPATH=/x;/y", "-D", "C=two words", "-UD", "-DA=2", "-Wno-dev", "-D"});
  CHECK(cache.value("A") == "2");
  CHECK(cache.find("B")->type == "FILEPATH");
  CHECK(cache.value("B") == "/x;/y");
  CHECK(cache.value("C") == "two words");
  CHECK_FALSE(cache.has("D"));
  CHECK(cache.entries.size() == 4);
}
