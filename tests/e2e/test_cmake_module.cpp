// End to end: HydraScore.cmake on example-project, a project that never
// mentions HydraScore (added through CMAKE_PROJECT_TOP_LEVEL_INCLUDES), with
// real cmake, ctest, clang-tidy and git.
#include <catch2/catch.hpp>

#include <algorithm>

#include "e2e_support.hpp"

using namespace e2e;
using hydra::util::TempDir;

namespace {

const std::vector<std::string> kCandidates = {"clean-fix", "breaks-test", "deletes-tests", "protected-lint",
                                              "no-build"};

void configure(const fs::path& source, const fs::path& build, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv = {"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja",
                                   "-DCMAKE_BUILD_TYPE=Debug",
                                   "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + kModule.string(),
                                   "-DHYDRA_SCORE_EXECUTABLE=" + kTool.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto result = run(argv);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
}

}  // namespace

TEST_CASE("hydra_baseline and hydra_score rank example-project's candidate patches", "[e2e][cmake]") {
  TempDir temp("hydra-e2e");
  const fs::path source = temp.path() / "example-project";
  const fs::path build = temp.path() / "build";
  const fs::path hydra = build / "hydra";
  make_example_repository(source);
  configure(source, build);

  // The baseline: 9 of 10 tests pass (the bug), clang-tidy finds 2 warnings.
  const auto baseline = run({"cmake", "--build", build.string(), "--target", "hydra_baseline"});
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  const auto signals = read_json(hydra / "baseline" / "signals.json");
  CHECK(signals["tests"]["passed"] == 9);
  CHECK(signals["tests"]["failed"] == 1);
  CHECK(signals["lint"]["warnings"] == 2);
  CHECK(signals["build"]["passed"] == true);
  // The user's cache entries reach the capture tree through -C.
  CHECK(fs::exists(hydra / "initial-cache.cmake"));
  CHECK(fs::exists(hydra / "trees" / "baseline" / "CMakeCache.txt"));

  // An unchanged base is not captured again.
  const auto again = run({"cmake", "--build", build.string(), "--target", "hydra_baseline"});
  REQUIRE(again.exit_code == 0);
  CHECK(again.output.find("up to date") != std::string::npos);

  std::vector<std::string> score_argv = {kTool.string(), "score", "--baseline", (hydra / "baseline").string(),
                                         "--json", (temp.path() / "all.json").string(), "--quiet"};
  for (const auto& name : kCandidates) {
    CAPTURE(name);
    apply_candidate(source, name);
    // The patches that touch CMake files are scored from the working tree
    // only by opting in (test_build_steering.cpp shows the refusal).
    configure(source, build, {"-DHYDRA_SCORE_AGENT=" + name, "-DHYDRA_SCORE_ALLOW_CMAKE_CHANGES=ON"});
    const auto scored = run({"cmake", "--build", build.string(), "--target", "hydra_score"});
    INFO(scored.output);
    const auto contract = read_json(hydra / "score.json");
    REQUIRE(contract["rankings"].size() == 1);
    const auto entry = contract["rankings"][0];
    CHECK(entry["agent"] == name);
    // A failed gate fails the target (FAIL_ON_GATE defaults to ON).
    CHECK((scored.exit_code == 0) == entry["mergeable"].get<bool>());
    for (const char* report : {"score.md", "score.html", "score.sarif", "gates.xml"})
      CHECK(fs::exists(hydra / report));
    CHECK(fs::exists(hydra / "results.db"));  // every ranking is recorded (STORE defaults to OUTPUT_DIR/results.db)
    // The candidate's change is stored in full, so it can be applied later.
    CHECK(fs::file_size(hydra / name / "diff.patch") > 0);
    score_argv.insert(score_argv.end(), {"--candidate", (hydra / name).string()});

    if (name == "clean-fix") {
      // All 12 tests pass, 2 new: 100 on every active dimension.
      CHECK(entry["mergeable"] == true);
      CHECK(entry["total"] == 100);
      CHECK(test_names(entry["tests"]["added"]) ==
            std::vector<std::string>{"count.blank_lines", "count.single_line_without_newline"});
      CHECK(entry["lint"]["introduced"].empty());
    } else if (name == "breaks-test") {
      CHECK(entry["mergeable"] == false);
      CHECK(failed_gates(entry) == std::vector<std::string>{"max_test_regression_percent"});
      CHECK(test_names(entry["tests"]["regressed"]) ==
            std::vector<std::string>{"count.empty_text", "count.lines_with_trailing_newline"});
    } else if (name == "deletes-tests") {
      // Deleting tests is a regression and tampering (anti-gaming).
      CHECK(entry["mergeable"] == false);
      CHECK(failed_gates(entry) == std::vector<std::string>{"max_test_regression_percent", "anti_gaming"});
      CHECK(test_names(entry["tests"]["dropped"]) ==
            std::vector<std::string>{"count.empty_text", "count.lines_without_trailing_newline"});
      CHECK(entry["dimensions"]["tests"]["evidence"]["dropped"] == 2);
    } else if (name == "protected-lint") {
      // Editing cmake/ caps diff scope at 30; two new clang-tidy warnings,
      // and -Wconversion taken out of every unit's compile command, a
      // suppression judged from what the compiler was told.
      CHECK(entry["breakdown"]["diff_scope"] == 30);
      CHECK(entry["lint"]["introduced"].size() == 2);
      CHECK(entry["breakdown"]["lint"] == 94);  // 100 - 2 new warnings * 2 - 1 suppression * 2
    } else if (name == "no-build") {
      CHECK(entry["mergeable"] == false);
      CHECK(entry["breakdown"]["build"] == 0);
      const auto gates = failed_gates(entry);
      CHECK(std::find(gates.begin(), gates.end(), "require_build_pass") != gates.end());
      // A build failure is not tampering: no test was dropped on purpose.
      CHECK(std::find(gates.begin(), gates.end(), "anti_gaming") == gates.end());
    }
  }

  // One ranking of all five: the clean fix wins.
  const auto ranked = run(score_argv);
  INFO(ranked.output);
  CHECK(ranked.exit_code == 0);  // the top candidate is mergeable
  const auto all = read_json(temp.path() / "all.json");
  REQUIRE(all["rankings"].size() == kCandidates.size());
  CHECK(all["rankings"][0]["agent"] == "clean-fix");
  CHECK(all["rankings"][4]["agent"] == "no-build");
}

TEST_CASE("a project that never mentions HydraScore, with Makefiles and its own cache options",
          "[e2e][cmake]") {
  TempDir temp("hydra-e2e");
  const fs::path source = temp.path() / "tiny";
  fs::create_directories(source);
  // Tests exist only when TINY_BUILD_TESTS is ON: the capture must see the
  // user's -DTINY_BUILD_TESTS=ON, or it would score a tree without tests.
  hydra::util::write_file_atomic(source / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(tiny LANGUAGES CXX)
option(TINY_BUILD_TESTS "Build the tests" OFF)
add_library(tiny tiny.cpp)
if(TINY_BUILD_TESTS)
  enable_testing()
  add_executable(tiny_test tiny_test.cpp)
  target_link_libraries(tiny_test PRIVATE tiny)
  add_test(NAME tiny.adds COMMAND tiny_test)
endif()
)");
  hydra::util::write_file_atomic(source / "tiny.cpp", "int tiny_add(int a, int b) { return a + b; }\n");
  hydra::util::write_file_atomic(source / "tiny_test.cpp",
                                 "int tiny_add(int, int);\nint main() { return tiny_add(2, 2) == 4 ? 0 : 1; }\n");
  git(source, {"init", "--quiet"});
  git(source, {"add", "--all"});
  git(source, {"commit", "--quiet", "-m", "tiny"});

  for (const std::string generator : {"Unix Makefiles", "Ninja Multi-Config"}) {
    CAPTURE(generator);
    // The build tree sits inside the source tree and is not git-ignored: it
    // must still not count as part of the change.
    const fs::path build = source / ("build-" + std::to_string(generator.size()));
    const auto configured = run({"cmake", "-S", source.string(), "-B", build.string(), "-G", generator,
                                 "-DTINY_BUILD_TESTS=ON", "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + kModule.string(),
                                 "-DHYDRA_SCORE_EXECUTABLE=" + kTool.string()});
    INFO(configured.output);
    REQUIRE(configured.exit_code == 0);
    std::vector<std::string> build_argv = {"cmake", "--build", build.string(), "--target"};
    if (generator == "Ninja Multi-Config") build_argv = {"cmake", "--build", build.string(), "--config", "Debug", "--target"};
    auto baseline_argv = build_argv;
    baseline_argv.push_back("hydra_baseline");
    const auto baseline = run(baseline_argv);
    INFO(baseline.output);
    REQUIRE(baseline.exit_code == 0);
    const auto signals = read_json(build / "hydra" / "baseline" / "signals.json");
    CHECK(signals["tests"]["passed"] == 1);  // TINY_BUILD_TESTS=ON reached the capture tree

    // An unchanged tree scores as mergeable.
    auto score_argv = build_argv;
    score_argv.push_back("hydra_score");
    const auto scored = run(score_argv);
    INFO(scored.output);
    CHECK(scored.exit_code == 0);
    const auto contract = read_json(build / "hydra" / "score.json");
    CHECK(contract["rankings"][0]["mergeable"] == true);
    CHECK(hydra::util::read_file(build / "hydra" / "current" / "diff.patch").empty());
    CHECK(contract["rankings"][0]["dimensions"]["diff_scope"]["evidence"]["files_touched"] == 0);
    // No recursion: the capture tree did not get HydraScore's targets.
    const std::string cache = hydra::util::read_file(build / "hydra" / "initial-cache.cmake");
    CHECK(cache.find("CMAKE_PROJECT_TOP_LEVEL_INCLUDES") == std::string::npos);
    CHECK(cache.find("TINY_BUILD_TESTS") != std::string::npos);
  }
}

TEST_CASE("find_package(HydraScore CONFIG) works after cmake --install", "[e2e][cmake]") {
  TempDir temp("hydra-e2e");
  const fs::path prefix = temp.path() / "prefix";
  const fs::path binary_dir = kTool.parent_path();
  const auto installed = run({"cmake", "--install", binary_dir.string(), "--prefix", prefix.string()});
  INFO(installed.output);
  REQUIRE(installed.exit_code == 0);
  CHECK(fs::exists(prefix / "bin" / "hydra-score"));

  const fs::path source = temp.path() / "consumer";
  fs::create_directories(source);
  hydra::util::write_file_atomic(source / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(consumer LANGUAGES CXX)
find_package(HydraScore CONFIG REQUIRED)
hydra_score_add_targets(AGENT consumer JOBS 2)
)");
  const fs::path build = temp.path() / "build";
  const auto configured = run({"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja",
                               "-DCMAKE_PREFIX_PATH=" + prefix.string()});
  INFO(configured.output);
  REQUIRE(configured.exit_code == 0);
  const std::string cache = hydra::util::read_file(build / "CMakeCache.txt");
  CHECK(cache.find("HYDRA_SCORE_EXECUTABLE:FILEPATH=" + (prefix / "bin" / "hydra-score").string()) !=
        std::string::npos);
  const auto targets = run({"ninja", "-C", build.string(), "-t", "targets", "all"});
  CHECK(targets.output.find("hydra_baseline") != std::string::npos);
  CHECK(targets.output.find("hydra_score") != std::string::npos);

  SECTION("bad usage") {
    hydra::util::write_file_atomic(source / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(consumer LANGUAGES CXX)
find_package(HydraScore CONFIG REQUIRED)
hydra_score_add_targets(JOBS many)
)");
    const auto rejected = run({"cmake", "-S", source.string(), "-B", (temp.path() / "bad").string(), "-G", "Ninja",
                               "-DCMAKE_PREFIX_PATH=" + prefix.string()});
    CHECK(rejected.exit_code != 0);
    CHECK(rejected.output.find("JOBS must be a positive integer") != std::string::npos);
  }
  SECTION("an agent name HydraScore reserves, by the rule installed beside the module") {
    hydra::util::write_file_atomic(source / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(consumer LANGUAGES CXX)
find_package(HydraScore CONFIG REQUIRED)
hydra_score_add_targets(AGENT worktrees)
)");
    const auto rejected = run({"cmake", "-S", source.string(), "-B", (temp.path() / "reserved").string(), "-G",
                               "Ninja", "-DCMAKE_PREFIX_PATH=" + prefix.string()});
    CHECK(rejected.exit_code != 0);
    CHECK(rejected.output.find("AGENT \"worktrees\" is a name HydraScore reserves") != std::string::npos);
  }
}

TEST_CASE("the hydra_loop target runs the improvement loop and restores the tree", "[e2e][cmake][loop]") {
  TempDir temp("hydra-e2e");
  const fs::path source = temp.path() / "example-project";
  const fs::path build = temp.path() / "build";
  make_example_repository(source);
  // The improver comes from the [loop] table of the project's hydra.toml.
  const fs::path improver = kSourceDir / "tests" / "fixtures" / "loop" / "improvers" / "make-worse.sh";
  std::string config = hydra::util::read_file(source / "hydra.toml");
  config += "\n[loop]\nimprover = \"sh " + improver.string() + "\"\nmax_iterations = 5\nimprover_timeout_seconds = 3\n";
  hydra::util::write_file_atomic(source / "hydra.toml", config);
  git(source, {"commit", "--quiet", "-am", "loop settings"});
  configure(source, build);

  const auto looped = run({"cmake", "--build", build.string(), "--target", "hydra_loop"});
  INFO(looped.output);
  REQUIRE(looped.exit_code == 0);
  const auto report = read_json(build / "hydra" / "loop" / "loop.json");
  // Every change made things worse: three reverts in a row, stuck.
  CHECK(report["classification"] == "stuck");
  CHECK(report["kept"] == 0);
  CHECK(report["reverted"] == 3);
  CHECK(fs::exists(build / "hydra" / "loop" / "results.tsv"));
  CHECK(fs::exists(build / "hydra" / "loop" / "loop.html"));
  // The tree is exactly the committed one again.
  const auto status = run({"git", "-C", source.string(), "status", "--porcelain"});
  CHECK(status.output.empty());
}

TEST_CASE("hydra_loop from cache variables alone, and without an improver it fails before iteration 0",
          "[e2e][cmake][loop]") {
  TempDir temp("hydra-e2e");
  const fs::path source = temp.path() / "example-project";
  make_example_repository(source);

  // No improver anywhere: the target fails at once, before iteration 0 is captured.
  const fs::path bare = temp.path() / "bare";
  configure(source, bare);
  const auto refused = run({"cmake", "--build", bare.string(), "--target", "hydra_loop"});
  INFO(refused.output);
  CHECK(refused.exit_code != 0);
  CHECK(refused.output.find("no improver: give --improver, [loop] improver, or IMPROVER / HYDRA_SCORE_IMPROVER") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(bare / "hydra" / "loop" / "iterations"));

  // The improver and the loop's arguments as cache variables (the project
  // has no hydra.toml [loop] table and never calls hydra_score_add_targets).
  const fs::path improver = kSourceDir / "tests" / "fixtures" / "loop" / "improvers" / "make-worse.sh";
  const fs::path build = temp.path() / "build";
  configure(source, build,
            {"-DHYDRA_SCORE_IMPROVER=sh " + improver.string(),
             "-DHYDRA_SCORE_LOOP=--max-iterations;1;--improver-timeout;3", "-DHYDRA_SCORE_JOBS=2"});
  const auto looped = run({"cmake", "--build", build.string(), "--target", "hydra_loop"});
  INFO(looped.output);
  REQUIRE(looped.exit_code == 0);
  const auto report = read_json(build / "hydra" / "loop" / "loop.json");
  // One iteration (--max-iterations 1), which made things worse: reverted.
  CHECK(report["kept"] == 0);
  CHECK(report["reverted"] == 1);
  CHECK(run({"git", "-C", source.string(), "status", "--porcelain"}).output.empty());
}

TEST_CASE("add_subdirectory and FetchContent of HydraScore give the targets and use the built tool",
          "[e2e][cmake]") {
  TempDir temp("hydra-e2e");
  const std::map<std::string, std::string> ways = {
      {"add_subdirectory", "add_subdirectory(\"" + kSourceDir.string() + "\" hydrascore)\n"},
      {"FetchContent", "include(FetchContent)\nFetchContent_Declare(HydraScore SOURCE_DIR \"" + kSourceDir.string() +
                           "\")\nFetchContent_MakeAvailable(HydraScore)\n"},
  };
  for (const auto& [way, snippet] : ways) {
    CAPTURE(way);
    const fs::path source = temp.path() / way;
    fs::create_directories(source);
    hydra::util::write_file_atomic(source / "CMakeLists.txt", "cmake_minimum_required(VERSION 3.25)\n"
                                                              "project(consumer LANGUAGES CXX)\n" +
                                                                  snippet + "hydra_score_add_targets(AGENT consumer)\n");
    const fs::path build = temp.path() / ("build-" + way);
    const auto configured = run({"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja"});
    INFO(configured.output);
    REQUIRE(configured.exit_code == 0);
    const auto targets = run({"ninja", "-C", build.string(), "-t", "targets", "all"});
    CHECK(targets.output.find("hydra_baseline") != std::string::npos);
    CHECK(targets.output.find("hydra_score") != std::string::npos);
    // The targets run the hydra-score built in this tree (and depend on it).
    const auto commands = run({"ninja", "-C", build.string(), "-t", "commands", "hydra_baseline"});
    const bool built_here = commands.output.find((build / "hydrascore").string()) != std::string::npos ||
                            commands.output.find((build / "_deps").string()) != std::string::npos;
    CHECK(built_here);
  }
}
