// Tests for build-targets.json (hydra::parse::to_json / parse_build_targets).
#include <catch2/catch.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/build_targets.hpp>

using hydra::parse::parse_build_targets;

TEST_CASE("build-targets.json round-trips and rejects what it did not write", "[parse][build_targets]") {
  hydra::model::BuildTargets targets;
  targets.source_root = "/p";
  targets.build_root = "/p/build";
  targets.compilers = {{"CXX", "/usr/bin/c++"}};
  hydra::model::BuildTarget program;
  program.name = "test_count";
  program.type = "EXECUTABLE";
  program.directory = "/p/tests";
  program.artifacts = {"/p/build/tests/test_count"};
  program.sources = {{"/p/tests/test_count.cpp", false, 0}, {"/p/tests/check.hpp", false, -1}};
  program.compile_groups = {{"CXX", {"-Wall", "-include", "/p/x.h"}, {"A=1"}, {{"/p/include", true}}, {"<vector>"}, ""}};
  program.link = {{"-rdynamic", "flags"}, {"<target:textstats>", "libraries"}};
  program.dependencies = {"textstats"};
  program.definition_files = {"/p/tests/CMakeLists.txt"};
  targets.targets = {program};

  SECTION("valid input: what to_json writes reads back the same") {
    const auto read = parse_build_targets(hydra::parse::to_json(targets).dump(), "build-targets.json");
    CHECK(hydra::parse::to_json(read) == hydra::parse::to_json(targets));
    REQUIRE(read.find("test_count") != nullptr);
    CHECK(read.find("test_count")->compile_groups.front().includes.front().system);
    CHECK(read.find("nothing") == nullptr);
  }
  SECTION("valid input: a problem instead of targets") {
    hydra::model::BuildTargets unknown;
    unknown.problem = "no File API reply in /b/.cmake/api/v1/reply";
    CHECK(parse_build_targets(hydra::parse::to_json(unknown).dump(), "x").problem == unknown.problem);
  }
  SECTION("bad input: errors name the file and the JSON pointer") {
    auto json = hydra::parse::to_json(targets);
    json["targets"][0]["sources"][0]["compile_group"] = 7;
    CHECK_THROWS_WITH(parse_build_targets(json.dump(), "b.json"), Catch::Contains("b.json") && Catch::Contains("/targets/0/sources"));
    json = hydra::parse::to_json(targets);
    json["targets"][0]["compile_groups"][0]["includes"][0]["system"] = "yes";
    CHECK_THROWS_WITH(parse_build_targets(json.dump(), "b.json"), Catch::Contains("expected a boolean"));
    CHECK_THROWS_AS(parse_build_targets("{\"source_root\": ", "b.json"), hydra::InputError);
    CHECK_THROWS_WITH(parse_build_targets("[]", "b.json"), Catch::Contains("expected an object"));
  }
}
