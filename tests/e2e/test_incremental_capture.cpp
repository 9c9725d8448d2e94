// End to end: the lint cache and the compiler cache with real cmake,
// clang-tidy and ccache. A capture re-lints exactly the units a change can
// affect (a header, a NOLINT comment, .clang-tidy, a compile flag), and its
// lint log is byte-identical to a capture without caches.
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

/// Four units with clang-tidy findings: a and b include shared.hpp, c
/// includes c.hpp, d includes nothing of the project.
void write_project(const fs::path& source) {
  using hydra::util::write_file_atomic;
  fs::create_directories(source);
  write_file_atomic(source / "CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.25)\n"
                    "project(units LANGUAGES CXX)\n"
                    "add_library(units a.cpp b.cpp c.cpp d.cpp)\n"
                    "target_include_directories(units PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})\n");
  write_file_atomic(source / ".clang-tidy", "Checks: '-*,modernize-use-nullptr,readability-braces-around-statements'\n");
  write_file_atomic(source / "shared.hpp", "#pragma once\ninline int* shared_pointer() { return 0; }\n");
  write_file_atomic(source / "c.hpp", "#pragma once\nint c_value(int x);\n");
  write_file_atomic(source / "a.cpp", "#include \"shared.hpp\"\nint a(int x) {\n  if (x) return 1;\n  return 0;\n}\n");
  write_file_atomic(source / "b.cpp", "#include \"shared.hpp\"\nint* b() { return 0; }\n");
  write_file_atomic(source / "c.cpp", "#include \"c.hpp\"\nint c_value(int x) {\n  int* p = 0;\n  return p ? x : 0;\n}\n");
  write_file_atomic(source / "d.cpp", "int d(int x) {\n  while (x) x--;\n  return x;\n}\n");
  commit_repository(source);
}

/// The number of clang-tidy warnings in a lint log.
std::size_t warnings(const std::string& log) {
  std::size_t count = 0;
  for (std::size_t at = log.find(": warning: "); at != std::string::npos; at = log.find(": warning: ", at + 1)) ++count;
  return count;
}

struct Capture {
  nlohmann::json lint_step;
  nlohmann::json compiler;
  std::string log;
};

}  // namespace

TEST_CASE("a capture re-lints exactly the units a change affects, with the same log as without caches",
          "[e2e][capture][cache]") {
  hydra::util::TempDir temp("hydra-incremental");
  const fs::path source = temp.path() / "units";
  write_project(source);
  int count = 0;
  // Every capture in a build tree of its own, as candidates are: the caches
  // are shared through the runs' folder (runs/.cache).
  const auto capture = [&](const std::string& name, std::vector<std::string> extra = {}) {
    const fs::path out = temp.path() / "runs" / name;
    std::vector<std::string> argv =
        capture_command(source, out,
                        {"--build-dir", (temp.path() / "trees" / std::to_string(count++)).string(), "--generator",
                         "Ninja", "--jobs", "2"});
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto result = run(argv);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const auto manifest = read_json(out / "manifest.json");
    Capture captured;
    for (const auto& step : manifest["steps"])
      if (step["name"] == "lint") captured.lint_step = step;
    REQUIRE(captured.lint_step.is_object());
    captured.compiler = manifest["caches"]["compiler"];
    captured.log = hydra::util::read_file(out / "lint" / "0.log");
    return captured;
  };
  const auto linted = [](const Capture& c) { return c.lint_step["units_linted"].get<int>(); };
  const auto cached = [](const Capture& c) { return c.lint_step["units_from_cache"].get<int>(); };

  const Capture cold = capture("cold");
  CHECK(linted(cold) == 4);
  CHECK(cached(cold) == 0);
  CHECK(cold.log.find("modernize-use-nullptr") != std::string::npos);
  CHECK(cold.log.find("readability-braces-around-statements") != std::string::npos);

  SECTION("an unchanged tree in another build tree takes every unit from the cache") {
    const Capture warm = capture("warm");
    CHECK(linted(warm) == 0);
    CHECK(cached(warm) == 4);
    CHECK(warm.log == cold.log);
    if (hydra::util::find_program("ccache")) {
      // Another tree at another path compiles nothing the first compiled.
      CHECK(warm.compiler["used"] == true);
      CHECK(warm.compiler["misses"] == 0);
      CHECK(warm.compiler["hits"].get<int>() >= 4);
    }
    const Capture uncached = capture("uncached", {"--no-cache"});
    CHECK(uncached.lint_step["cache"]["used"] == false);
    CHECK(uncached.compiler["used"] == false);
    CHECK(linted(uncached) == 4);
    CHECK(uncached.log == cold.log);
  }

  SECTION("a header change re-lints the units that include it") {
    hydra::util::write_file_atomic(source / "shared.hpp",
                                   "#pragma once\n// a comment\ninline int* shared_pointer() { return 0; }\n");
    const Capture changed = capture("header");
    CHECK(linted(changed) == 2);  // a.cpp and b.cpp
    CHECK(cached(changed) == 2);
    CHECK(changed.log == capture("header-uncached", {"--no-cache"}).log);
  }

  SECTION("a NOLINT-only change re-lints its unit; the blanked marker changes nothing") {
    hydra::util::write_file_atomic(
        source / "c.cpp", "#include \"c.hpp\"\nint c_value(int x) {\n  int* p = 0;  // NOLINT\n  return p ? x : 0;\n}\n");
    const Capture changed = capture("nolint");
    CHECK(linted(changed) == 1);
    CHECK(cached(changed) == 3);
    // The change added the NOLINT, so lint sees it blanked: the finding
    // stays (its snippet shows the blanked comment).
    CHECK(warnings(changed.log) == warnings(cold.log));
    CHECK(changed.log.find("NOLINT") == std::string::npos);
    CHECK(changed.log == capture("nolint-uncached", {"--no-cache"}).log);
  }

  SECTION("a .clang-tidy change re-lints every unit") {
    hydra::util::write_file_atomic(source / ".clang-tidy", "Checks: '-*,modernize-use-nullptr'\n");
    const Capture changed = capture("config");
    CHECK(linted(changed) == 4);
    CHECK(cached(changed) == 0);
    CHECK(changed.log.find("readability-braces-around-statements") == std::string::npos);
    CHECK(changed.log == capture("config-uncached", {"--no-cache"}).log);
  }

  SECTION("a compile-flag change re-lints the units it applies to") {
    hydra::util::write_file_atomic(source / "CMakeLists.txt",
                                   "cmake_minimum_required(VERSION 3.25)\n"
                                   "project(units LANGUAGES CXX)\n"
                                   "add_library(units a.cpp b.cpp c.cpp d.cpp)\n"
                                   "target_include_directories(units PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})\n"
                                   "set_source_files_properties(d.cpp PROPERTIES COMPILE_DEFINITIONS EXTRA=1)\n");
    const Capture changed = capture("flags");
    CHECK(linted(changed) == 1);  // d.cpp
    CHECK(cached(changed) == 3);
    CHECK(changed.log == capture("flags-uncached", {"--no-cache"}).log);
  }
}

