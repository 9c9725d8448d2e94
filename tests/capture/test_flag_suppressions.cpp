// Tests for the suppression flags judged from each unit's compile command
// (lint/flag_suppressions.hpp).
#include <catch2/catch.hpp>

#include <hydra/capture/lint/build_commands.hpp>
#include <hydra/capture/lint/flag_suppressions.hpp>
#include <hydra/util/files.hpp>

namespace fs = std::filesystem;
using hydra::capture::CommandTrees;
using hydra::capture::CompileCommand;
using hydra::capture::compiler_invocations;
using hydra::capture::new_flag_suppressions;
using hydra::capture::suppression_flags;

namespace {

const auto kNoPragma = [](const fs::path&) { return false; };

std::vector<CompileCommand> commands(const std::string& line, const fs::path& build) {
  return compiler_invocations({line}, {}, build);
}

}  // namespace

TEST_CASE("the suppression flags of a compile command", "[capture][lint]") {
  const CommandTrees trees{"/w/src", "/w/src/build"};
  SECTION("valid input") {
    const std::vector<std::string> arguments = {
        "/usr/bin/c++", "-I/w/src/include", "-isystem", "/w/src/vendor", "-isystem", "/usr/include/x",
        "-Wall",        "-Wno-conversion",  "-w",       "-Xclang",       "-w",       "-fdiagnostics-color=always",
        "-fdiagnostics-format=json", "-Wl,--as-needed", "-Werror", "-include", "/w/src/quiet.h", "-c", "a.cpp"};
    const auto hides = [](const fs::path& file) { return file == "/w/src/quiet.h"; };
    CHECK(suppression_flags(arguments, trees, hides) ==
          std::vector<std::string>{"+-Wall", "-Wno-conversion", "-Xclang -w", "-fdiagnostics-format=json",
                                   "-include <source>/quiet.h", "-isystem <source>/vendor", "-w"});
    // A forced include without a pragma (a precompiled header) hides nothing.
    CHECK(suppression_flags({"c++", "-include", "/w/src/pch.h"}, trees, hides).empty());
  }
  SECTION("bad input") {
    CHECK(suppression_flags({}, trees, kNoPragma).empty());
    CHECK(suppression_flags({"c++", "-isystem"}, trees, kNoPragma).empty());
    CHECK(suppression_flags({"c++", "-Xclang"}, trees, kNoPragma).empty());
  }
}

TEST_CASE("flags a candidate's unit gained over the baseline's same unit", "[capture][lint]") {
  const CommandTrees base{"/b/src", "/b/build"};
  const CommandTrees cand{"/c/src", "/c/build"};
  const auto baseline = commands("/usr/bin/c++ -I/b/src/include -isystem /b/src/third -Wall -Wextra -Wno-unused "
                                 "-o CMakeFiles/lib.dir/src/a.cpp.o -c /b/src/src/a.cpp",
                                 base.build);
  SECTION("valid input") {
    // Spelled however the change liked, the compiler got -Wno-conversion,
    // -w after -Xclang and no -Wextra; the baseline's own flags are not new.
    const auto candidate = commands("cd /c/build && /usr/bin/c++ -I/c/src/include -isystem /c/src/third -Wall "
                                    "-Wno-unused -Wno-conversion -Xclang -w -o CMakeFiles/lib.dir/src/a.cpp.o "
                                    "-c /c/src/src/a.cpp",
                                    cand.build);
    const auto found = new_flag_suppressions(baseline, base, candidate, cand, kNoPragma);
    REQUIRE(found.size() == 3);
    CHECK(found[0].unit == "<source>/src/a.cpp");
    CHECK(found[0].target == "<build>/lib");
    CHECK(found[0].flag == "-Wno-conversion");
    CHECK(found[1].flag == "-Xclang -w");
    CHECK(found[2].flag == "removed -Wextra");
    // A new unit of the same target is judged against the target's units.
    const auto added = commands("/usr/bin/c++ -Wall -Wno-unused -isystem /c/src/more -o CMakeFiles/lib.dir/src/b.cpp.o "
                                "-c /c/src/src/b.cpp",
                                cand.build);
    const auto new_unit = new_flag_suppressions(baseline, base, added, cand, kNoPragma);
    REQUIRE(new_unit.size() == 1);
    CHECK(new_unit[0].flag == "-isystem <source>/more");
  }
  SECTION("bad input") {
    // The same command in another tree gains nothing.
    const auto same = commands("/usr/bin/c++ -I/c/src/include -isystem /c/src/third -Wall -Wextra -Wno-unused "
                               "-o CMakeFiles/lib.dir/src/a.cpp.o -c /c/src/src/a.cpp",
                               cand.build);
    CHECK(new_flag_suppressions(baseline, base, same, cand, kNoPragma).empty());
    CHECK(new_flag_suppressions({}, base, {}, cand, kNoPragma).empty());
  }
}

TEST_CASE("a forced include hides warnings when it holds a diagnostic pragma", "[capture][lint]") {
  hydra::util::TempDir temp("hydra-flag-pragma");
  SECTION("valid input") {
    hydra::util::write_file_atomic(temp.path() / "quiet.h", "#pragma GCC diagnostic ignored \"-Wconversion\"\n");
    CHECK(hydra::capture::holds_diagnostic_pragma(temp.path() / "quiet.h"));
  }
  SECTION("bad input") {
    hydra::util::write_file_atomic(temp.path() / "pch.h", "#include <vector>\n#pragma once\n");
    CHECK_FALSE(hydra::capture::holds_diagnostic_pragma(temp.path() / "pch.h"));
    CHECK_FALSE(hydra::capture::holds_diagnostic_pragma(temp.path() / "missing.h"));
  }
}
