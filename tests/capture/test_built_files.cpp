// Files built but not in the change (capture/cmake/built_files.hpp).
#include <catch2/catch.hpp>

#include <hydra/capture/cmake/built_files.hpp>
#include <hydra/util/files.hpp>

using hydra::capture::built_outside_change;

TEST_CASE("files the build read outside the change are named", "[capture]") {
  hydra::util::TempDir temp("hydra-built-files");
  const auto top = temp.path() / "repo";
  const auto build = top / "build" / "hydra" / "trees" / "cand";
  const std::set<std::string> change = {"src/count.cpp", "include/textstats/textstats.hpp", "include/link.hpp"};
  const std::set<std::string> dependencies = {
      (top / "src/count.cpp").string(),
      (top / "include/textstats/textstats.hpp").string(),
      (top / "src/ignored_fix.hpp").string(),           // ignored by .gitignore
      (top / "vendor/nested/fix.hpp").string(),         // a nested repository's file
      (top / "build/generated.hpp").string(),           // the user's build tree
      "../../../../src/../build/other.hpp",             // relative to the capture's build tree
      (build / "generated/config.hpp").string(),        // the capture's own build tree
      "CMakeFiles/own.hpp",                             // relative: the capture's own build tree
      "/usr/include/c++/12/vector",                     // outside the work tree
  };
  CHECK(built_outside_change(dependencies, top, build, top, change) ==
        std::vector<std::string>{"build/generated.hpp", "build/other.hpp", "src/ignored_fix.hpp",
                                 "vendor/nested/fix.hpp"});

  SECTION("a file of the change that is a link counts with what it names") {
    std::filesystem::create_directories(top / "include");
    std::filesystem::create_directories(top / "ignored");
    hydra::util::write_file_atomic(top / "ignored/fix.hpp", "int fixed();\n");
    std::filesystem::create_symlink("../ignored/fix.hpp", top / "include/link.hpp");
    CHECK(built_outside_change({(top / "include/link.hpp").string()}, top, build, top, change) ==
          std::vector<std::string>{"ignored/fix.hpp"});
  }
  SECTION("nothing outside: nothing named") {
    CHECK(built_outside_change({(top / "src/count.cpp").string(), "/usr/include/stdio.h"}, top, build, top, change)
              .empty());
  }
}

TEST_CASE("files the build read outside both trees and the system's folders are named", "[capture]") {
  const std::filesystem::path top = "/work/repo/build/hydra/trees/cand/source";
  const std::filesystem::path build = "/work/repo/build/hydra/trees/cand/build";
  const std::set<std::string> inputs = {
      (top / "CMakeLists.txt").string(),                 // the source tree
      "CMakeFiles/3.25.1/CMakeSystem.cmake",             // relative: the build tree
      "/usr/share/cmake-3.25/Modules/CPack.cmake",       // the system's
      "/usr/include/c++/12/vector",
      "/etc/os-release",
      "/work/repo/build/hydra/initial-cache.cmake",      // HydraScore's own
      "/work/repo/.git/hydra-options.cmake",             // the clone's git directory
      "/work/repo/.git/inc/../inc/count_impl.hpp",
      "/home/someone/shared.cmake",
  };
  CHECK(hydra::capture::inputs_outside_trees(inputs, top, build, {"/work/repo/build/hydra/initial-cache.cmake"}) ==
        std::vector<std::string>{"/home/someone/shared.cmake", "/work/repo/.git/hydra-options.cmake",
                                 "/work/repo/.git/inc/count_impl.hpp"});
}

TEST_CASE("files of the change that are links out of the tree are named", "[capture]") {
  hydra::util::TempDir temp("hydra-built-links");
  const auto top = temp.path() / "repo";
  std::filesystem::create_directories(top / "src");
  hydra::util::write_file_atomic(temp.path() / "outside.cpp", "int answer() { return 42; }\n");
  hydra::util::write_file_atomic(top / "src/inside.cpp", "int answer();\n");
  std::filesystem::create_symlink(temp.path() / "outside.cpp", top / "src/out.cpp");
  std::filesystem::create_symlink("inside.cpp", top / "src/in.cpp");
  std::filesystem::create_symlink("../../missing.cpp", top / "src/dangling.cpp");
  CHECK(hydra::capture::links_out_of_tree({"src/inside.cpp", "src/out.cpp", "src/in.cpp", "src/dangling.cpp"}, top) ==
        std::vector<std::string>{"src/dangling.cpp -> ../../missing.cpp",
                                 "src/out.cpp -> " + (temp.path() / "outside.cpp").string()});
}
