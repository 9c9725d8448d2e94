// Tests for the compiler invocations read from the build's own commands
// (lint/build_commands.hpp) and their units in the lint database.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <hydra/capture/lint/build_commands.hpp>
#include <hydra/capture/lint/database.hpp>

namespace fs = std::filesystem;
using hydra::capture::compiler_invocations;
using hydra::capture::is_compiler_program;

TEST_CASE("compilers are known by CMake's record and by name", "[capture][lint]") {
  SECTION("valid input") {
    CHECK(is_compiler_program("/usr/bin/c++", {}));
    CHECK(is_compiler_program("g++-12", {}));
    CHECK(is_compiler_program("x86_64-linux-gnu-gcc", {}));
    CHECK(is_compiler_program("/usr/lib/llvm-14/bin/clang++", {}));
    CHECK(is_compiler_program("/opt/tc/bin/my-cxx", {"/opt/tc/bin/my-cxx"}));
    CHECK(is_compiler_program("my-cxx", {"/opt/tc/bin/my-cxx"}));
  }
  SECTION("bad input") {
    CHECK_FALSE(is_compiler_program("/usr/bin/cmake", {}));
    CHECK_FALSE(is_compiler_program("ccache", {}));
    CHECK_FALSE(is_compiler_program("/usr/bin/ar", {"/usr/bin/c++"}));
    CHECK_FALSE(is_compiler_program("", {}));
  }
}

TEST_CASE("compiler invocations are read from the build's command lines", "[capture][lint]") {
  const fs::path build = "/work/build";
  SECTION("a custom command calling the compiler directly, behind cd and a launcher") {
    const auto found = compiler_invocations(
        {"cd /work/build/src && ccache /usr/bin/c++ -I/work/project/include -O2 -c /work/project/src/extra.cpp "
         "-o /work/build/src/extra.o",
         "/usr/bin/cmake -E echo done"},
        {}, build);
    REQUIRE(found.size() == 1);
    CHECK(found[0].file == fs::path("/work/project/src/extra.cpp"));
    CHECK(found[0].directory == fs::path("/work/build/src"));
    CHECK(found[0].arguments == std::vector<std::string>{"/usr/bin/c++", "-I/work/project/include", "-O2", "-c",
                                                       "/work/project/src/extra.cpp", "-o", "/work/build/src/extra.o"});
  }
  SECTION("relative paths, environment, -x and several inputs") {
    const auto found = compiler_invocations(
        {"cd ../project && CCACHE_DISABLE=1 env LANG=C g++ -x c++ notes.md -x none b.c main.o -o prog; echo ok",
         "/usr/bin/cmake -E env CC=1 -- clang -c a.cc"},
        {}, build);
    REQUIRE(found.size() == 3);
    CHECK(found[0].file == fs::path("/work/project/notes.md"));
    CHECK(found[0].directory == fs::path("/work/project"));
    CHECK(found[0].arguments == std::vector<std::string>{"g++", "-x", "c++", "notes.md", "-x", "none", "-o", "prog"});
    CHECK(found[1].file == fs::path("/work/project/b.c"));
    CHECK(found[1].arguments == std::vector<std::string>{"g++", "-x", "c++", "-x", "none", "b.c", "-o", "prog"});
    CHECK(found[2].file == fs::path("/work/build/a.cc"));
    CHECK(found[2].arguments == std::vector<std::string>{"clang", "-c", "a.cc"});
  }
  SECTION("no compile: preprocessing only, a link, other programs") {
    CHECK(compiler_invocations({"/usr/bin/c++ -E a.cpp -o a.i", "/usr/bin/c++ -MM a.cpp",
                                "/usr/bin/c++ a.o b.o -o prog", "/usr/bin/python3 gen.py a.cpp", "",
                                "/usr/bin/ar qc liba.a a.o"},
                               {}, build)
              .empty());
  }
}

TEST_CASE("lint_database adds the units only the build's commands compiled", "[capture][lint]") {
  const fs::path source = "/work/project";
  const fs::path build = "/work/build";
  const nlohmann::json listed = nlohmann::json::parse(R"([
    {"directory": "/work/build", "file": "/work/project/src/a.cpp", "arguments": ["c++", "-c", "/work/project/src/a.cpp"]}
  ])");
  const auto compiled = compiler_invocations(
      {"cd /work/build && /usr/bin/c++ -isystem /work/project/include -c /work/project/src/extra.cpp -o extra.o",
       "/usr/bin/c++ -c /work/project/src/a.cpp -o a.o", "/usr/bin/c++ -c /usr/src/outside.cpp -o o.o"},
      {}, build);
  const auto database = hydra::capture::lint_database(listed, {}, source, build, {build}, {}, compiled);
  CHECK(database.units == std::vector<fs::path>{"/work/project/src/a.cpp", "/work/project/src/extra.cpp"});
  CHECK(database.made_from_build_commands == std::vector<std::string>{"/work/project/src/extra.cpp"});
  REQUIRE(database.commands.size() == 2);
  CHECK(database.commands[1].at("arguments") ==
        nlohmann::json::array({"/usr/bin/c++", "-I/work/project/include", "-c", "/work/project/src/extra.cpp", "-o", "extra.o"}));
  // Without the build's commands the custom command's unit is not linted.
  CHECK(hydra::capture::lint_database(listed, {}, source, build, {build}, {}).units.size() == 1);
}
