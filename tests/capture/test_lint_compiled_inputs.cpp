// Tests for the inputs of compiled units checked against their compile
// (lint/compiled_inputs.hpp): Ninja's deps log read, and the judgement of
// what changed after an object was compiled.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <thread>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/lint/compiled_inputs.hpp>
#include <hydra/util/files.hpp>

namespace fs = std::filesystem;
using hydra::capture::AlteredCompile;
using hydra::capture::FileTime;
using hydra::capture::NinjaDepsEntry;

namespace {

// Real `ninja -t deps` output (ninja 1.11.1, a textstats build whose
// post-build step deleted gen/textstats_lines_fast.inl after count.cpp was
// compiled), cut to a few inputs per object.
const char* const kDeps =
    "CMakeFiles/textstats.dir/src/count.cpp.o: #deps 4, deps mtime 1795873507642254445 (VALID)\n"
    "    ../source/src/count.cpp\n"
    "    /usr/include/stdc-predef.h\n"
    "    ../source/include/textstats/textstats.hpp\n"
    "    /work/rt/build/gen/textstats_lines_fast.inl\n"
    "\n"
    "tests/CMakeFiles/test_tokenize.dir/test_tokenize.cpp.o: #deps 1, deps mtime 1795873509330254516 (STALE)\n"
    "    ../source/tests/test_tokenize.cpp\n"
    "\n";

const std::int64_t kCompiled = 1795873507642254445;

}  // namespace

TEST_CASE("ninja's deps log is read entry by entry", "[capture][lint]") {
  SECTION("valid input") {
    const auto entries = hydra::capture::parse_ninja_deps(kDeps);
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].object == "CMakeFiles/textstats.dir/src/count.cpp.o");
    CHECK(entries[0].recorded == kCompiled);
    CHECK(entries[0].inputs == std::vector<std::string>{"../source/src/count.cpp", "/usr/include/stdc-predef.h",
                                                        "../source/include/textstats/textstats.hpp",
                                                        "/work/rt/build/gen/textstats_lines_fast.inl"});
    CHECK(entries[1].inputs.size() == 1);
    CHECK(entries[1].recorded == 1795873509330254516);
  }
  SECTION("bad input") {
    CHECK(hydra::capture::parse_ninja_deps("").empty());
    // Lines under no entry header belong to none.
    CHECK(hydra::capture::parse_ninja_deps("    ../orphan.h\nninja: error: loading 'build.ninja'\n    x.h\n").empty());
  }
}

TEST_CASE("a compile's inputs changed or gone since it ran are found", "[capture][lint]") {
  const NinjaDepsEntry entry = hydra::capture::parse_ninja_deps(kDeps).front();
  std::map<std::string, FileTime> now = {
      {"CMakeFiles/textstats.dir/src/count.cpp.o", {true, true, kCompiled}},
      {"../source/src/count.cpp", {true, true, kCompiled - 5000000000}},
      {"/usr/include/stdc-predef.h", {}},  // outside the trees: not looked at
      {"../source/include/textstats/textstats.hpp", {true, true, kCompiled - 1}},
      {"/work/rt/build/gen/textstats_lines_fast.inl", {true, true, kCompiled - 1000}},
  };
  const auto time_of = [&](const std::string& file) { return now.at(file); };
  SECTION("valid input") {
    // Every input older than the object (a header generated before the compile): nothing.
    const AlteredCompile honest = hydra::capture::altered_compile(entry, time_of);
    CHECK_FALSE(honest.any());
    // One equal to the object's time (same clock tick) is not later.
    now["../source/include/textstats/textstats.hpp"].modified = kCompiled;
    CHECK_FALSE(hydra::capture::altered_compile(entry, time_of).any());
  }
  SECTION("bad input") {
    now["/work/rt/build/gen/textstats_lines_fast.inl"] = {true, false, 0};  // deleted after the compile
    now["../source/include/textstats/textstats.hpp"].modified = kCompiled + 1;  // rewritten after it
    const AlteredCompile altered = hydra::capture::altered_compile(entry, time_of);
    CHECK(altered.missing == std::vector<std::string>{"/work/rt/build/gen/textstats_lines_fast.inl"});
    CHECK(altered.changed == std::vector<std::string>{"../source/include/textstats/textstats.hpp"});
    CHECK_FALSE(altered.object_rewritten);
    now["CMakeFiles/textstats.dir/src/count.cpp.o"].modified = kCompiled + 2000;  // the object written over
    CHECK(hydra::capture::altered_compile(entry, time_of).object_rewritten);
  }
}

TEST_CASE("ninja's recorded time is nanoseconds, or seconds before ninja 1.9", "[capture][lint]") {
  SECTION("valid input") {
    CHECK_FALSE(hydra::capture::later_than_recorded(kCompiled, kCompiled));
    CHECK(hydra::capture::later_than_recorded(kCompiled + 1, kCompiled));
    // 1795873507 s recorded: a file of the same second is not later, one of the next is.
    CHECK_FALSE(hydra::capture::later_than_recorded(kCompiled + 300000000, 1795873507));
    CHECK(hydra::capture::later_than_recorded(kCompiled + 400000000, 1795873507));
  }
  SECTION("bad input") { CHECK_FALSE(hydra::capture::later_than_recorded(0, kCompiled)); }
}

