// End to end: a capture tree whose configure failed is configured again by
// the next capture (a failed configure leaves a CMakeCache.txt but no build
// system behind).
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace e2e;

TEST_CASE("a capture after a failed configure configures again", "[e2e][capture]") {
  hydra::util::TempDir temp("hydra-reconfigure");
  const fs::path source = temp.path() / "tiny";
  fs::create_directories(source);
  hydra::util::write_file_atomic(source / "CMakeLists.txt", "cmake_minimum_required(VERSION 3.25)\n"
                                                            "project(tiny LANGUAGES CXX)\n"
                                                            "message(FATAL_ERROR \"broken on purpose\")\n");
  hydra::util::write_file_atomic(source / "tiny.cpp", "int tiny() { return 1; }\n");
  const fs::path tree = temp.path() / "tree";
  auto capture = [&](const std::string& out) {
    return run(capture_command(source, temp.path() / out,
                               {"--build-dir", tree.string(), "--generator", "Ninja", "--jobs", "2"}));
  };

  const auto broken = capture("broken");
  INFO(broken.output);
  REQUIRE(broken.exit_code == 0);
  CHECK(read_json(temp.path() / "broken" / "signals.json")["build"]["passed"] == false);
  CHECK(fs::exists(tree / "CMakeCache.txt"));  // left behind by the failed configure

  hydra::util::write_file_atomic(source / "CMakeLists.txt", "cmake_minimum_required(VERSION 3.25)\n"
                                                            "project(tiny LANGUAGES CXX)\n"
                                                            "add_library(tiny tiny.cpp)\n");
  const auto fixed = capture("fixed");
  INFO(fixed.output);
  REQUIRE(fixed.exit_code == 0);
  CHECK(read_json(temp.path() / "fixed" / "signals.json")["build"]["passed"] == true);
  bool configured_again = false;
  const auto manifest = read_json(temp.path() / "fixed" / "manifest.json");
  for (const auto& step : manifest["steps"])
    configured_again = configured_again || step["name"] == "configure";
  CHECK(configured_again);
}
