// Tests for the configure differential's comparison
// (capture/cmake/configure_differential.hpp): two configures' codemodels and
// generated files, with the build trees at different paths.
#include <catch2/catch.hpp>

#include <hydra/capture/cmake/configure_differential.hpp>
#include <hydra/util/files.hpp>

namespace fs = std::filesystem;
using hydra::capture::compare_configures;
using hydra::capture::ConfigureOutputs;

namespace {

/// A library `lib` of /src/a.cpp and /src/b.cpp (both in compile group 0:
/// -DSHARED=1, -O2, include /src/include and <build>/gen), linking -lm, as
/// configured into `build`.
ConfigureOutputs configured(const std::string& build) {
  ConfigureOutputs outputs;
  outputs.build = build;
  outputs.targets.source_root = "/src";
  outputs.targets.build_root = build;
  hydra::model::BuildTarget lib;
  lib.name = "lib";
  lib.type = "STATIC_LIBRARY";
  lib.artifacts = {build + "/liblib.a"};
  hydra::model::CompileGroup group;
  group.language = "CXX";
  group.defines = {"SHARED=1"};
  group.fragments = {"-O2 -Wall"};
  group.includes = {{"/src/include", false}, {build + "/gen", false}};
  lib.compile_groups = {group};
  lib.sources = {{"/src/a.cpp", false, 0}, {"/src/b.cpp", false, 0}};
  lib.link = {{"-lm", "libraries"}};
  outputs.targets.targets = {lib};
  outputs.generated = {{"gen/config.h", "#define PREFIX \"<build>/share\"\n"}};
  return outputs;
}

std::vector<std::string> keys(const std::vector<hydra::model::ConfigureDifference>& differences) {
  std::vector<std::string> out;
  for (const auto& difference : differences) out.push_back(difference.key);
  return out;
}

}  // namespace

TEST_CASE("the same configure in two build trees shows no difference", "[capture][configure-differential]") {
  CHECK(compare_configures(configured("/b/capture"), configured("/tmp/build")).empty());
}

TEST_CASE("a define the capture alone has is named, keyed by the macro", "[capture][configure-differential]") {
  ConfigureOutputs captured = configured("/b/capture");
  captured.targets.targets[0].compile_groups[0].defines.push_back("FIX_UNTERMINATED=1");
  const auto found = compare_configures(captured, configured("/tmp/build"));
  REQUIRE(keys(found) == std::vector<std::string>{"define FIX_UNTERMINATED"});
  // Two sources share the group: the first is named, the other counted.
  CHECK(found[0].detail == "target lib, a.cpp: FIX_UNTERMINATED=1 only in HydraScore's capture (and 1 more)");
  // The same macro valued otherwise is one difference, under the same key.
  ConfigureOutputs plain = configured("/tmp/build");
  plain.targets.targets[0].compile_groups[0].defines.push_back("FIX_UNTERMINATED=0");
  CHECK(keys(compare_configures(captured, plain)) == std::vector<std::string>{"define FIX_UNTERMINATED"});
}

TEST_CASE("a source compiled on one side only is named on its side", "[capture][configure-differential]") {
  ConfigureOutputs captured = configured("/b/capture"), plain = configured("/tmp/build");
  captured.targets.targets[0].sources[1].path = "/src/b_fixed.cpp";
  const auto found = compare_configures(captured, plain);
  REQUIRE(keys(found) == std::vector<std::string>{"source b.cpp", "source b_fixed.cpp"});
  CHECK(found[0].detail == "target lib: b.cpp only in a plain configure");
  CHECK(found[1].detail == "target lib: b_fixed.cpp only in HydraScore's capture");
}

TEST_CASE("a file of the build tree is named alike where the build tree lies inside the source tree",
          "[capture][configure-differential]") {
  // A unity source: absolute in the capture's tree outside the source tree;
  // relative to the source tree where a plain configure builds in /src/build
  // (how the codemodel names a file inside the source tree).
  ConfigureOutputs captured = configured("/b/capture"), plain = configured("/src/build");
  captured.targets.targets[0].sources.push_back({"/b/capture/CMakeFiles/lib.dir/Unity/unity_0_cxx.cxx", false, 0});
  plain.targets.targets[0].sources.push_back({"build/CMakeFiles/lib.dir/Unity/unity_0_cxx.cxx", false, 0});
  CHECK(compare_configures(captured, plain).empty());
  // A source of the tree named `build...` is not taken for the build tree.
  plain.targets.targets[0].sources.back().path = "builder/unity_0_cxx.cxx";
  CHECK(keys(compare_configures(captured, plain)) ==
        std::vector<std::string>{"source <build>/CMakeFiles/lib.dir/Unity/unity_0_cxx.cxx", "source builder/unity_0_cxx.cxx"});
}