TEST_CASE("paths the steps saw are found on HydraScore's side", "[capture][lint]") {
  using hydra::capture::Mount;
  const std::vector<Mount> mounts = {{Mount::Access::read_only, "/seen/src", "/host/tree/src"},
                                     {Mount::Access::read_write, "/seen/src/build", "/host/tree/build"},
                                     {Mount::Access::hidden, "/seen/src/.git", ""}};
  SECTION("valid input") {
    CHECK(hydra::capture::host_path(mounts, "/seen/src/a.cpp") == "/host/tree/src/a.cpp");
    CHECK(hydra::capture::host_path(mounts, "/seen/src/build/gen/x.inl") == "/host/tree/build/gen/x.inl");
    CHECK(hydra::capture::host_path(mounts, "/seen/src") == "/host/tree/src");
  }
  SECTION("bad input") {
    CHECK(hydra::capture::host_path(mounts, "/usr/include/stdio.h") == "/usr/include/stdio.h");
    CHECK(hydra::capture::host_path({}, "/seen/src/a.cpp") == "/seen/src/a.cpp");
  }
}

TEST_CASE("the build's warm-up of lint counts only when nothing its units read was written since",
          "[capture][lint]") {
  hydra::util::TempDir temp("hydra-unchanged-since");
  const fs::path source = temp.path() / "source", build = temp.path() / "build";
  fs::create_directories(source);
  fs::create_directories(build / ".hydra-lint-view");
  for (const auto& file : {source / "a.cpp", source / "a.h", source / "b.cpp", build / "gen.h",
                           build / "compile_commands.json"})
    hydra::util::write_file_atomic(file, "// " + file.filename().string() + "\n");
  hydra::capture::Plan plan;
  plan.source = source;
  plan.build_dir = build;
  // The recorded log's form (above), naming this test's files as Ninja
  // names them: relative to the build tree, system headers absolute.
  const std::string deps =
      "CMakeFiles/lib.dir/a.cpp.o: #deps 4, deps mtime 1795873507642254445 (VALID)\n"
      "    ../source/a.cpp\n"
      "    /usr/include/stdc-predef.h\n"
      "    ../source/a.h\n"
      "    gen.h\n"
      "\n";
  // The file system's clock moves in ticks: the warm-up begins a tick later.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto since = hydra::capture::file_system_now(build / ".hydra-lint-view" / "warm-up-began");
  REQUIRE(since);
  const std::vector<fs::path> units = {source / "a.cpp"};
  const std::vector<fs::path> also = {build / "compile_commands.json"};
  SECTION("valid input: nothing written since") {
    CHECK(hydra::capture::unchanged_since(plan, units, deps, *since, also));
  }
  SECTION("a generated header the unit reads, written by the build since") {
    hydra::util::write_file_atomic(build / "gen.h", "// gen.h, again\n");
    CHECK_FALSE(hydra::capture::unchanged_since(plan, units, deps, *since, also));
  }
  SECTION("compile_commands.json written since (the build configured again)") {
    hydra::util::write_file_atomic(build / "compile_commands.json", "[]\n");
    CHECK_FALSE(hydra::capture::unchanged_since(plan, units, deps, *since, also));
  }
  SECTION("bad input: a unit no compile of the log reads, or no log") {
    CHECK_FALSE(hydra::capture::unchanged_since(plan, {source / "a.cpp", source / "b.cpp"}, deps, *since, also));
    CHECK_FALSE(hydra::capture::unchanged_since(plan, units, std::nullopt, *since, also));
  }
}

TEST_CASE("lint keeps its cache entries only when the check after the steps beside it finds no compile altered",
          "[capture][lint]") {
  hydra::util::TempDir temp("hydra-recheck");
  const fs::path source = temp.path() / "source", build = temp.path() / "build";
  fs::create_directories(source);
  fs::create_directories(build);
  for (const auto& file : {source / "a.cpp", source / "a.h"})
    hydra::util::write_file_atomic(file, "// " + file.filename().string() + "\n");
  hydra::capture::Plan plan;
  plan.source = source;
  plan.build_dir = build;
  // a.cpp's object compiled a tick after both files were written: Ninja
  // records the object's time then.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto compiled = hydra::capture::file_system_now(build / "a.cpp.o");
  REQUIRE(compiled);
  const std::string deps = "a.cpp.o: #deps 2, deps mtime " + std::to_string(*compiled) +
                           " (VALID)\n    ../source/a.cpp\n    ../source/a.h\n\n";
  const std::vector<fs::path> units = {source / "a.cpp"};
  hydra::capture::Staging staging;
  staging.directory = temp.path();
  plan.baseline = hydra::model::RunManifest{};  // a candidate: an altered compile is a problem
  SECTION("valid input: nothing altered, before or after") {
    hydra::capture::check_compiled_inputs(plan, units, deps, staging);
    CHECK(hydra::capture::recheck_compiled_inputs(plan, units, deps, staging));
    CHECK(staging.manifest["compiled_inputs"]["altered"].empty());
  }
  SECTION("a header altered before the first check and again after it: not kept, though no problem is new") {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    hydra::util::write_file_atomic(source / "a.h", "// a.h, rewritten\n");
    hydra::capture::check_compiled_inputs(plan, units, deps, staging);
    const auto problems = staging.manifest["problems"];
    REQUIRE(problems.size() == 1);
    hydra::util::write_file_atomic(source / "a.h", "// a.h, rewritten again\n");
    CHECK_FALSE(hydra::capture::recheck_compiled_inputs(plan, units, deps, staging));
    CHECK(staging.manifest["problems"] == problems);
  }
  SECTION("a header altered only after the first check: a new problem, not kept") {
    hydra::capture::check_compiled_inputs(plan, units, deps, staging);
    CHECK_FALSE(staging.manifest.contains("problems"));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    hydra::util::write_file_atomic(source / "a.h", "// a.h, rewritten\n");
    CHECK_FALSE(hydra::capture::recheck_compiled_inputs(plan, units, deps, staging));
    CHECK(staging.manifest["problems"].size() == 1);
  }
}