TEST_CASE("a candidate's blanked NOLINT and its cached lint match a capture without caches",
          "[e2e][capture][cache]") {
  hydra::util::TempDir temp("hydra-incremental-candidate");
  const fs::path source = temp.path() / "units";
  write_project(source);
  const fs::path runs = temp.path() / "runs";
  const auto run_capture = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> argv = capture_command(source, runs / name, {"--generator", "Ninja", "--jobs", "2"});
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto result = run(argv);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return read_json(runs / name / "manifest.json");
  };
  run_capture("baseline", {});
  hydra::util::write_file_atomic(source / "b.cpp", "#include \"shared.hpp\"\nint* b() { return 0; }  // NOLINT\n");
  const auto candidate = run_capture("candidate", {"--baseline-run", (runs / "baseline").string()});
  const auto uncached = run_capture("uncached", {"--baseline-run", (runs / "baseline").string(), "--no-cache"});
  CHECK(candidate["caches"]["lint"]["hits"] == 3);  // a, c and d as the baseline linted them
  CHECK(candidate["lint_view"]["stripped_suppressions"].size() == 1);
  // The score's reports say what the caches did.
  const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                           (runs / "candidate").string(), "--markdown", (temp.path() / "report.md").string(),
                           "--quiet", "--no-gate-exit"});
  INFO(scored.output);
  const std::string markdown = hydra::util::read_file(temp.path() / "report.md");
  CHECK(markdown.find("lint: 3 of 4 translation units from the cache") != std::string::npos);
  CHECK(hydra::util::read_file(runs / "candidate" / "lint" / "0.log") ==
        hydra::util::read_file(runs / "uncached" / "lint" / "0.log"));
  // The blanked NOLINT suppresses nothing: as many findings as the baseline's.
  CHECK(warnings(hydra::util::read_file(runs / "candidate" / "lint" / "0.log")) ==
        warnings(hydra::util::read_file(runs / "baseline" / "lint" / "0.log")));
  if (hydra::util::find_program("ccache")) {
    // The baseline fills ccache; a candidate only reads it. A real code
    // change (the NOLINT above was a comment, which ccache's preprocessed
    // mode does not see) is compiled and not stored, so nothing a
    // candidate's build did is in the cache for a later compilation to take.
    hydra::util::write_file_atomic(source / "b.cpp", "#include \"shared.hpp\"\nint* b() { return nullptr; }\n");
    const auto first = run_capture("changed", {"--baseline-run", (runs / "baseline").string()});
    const auto& compiler = first["caches"]["compiler"];
    CHECK(compiler["read_only"] == true);
    CHECK(compiler["misses"] == 1);  // b.cpp
    const auto second = run_capture("changed-again", {"--baseline-run", (runs / "baseline").string()});
    CHECK(second["caches"]["compiler"]["misses"] == 1);  // still not in the cache
    CHECK(run_capture("baseline", {})["caches"]["compiler"]["read_only"] == false);
  }
}
