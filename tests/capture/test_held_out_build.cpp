// Tests for the held-out run's build of the code (capture/held_out_build.hpp):
// the candidate's own configure and the held-out run's (the baseline's test
// files) compared on the targets that compile code only.
#include <catch2/catch.hpp>

#include <hydra/capture/held_out_build.hpp>
#include <hydra/util/text.hpp>

using hydra::capture::held_out_build_differences;
using hydra::model::BuildTarget;
using hydra::model::BuildTargets;

namespace {

/// A library `lib` of src/a.cpp (no define) and a test program `test_a` of
/// tests/test_a.cpp, configured from /src into /b.
BuildTargets configured() {
  BuildTargets targets;
  targets.source_root = "/src";
  targets.build_root = "/b";
  hydra::model::CompileGroup group;
  group.language = "CXX";
  group.fragments = {"-O2"};
  BuildTarget lib;
  lib.name = "lib";
  lib.type = "STATIC_LIBRARY";
  lib.compile_groups = {group};
  lib.sources = {{"/src/src/a.cpp", false, 0}};
  BuildTarget test = lib;
  test.name = "test_a";
  test.type = "EXECUTABLE";
  test.sources = {{"/src/tests/test_a.cpp", false, 0}};
  targets.targets = {lib, test};
  return targets;
}

bool is_test(const std::string& path) { return hydra::util::starts_with(path, "tests/"); }

}  // namespace

TEST_CASE("held-out build: the same code built alike shows no difference", "[capture][held-out-build]") {
  CHECK(held_out_build_differences(configured(), configured(), is_test).empty());
}

TEST_CASE("held-out build: a define the change's test files give the library is named", "[capture][held-out-build]") {
  // tests/CMakeLists.txt of the change: target_compile_definitions(lib PRIVATE RANK_DESCENDING);
  // the held-out run has the baseline's tests/CMakeLists.txt.
  BuildTargets own = configured();
  own.targets[0].compile_groups[0].defines.push_back("RANK_DESCENDING");
  const auto found = held_out_build_differences(own, configured(), is_test);
  REQUIRE(found.size() == 1);
  CHECK(found[0].key == "define RANK_DESCENDING");
  CHECK(found[0].detail == "target lib, src/a.cpp: RANK_DESCENDING only in the candidate's own build");
  // A source the test files add to the library, too.
  own = configured();
  own.targets[0].sources.push_back({"/src/src/b.cpp", false, 0});
  const auto added = held_out_build_differences(own, configured(), is_test);
  REQUIRE(added.size() == 1);
  CHECK(added[0].key == "source src/b.cpp");
}

TEST_CASE("held-out build: test programs and targets of one side only are left out", "[capture][held-out-build]") {
  BuildTargets own = configured();
  // The change's test program built otherwise, and a new test program.
  own.targets[1].compile_groups[0].defines.push_back("EXTRA_CHECKS");
  BuildTarget added = own.targets[1];
  added.name = "test_b";
  added.sources = {{"/src/tests/test_b.cpp", false, 0}};
  own.targets.push_back(added);
  // A library the change adds (its test files cannot have built it before).
  BuildTarget library = own.targets[0];
  library.name = "newlib";
  library.compile_groups[0].defines.push_back("ANYTHING");
  own.targets.push_back(library);
  CHECK(held_out_build_differences(own, configured(), is_test).empty());
  // A target mixing code and test sources is left out as well.
  own = configured();
  own.targets[0].sources.push_back({"/src/tests/helpers.cpp", false, 0});
  own.targets[0].compile_groups[0].defines.push_back("X");
  BuildTargets held = configured();
  held.targets[0].sources.push_back({"/src/tests/helpers.cpp", false, 0});
  CHECK(held_out_build_differences(own, held, is_test).empty());
}
