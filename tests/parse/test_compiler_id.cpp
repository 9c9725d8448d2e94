// Tests for hydra::parse::compiler_identification_* (parse/compiler_id.hpp):
// the compiler version the "compiler" lint findings are reported under.
#include <catch2/catch.hpp>

#include <hydra/parse/compiler_id.hpp>
#include <hydra/util/files.hpp>

#include "test_paths.hpp"

using namespace hydra;

namespace {

std::string fixture(const std::string& relative) {
  return util::read_file(std::string(HYDRA_FIXTURES_DIR) + "/" + relative);
}

}  // namespace

TEST_CASE("compiler_identification_from_cmake_file reads CMake's compiler file", "[parse]") {
  SECTION("valid input: real CMakeCXXCompiler.cmake files (tests/fixtures/parse/record.sh)") {
    CHECK(parse::compiler_identification_from_cmake_file(fixture("parse/cmake_cxx_compiler_gcc.cmake")) ==
          "GNU 12.2.0");
    CHECK(parse::compiler_identification_from_cmake_file(fixture("parse/cmake_cxx_compiler_clang.cmake")) ==
          "Clang 14.0.6");
  }
  SECTION("bad input: no compiler id") {
    CHECK_FALSE(parse::compiler_identification_from_cmake_file("set(CMAKE_CXX_COMPILER \"/usr/bin/c++\")\n"));
    CHECK_FALSE(parse::compiler_identification_from_cmake_file(""));
  }
}

TEST_CASE("compiler_identification_from_log reads a configure log", "[parse]") {
  SECTION("valid input: a real capture's configure.log") {
    CHECK(parse::compiler_identification_from_log(fixture("runs/baseline/configure.log")) == "GNU 12.2.0");
    CHECK(parse::compiler_identification_from_log("-- The C compiler identification is Clang 14.0.6\r\n") ==
          "Clang 14.0.6");
  }
  SECTION("bad input: no identification, or an unknown compiler") {
    CHECK_FALSE(parse::compiler_identification_from_log("-- Configuring done\n"));
    CHECK_FALSE(parse::compiler_identification_from_log("-- The CXX compiler identification is unknown\n"));
  }
}
