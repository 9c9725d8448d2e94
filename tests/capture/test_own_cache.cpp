// Tests for hydra::capture::own_cache_refusal: which changes let a candidate's
// build fill the compiler cache its held-out builds trust (own_cache.hpp).
// The commands are the shapes CMake's Ninja generator writes (`ninja -t
// commands` of a real tree: compilations behind the launcher, links as
// `: && ... && :`, custom commands behind `cd <dir> &&`).
#include <catch2/catch.hpp>

#include <hydra/capture/cmake/own_cache.hpp>

using hydra::capture::own_cache_refusal;
using hydra::capture::OwnCacheInputs;

namespace {

/// A tree at /w with its build tree at /w/build: a library and a test
/// program, built as fmt's are.
OwnCacheInputs library_tree(std::vector<std::string> changed) {
  OwnCacheInputs inputs;
  inputs.changed = std::move(changed);
  inputs.top = "/w";
  inputs.build = "/w/build";
  inputs.launcher = "/usr/bin/ccache";
  inputs.configure_inputs = {"/w/CMakeLists.txt", "/w/test/CMakeLists.txt", "/w/support/cmake/fmt-config.cmake.in",
                             "/usr/share/cmake/Modules/CMakeCXXInformation.cmake", "CMakeFiles/3.25.1/CMakeCXXCompiler.cmake"};
  inputs.commands = {
      "/usr/bin/ccache /usr/bin/c++ -I/w/include -O3 -MD -MT CMakeFiles/fmt.dir/src/format.cc.o -MF "
      "CMakeFiles/fmt.dir/src/format.cc.o.d -o CMakeFiles/fmt.dir/src/format.cc.o -c /w/src/format.cc",
      "/usr/bin/ccache /usr/bin/c++ -I/w/include -O3 -o test/CMakeFiles/base-test.dir/base-test.cc.o -c "
      "/w/test/base-test.cc",
      ": && /usr/bin/cmake -E rm -f libfmt.a && /usr/bin/ar qc libfmt.a  CMakeFiles/fmt.dir/src/format.cc.o && "
      "/usr/bin/ranlib libfmt.a && :",
      ": && /usr/bin/c++ -O3 test/CMakeFiles/base-test.dir/base-test.cc.o -o bin/base-test libfmt.a && :"};
  return inputs;
}

}  // namespace

TEST_CASE("a change to code and tests lets the build fill its own cache") {
  CHECK(own_cache_refusal(library_tree({"include/fmt/format.h", "test/base-test.cc", "src/format.cc"})) == "");
  // A new file, and a rename's both sides.
  CHECK(own_cache_refusal(library_tree({"include/fmt/new.h", "src/old.cc", "src/new.cc"})) == "");
}

TEST_CASE("a change to a build-system file does not") {
  for (const std::string file : {"CMakeLists.txt", "test/CMakeLists.txt", "support/cmake/FindThing.cmake",
                                 "CMakePresets.json", "CMakeUserPresets.json"}) {
    INFO(file);
    CHECK(own_cache_refusal(library_tree({"include/fmt/format.h", file})).find("a file of the build system") !=
          std::string::npos);
  }
  // Nor to a file the configure read (configure_file's input).
  CHECK(own_cache_refusal(library_tree({"support/cmake/fmt-config.cmake.in"})) ==
        "the configure read support/cmake/fmt-config.cmake.in, which the change touches");
  // A configure input named relative to the build tree.
  auto inputs = library_tree({"build/CMakeFiles/3.25.1/CMakeCXXCompiler.cmake"});
  CHECK(own_cache_refusal(inputs) != "");
}

TEST_CASE("a build that runs a program of the trees' own does not") {
  SECTION("a program the build links, run by a custom command") {
    auto inputs = library_tree({"include/fmt/format.h"});
    inputs.commands.push_back("cd /w/build/test && /w/build/bin/gen /w/build/test/generated.h");
    CHECK(own_cache_refusal(inputs) == "the build runs /w/build/bin/gen, which the build tree holds");
  }
  SECTION("relative to the custom command's folder") {
    auto inputs = library_tree({"include/fmt/format.h"});
    inputs.commands.push_back("cd /w/build/test && ../bin/gen generated.h");
    CHECK(own_cache_refusal(inputs) == "the build runs /w/build/bin/gen, which the build tree holds");
  }
  SECTION("a script of the change, run directly or by an interpreter") {
    auto inputs = library_tree({"include/fmt/format.h", "tools/gen.py"});
    inputs.commands.push_back("cd /w/build && /w/tools/gen.py out.h");
    CHECK(own_cache_refusal(inputs) == "the build runs /w/tools/gen.py, a file of the change");
    inputs.commands.back() = "cd /w/build && /usr/bin/python3 /w/tools/gen.py out.h";
    CHECK(own_cache_refusal(inputs) == "a command of the build names /w/tools/gen.py, a file of the change");
  }
  SECTION("a script the change leaves alone is the base's") {
    auto inputs = library_tree({"include/fmt/format.h"});
    inputs.commands.push_back("cd /w/build && /usr/bin/python3 /w/tools/gen.py out.h && /usr/bin/cmake -E touch "
                              "/w/build/stamp");
    CHECK(own_cache_refusal(inputs) == "");
  }
  SECTION("what a link makes, named by an interpreter, a preload or a compiler plugin") {
    auto inputs = library_tree({"include/fmt/format.h"});
    inputs.commands.push_back(": && /usr/bin/c++ -shared -o libplugin.so plugin.o && :");
    auto with = [&](const std::string& line) {
      auto changed = inputs;
      changed.commands.push_back(line);
      return own_cache_refusal(changed);
    };
    CHECK(with("cd /w/build && /bin/sh -c \"bin/base-test --list\"") ==
          "a command of the build names /w/build/bin/base-test, which the build links");
    CHECK(with("cd /w/build && LD_PRELOAD=/w/build/libplugin.so /usr/bin/cmake -E true") ==
          "a command of the build names /w/build/libplugin.so, which the build links");
    CHECK(with("/usr/bin/ccache /usr/bin/c++ -fplugin=/w/build/libplugin.so -o a.o -c /w/src/a.cc") ==
          "a command of the build names /w/build/libplugin.so, which the build links");
  }
  SECTION("unknown commands") {
    auto inputs = library_tree({"include/fmt/format.h"});
    inputs.commands.clear();
    CHECK(own_cache_refusal(inputs) == "the build's commands are unknown (only Ninja's are read)");
  }
}