TEST_CASE("a plain configure of a copy at another path compares its source tree as `<source>`",
          "[capture][configure-differential]") {
  // The plain configure sees the tree where a user clones it (/home/u/repo,
  // its build tree inside): sources, include folders and generated text
  // naming the source tree are the same configure.
  ConfigureOutputs captured = configured("/b/capture");
  captured.generated["gen/paths.h"] = "#define DATA \"/src/data\"\n";
  ConfigureOutputs plain;
  plain.build = "/home/u/repo/build";
  plain.targets = configured("/home/u/repo/build").targets;
  plain.targets.source_root = "/home/u/repo";
  auto& group = plain.targets.targets[0].compile_groups[0];
  group.includes[0].path = "/home/u/repo/include/";  // as the codemodel may write `.`
  plain.targets.targets[0].sources = {{"src/a.cpp", false, 0}, {"/home/u/repo/b.cpp", false, 0}};
  plain.targets.targets[0].sources[0].path = "/home/u/repo/a.cpp";
  plain.generated = {{"gen/config.h", "#define PREFIX \"<build>/share\"\n"},
                     {"gen/paths.h", "#define DATA \"/home/u/repo/data\"\n"}};
  CHECK(compare_configures(captured, plain).empty());
  // A define keyed on the folder's name is still told apart.
  plain.targets.targets[0].compile_groups[0].defines.push_back("IN_SOURCE_FOLDER=0");
  CHECK(keys(compare_configures(captured, plain)) == std::vector<std::string>{"define IN_SOURCE_FOLDER"});
}

TEST_CASE("flags, include folders, link fragments and targets are compared", "[capture][configure-differential]") {
  ConfigureOutputs captured = configured("/b/capture"), plain = configured("/tmp/build");
  captured.targets.targets[0].compile_groups[0].fragments = {"-O2 -Wall -ffast-math"};
  captured.targets.targets[0].compile_groups[0].includes.push_back({"/src/fixed", true});
  captured.targets.targets[0].link.push_back({"<build>/libfix.a", "libraries"});
  plain.targets.targets.push_back(plain.targets.targets[0]);
  plain.targets.targets.back().name = "extra";
  CHECK(keys(compare_configures(captured, plain)) ==
        std::vector<std::string>{"flag -ffast-math", "include system <source>/fixed", "link <build>/libfix.a",
                                 "target extra"});
}

TEST_CASE("generated files are compared with the build tree's path and time stamps masked",
          "[capture][configure-differential]") {
  ConfigureOutputs captured = configured("/b/capture"), plain = configured("/tmp/build");
  captured.generated["gen/stamp.h"] = "#define BUILT \"2024-05-01 12:00:01\"\n";
  plain.generated["gen/stamp.h"] = "#define BUILT \"2024-05-01 12:00:02\"\n";
  CHECK(compare_configures(captured, plain).empty());
  captured.generated["gen/config.h"] = "#define PREFIX \"<build>/share\"\n#define FAST 1\n";
  captured.generated["gen/only.h"] = "";
  const auto found = compare_configures(captured, plain);
  REQUIRE(keys(found) == std::vector<std::string>{"generated gen/config.h", "generated gen/only.h"});
  CHECK(found[1].detail == "gen/only.h only in HydraScore's capture");
}

TEST_CASE("mask_times masks dates and clock times only", "[capture][configure-differential]") {
  CHECK(hydra::capture::mask_times("at 2024-05-01 12:34:56 v1") == "at <date> <time> v1");
  CHECK(hydra::capture::mask_times("#define FIX 1\n#define N 20240501") == "#define FIX 1\n#define N 20240501");
}

TEST_CASE("the files a configure generated are read, CMake's own left out", "[capture][configure-differential]") {
  CHECK(hydra::capture::is_cmake_own_file("CMakeCache.txt"));
  CHECK(hydra::capture::is_cmake_own_file("CMakeFiles/3.28/CMakeCXXCompiler.cmake"));
  CHECK(hydra::capture::is_cmake_own_file("tests/CTestTestfile.cmake"));
  CHECK(hydra::capture::is_cmake_own_file(".hydra-tmp/x"));
  CHECK_FALSE(hydra::capture::is_cmake_own_file("include/config.h"));
  hydra::util::TempDir temp("hydra-cfgdiff");
  const fs::path build = temp.path() / "build";
  fs::create_directories(build / "CMakeFiles");
  fs::create_directories(build / "gen");
  hydra::util::write_file_atomic(build / "CMakeCache.txt", "x");
  hydra::util::write_file_atomic(build / "CMakeFiles/x.cmake", "x");
  hydra::util::write_file_atomic(build / "old.o", "an earlier build's");
  hydra::util::write_file_atomic(build / "kept.h", "older, but the other side has it");
  const auto since = fs::file_time_type::clock::now() + std::chrono::seconds(1);
  fs::last_write_time(build / "old.o", since - std::chrono::hours(1));
  fs::last_write_time(build / "kept.h", since - std::chrono::hours(1));
  hydra::util::write_file_atomic(build / "gen/config.h", "#include \"" + build.string() + "/gen/more.h\"\n");
  fs::last_write_time(build / "gen/config.h", since);
  const auto files = hydra::capture::read_generated_files(build, build, since, {"kept.h"});
  CHECK(files == std::map<std::string, std::string>{{"gen/config.h", "#include \"<build>/gen/more.h\"\n"},
                                                    {"kept.h", "older, but the other side has it"}});
}
