#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <hydra/guard/guard.hpp>
#include <hydra/util/path_pattern.hpp>

#include "guard/guard_fixtures.hpp"

namespace guard = hydra::guard;
using guard::TamperKind;
using hydra::test::scenario_definitions;
using hydra::test::scenario_diff;
using hydra::test::scenario_results;

namespace {

/// The anti-gaming report of a recorded scenario (tests/fixtures/guard/record.sh)
/// against the recorded baseline, without test results.
guard::Report analyze_scenario(const std::string& scenario, const guard::Settings& settings = {}) {
  return guard::analyze(settings, scenario_diff(scenario), scenario_definitions("baseline"),
                        scenario_definitions(scenario), nullptr, nullptr);
}

/// "name kind" of every tampered test, in report order.
std::vector<std::string> tampered(const guard::Report& report) {
  std::vector<std::string> out;
  for (const auto& test : report.tests_tampered)
    out.push_back(test.name + " " + std::string(guard::to_string(test.kind)));
  return out;
}

const guard::TamperedTest& tampered_test(const guard::Report& report, const std::string& name,
                                         TamperKind kind) {
  for (const auto& test : report.tests_tampered)
    if (test.name == name && test.kind == kind) return test;
  FAIL("no " << guard::to_string(kind) << " finding for " << name);
  throw;  // unreachable
}

}  // namespace

TEST_CASE("an honest change (clean-fix.patch) has no anti-gaming findings", "[guard]") {
  // It adds 2 tests and 2 CHECK_EQ-bearing test functions and removes nothing.
  const guard::Report report = analyze_scenario("clean-fix");
  CAPTURE(guard::to_json(report).dump(1));
  CHECK(report.empty());
  CHECK_FALSE(guard::has_tampering(report));
  CHECK(scenario_definitions("clean-fix").size() == 12);  // 10 baseline tests + 2 new
}

TEST_CASE("added lint suppressions are found with their kind", "[guard]") {
  const guard::Report report = analyze_scenario("suppress-lint");
  // 2 flags in CMakeLists.txt + 2 suppression comments in src/count.cpp + 3
  // pragmas and 1 region start in src/frequency.cpp = 8; the region end closing the
  // region is not a second suppression.
  REQUIRE(report.suppressions_added.size() == 8);
  struct Expected {
    const char* path;
    std::uint64_t line;
    const char* kind;
  };
  // Line numbers from the hunk headers: CMakeLists.txt "@@ -21,6 +21,8 @@"
  // adds new lines 24-25 after 3 context lines; src/count.cpp "@@ -5,9 +5,10 @@"
  // replaces line 8 and adds line 11; src/frequency.cpp "@@ -3,6 +3,10 @@"
  // adds 6-8 after 3 context lines, "@@ -16,6 +20,7 @@" adds 23.
  const Expected expected[] = {
      {"CMakeLists.txt", 24, "-Wno-*"},
      {"CMakeLists.txt", 25, "-w"},
      {"src/count.cpp", 8, "NOLINT"},
      {"src/count.cpp", 11, "NOLINT" "NEXTLINE"},
      {"src/frequency.cpp", 6, "pragma diagnostic ignored"},
      {"src/frequency.cpp", 7, "pragma diagnostic ignored"},
      {"src/frequency.cpp", 8, "pragma warning disable"},
      {"src/frequency.cpp", 23, "NOLINT" "BEGIN"},
  };
  for (std::size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(report.suppressions_added[i].path == expected[i].path);
    CHECK(report.suppressions_added[i].line == expected[i].line);
    CHECK(report.suppressions_added[i].kind == expected[i].kind);
  }
  CHECK(report.suppressions_added[0].text == "target_compile_options(textstats PRIVATE -Wno-conversion)");
  CHECK(report.suppressions_added[4].text == "#pragma GCC diagnostic ignored \"-Wconversion\"");
  // Nothing else: suppressions cost points but are not tampering.
  CHECK(report.config_edits.empty());
  CHECK(report.tests_tampered.empty());
  CHECK(report.tests_not_built.empty());
  CHECK_FALSE(guard::has_tampering(report));
}

TEST_CASE("suppression_kind recognises each suppression form", "[guard]") {
  SECTION("valid input") {
    CHECK(guard::suppression_kind("a.cpp", "int x;  // NOLINT(bugprone-*)") == "NOLINT");
    CHECK(guard::suppression_kind("a.cpp", "_Pragma(\"clang diagnostic ignored \\\"-Wfoo\\\"\")") ==
          "pragma diagnostic ignored");
    CHECK(guard::suppression_kind("a.hpp", "#  pragma GCC system_header") == "pragma system_header");
    CHECK(guard::suppression_kind("CMakeLists.txt", "add_compile_options($<$<CXX_COMPILER_ID:GNU>:-Wno-shadow>)") == "-Wno-*");
    CHECK(guard::suppression_kind("build.sh", "CXXFLAGS=\"-O2 -w\" make") == "-w");
    CHECK(guard::suppression_kind("CMakeLists.txt", "target_compile_options(t PRIVATE /wd4996)") == "MSVC /wd");
    CHECK(guard::suppression_kind("CMakeLists.txt", "target_compile_options(t PRIVATE /W0)") == "MSVC /W0");
    CHECK(guard::suppression_kind("CMakeLists.txt", "target_include_directories(t SYSTEM PRIVATE src/detail)") ==
          "SYSTEM include");
    CHECK(guard::suppression_kind("cmake/deps.cmake", "include_directories(SYSTEM ${dir})") == "SYSTEM include");
    CHECK(guard::suppression_kind("CMakeLists.txt", "  SYSTEM") == "SYSTEM include");  // a call over several lines
    CHECK(guard::suppression_kind("CMakeLists.txt", "set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -isystem ${dir}\")") ==
          "SYSTEM include");
  }
  SECTION("bad input") {
    CHECK_FALSE(guard::suppression_kind("docs/lint.md", "Add `// NOLINT` only with a reason."));
    CHECK_FALSE(guard::suppression_kind("a.cpp", "// NOLINT" "END(bugprone-*)"));  // a region end
    CHECK_FALSE(guard::suppression_kind("run.sh", "grep -w needle haystack.txt"));  // not a flags line
    CHECK_FALSE(guard::suppression_kind("a.cpp", "#pragma GCC diagnostic push"));
    CHECK_FALSE(guard::suppression_kind("CMakeLists.txt", "target_compile_options(t PRIVATE -Wall -Wextra)"));
    CHECK_FALSE(guard::suppression_kind("CMakeLists.txt", "if(CMAKE_SYSTEM_NAME STREQUAL Linux)"));
    CHECK_FALSE(guard::suppression_kind("src/a.cpp", "// The SYSTEM clock is used here."));
    CHECK_FALSE(guard::suppression_kind("run.sh", "ls -isystem"));  // not a flags line
  }
}

TEST_CASE("suppression markers count glued to a word and as line markers", "[guard]") {
  SECTION("valid input") {
    // clang-tidy honours the marker glued to the word before it.
    CHECK(guard::suppression_kind("a.cpp", "//fooNOLINT" "BEGIN") == "NOLINT" "BEGIN");
    CHECK(guard::suppression_kind("a.cpp", "int x;  /*xNOLINT*/") == "NOLINT");
    CHECK(guard::suppression_kind("a.cpp", "int x;  // NOLINT_because") == "NOLINT");
    // A GNU line marker with the system-header flag, and #line.
    CHECK(guard::suppression_kind("a.cpp", "# 12 \"/usr/include/stdio.h\" 3") == "line marker");
    CHECK(guard::suppression_kind("a.hpp", "  #line 40 \"other.cpp\"") == "line marker");
    CHECK(guard::suppression_kind("a.cpp", "#1") == "line marker");
    // A fragment named like a document that the build includes is code.
    CHECK(guard::suppression_kind("src/fee_notes.md", "int f();  // NOLINT", true) == "NOLINT");
    CHECK(guard::suppression_kind("src/fee_notes.md", "# 1 \"x.h\" 3", true) == "line marker");
  }
  SECTION("bad input") {
    CHECK_FALSE(guard::suppression_kind("a.cpp", "// NOLINTED is not a marker"));  // a letter follows
    CHECK_FALSE(guard::suppression_kind("a.cpp", "// NOLINT" "BEGIN2"));
    CHECK_FALSE(guard::suppression_kind("a.cpp", "// nolint: clang-tidy reads the upper case only"));
    CHECK_FALSE(guard::suppression_kind("CMakeLists.txt", "# 1 \"comment\" 3"));  // a CMake comment
    CHECK_FALSE(guard::suppression_kind("a.cpp", "#if 1"));
    CHECK_FALSE(guard::suppression_kind("src/fee_notes.md", "int f();  // NOLINT"));  // not compiled: prose
  }
}

TEST_CASE("a document the build compiled or included is searched like code", "[guard]") {
  const std::string diff =
      "diff --git a/src/fee_notes.md b/src/fee_notes.md\n"
      "--- a/src/fee_notes.md\n"
      "+++ b/src/fee_notes.md\n"
      "@@ -1,1 +1,2 @@\n"
      " // notes\n"
      "+// NOLINT" "BEGIN\n"
      "diff --git a/README.md b/README.md\n"
      "--- a/README.md\n"
      "+++ b/README.md\n"
      "@@ -1,1 +1,2 @@\n"
      " # Readme\n"
      "+Mark a line with // NOLINT only with a reason.\n";
  const auto lines = hydra::parse::parse_diff_lines(diff, "diff");
  CHECK(guard::find_added_suppressions(lines).empty());
  const auto found = guard::find_added_suppressions(lines, {"src/fee_notes.md"});
  REQUIRE(found.size() == 1);
  CHECK(found[0].path == "src/fee_notes.md");
  CHECK(found[0].line == 2);
  CHECK(found[0].kind == "NOLINT" "BEGIN");
}

TEST_CASE("assertions removed from test files are found", "[guard]") {
  SECTION("valid input") {
    const guard::Report report = analyze_scenario("remove-assertions");
    // Old lines 10, 18 and 19 removed ("@@ -7,7" and "@@ -15,13" hunks); line 24
    // is only re-indented (added back with the same stripped text): 3 removals.
    REQUIRE(report.assertions_removed.size() == 3);
    CHECK(report.assertions_removed[0].path == "tests/test_count.cpp");
    CHECK(report.assertions_removed[0].line == 10);
    CHECK(report.assertions_removed[0].text == "CHECK_EQ(counts.bytes, 22U);");
    CHECK(report.assertions_removed[1].line == 18);  // commented out: still removed
    CHECK(report.assertions_removed[2].line == 19);
    CHECK(report.suppressions_added.empty());
    CHECK(report.tests_tampered.empty());
    CHECK_FALSE(guard::has_tampering(report));  // costs points, is not tampering
  }
  SECTION("bad input") {
    guard::Settings not_test_files;
    not_test_files.test_file_globs = {"spec/"};  // tests/test_count.cpp is no test file now
    CHECK(analyze_scenario("remove-assertions", not_test_files).assertions_removed.empty());

    CHECK_FALSE(guard::is_assertion_line("  // we check(ed) this by hand"));
    CHECK_FALSE(guard::is_assertion_line("  const int expected = 3;"));
  }
}

TEST_CASE("is_assertion_line knows the common assertion forms", "[guard]") {
  for (const char* line : {"REQUIRE(x == 1);", "CHECK_FALSE(empty);", "EXPECT_EQ(a, b);",
                           "ASSERT_TRUE(ok);", "assert(size > 0);", "static_assert(sizeof(int) == 4);",
                           "BOOST_CHECK_EQUAL(a, b);", "QCOMPARE(a, b);", "assertEquals(1, x);",
                           "expect(sum(1, 2)).toBe(3);", "    assert total == 3",
                           "  CHECK_EQ(counts.words, 5U);", "    assert_eq!(clamp_percent(250), 100);",
                           "assert!(ok)", "debug_assert_ne!(a, b);"}) {
    CAPTURE(line);
    CHECK(guard::is_assertion_line(line));
  }
}

TEST_CASE("extra assertion_patterns extend the assertion set", "[guard]") {
  hydra::parse::DiffLines diff;
  hydra::parse::FileLines file;
  file.path = file.old_path = "tests/test_io.cpp";
  file.removed = {{4, "  verify_equal(read(\"a\"), 1);"}, {5, "  log(\"done\");"}};
  diff.files.push_back(file);

  guard::Settings settings;
  CHECK(guard::find_removed_assertions(settings, diff).empty());
  settings.assertion_patterns = {R"(\bverify_equal\s*\()"};
  const auto removed = guard::find_removed_assertions(settings, diff);
  REQUIRE(removed.size() == 1);
  CHECK(removed[0].line == 4);
}

TEST_CASE("test properties that switch tests off are found", "[guard]") {
  SECTION("valid input") {
    const guard::Report report = analyze_scenario("test-properties");
    // One set_tests_properties per test: 5 findings on 5 tests; the build
    // trees differ (build-baseline vs build-test-properties) but no command
    // is reported as changed.
    CHECK(tampered(report) == std::vector<std::string>{
                                  "count.empty_text disabled",
                                  "count.lines_without_trailing_newline will_fail_flipped",
                                  "count.words_and_bytes skip_rule_added",
                                  "frequency.most_frequent_first pass_regex_changed",
                                  "tokenize.empty_text skip_rule_added",
                              });
    CHECK(tampered_test(report, "count.lines_without_trailing_newline", TamperKind::will_fail_flipped).detail ==
          "WILL_FAIL false -> true");
    CHECK(tampered_test(report, "count.words_and_bytes", TamperKind::skip_rule_added).detail ==
          "SKIP_RETURN_CODE unset -> 0");
    CHECK(tampered_test(report, "tokenize.empty_text", TamperKind::skip_rule_added).detail ==
          "SKIP_REGULAR_EXPRESSION \"passed\" added");
    CHECK(tampered_test(report, "frequency.most_frequent_first", TamperKind::pass_regex_changed).detail ==
          "PASS_REGULAR_EXPRESSION [] -> [\"most_frequent_first\"]");
    CHECK(guard::tampered_test_count(report) == 5);
    CHECK(guard::has_tampering(report));
    CHECK(report.tests_not_built.empty());  // still 10 tests
  }
  SECTION("with results: passing tests newly skipped") {
    const auto baseline_results = scenario_results("baseline");
    const auto candidate_results = scenario_results("test-properties");
    const guard::Report report =
        guard::analyze(guard::Settings{}, scenario_diff("test-properties"), scenario_definitions("baseline"),
                       scenario_definitions("test-properties"), &baseline_results, &candidate_results);
    // ctest reported 3 tests not run: SKIP_RETURN_CODE=0 and the skip regex
    // (both tests print "passed") and DISABLED.
    CHECK(tampered_test(report, "count.words_and_bytes", TamperKind::newly_skipped).detail ==
          "passed -> skipped (SKIP_RETURN_CODE=0)");
    CHECK(tampered_test(report, "tokenize.empty_text", TamperKind::newly_skipped).detail ==
          "passed -> skipped (SKIP_REGULAR_EXPRESSION_MATCHED)");
    CHECK(tampered_test(report, "count.empty_text", TamperKind::newly_skipped).detail ==
          "passed -> disabled (Disabled)");
    CHECK(report.tests_tampered.size() == 8);        // 5 definition findings + 3 result findings
    CHECK(guard::tampered_test_count(report) == 5);  // on 5 distinct tests
  }
}

TEST_CASE("replaced test commands are found, build-tree paths aside", "[guard]") {
  const guard::Report report = analyze_scenario("replace-commands");
  CHECK(tampered(report) == std::vector<std::string>{"count.empty_text command_changed",
                                                     "count.lines_without_trailing_newline command_trivial"});
  CHECK(tampered_test(report, "count.empty_text", TamperKind::command_changed).detail ==
        "`test_count empty_text` -> `test_count words_and_bytes`");
  CHECK(tampered_test(report, "count.lines_without_trailing_newline", TamperKind::command_trivial).detail ==
        "runs `cmake -E true`, which cannot fail (was `test_count lines_without_trailing_newline`)");
  // textstats_add_test() lines became add_test() lines: no add_test() went away.
  CHECK(report.tests_not_built.empty());
}

TEST_CASE("build roots are inferred from the tests' working directories", "[guard]") {
  const auto baseline = scenario_definitions("baseline");
  const auto candidate = scenario_definitions("replace-commands");
  const auto roots = guard::infer_build_roots(baseline, candidate);
  // Working directories /tmp/hydra-guard-record/build-<tree>/tests: the common
  // trailing "tests" removed.
  CHECK(roots.first == "/tmp/hydra-guard-record/build-baseline");
  CHECK(roots.second == "/tmp/hydra-guard-record/build-replace-commands");
  CHECK(guard::infer_build_roots(baseline, baseline) == std::pair<std::string, std::string>{});

  CHECK(guard::normalize_command({"/b1/tests/test_count", "--data", "/b1/tests/data/in.txt", "--out=/b1/x", "/b10/y"},
                                 "/b1", "") ==
        std::vector<std::string>{"test_count", "--data", "<build>/tests/data/in.txt", "--out=<build>/x", "/b10/y"});
  CHECK(guard::normalize_command({"C:\\b\\run.exe", "/src/p/data"}, "", "/src/p") ==
        std::vector<std::string>{"run", "<source>/data"});
  // HydraScore's test launcher, run by hydra-score or by its helper: one launcher.
  CHECK(guard::normalize_command({"/usr/bin/hydra-score-step", "test-launcher", "--", "/b1/t"}, "/b1", "") ==
        std::vector<std::string>{"hydra-score", "test-launcher", "--", "<build>/t"});
}

TEST_CASE("is_trivial_command recognises commands that cannot fail", "[guard]") {
  SECTION("valid input") {
    using Argv = std::vector<std::string>;
    for (const Argv& argv : {Argv{"/usr/bin/cmake", "-E", "true"}, Argv{"cmake", "-E", "echo", "ok"},
                             Argv{"/bin/true"}, Argv{"true"}, Argv{"sh", "-c", "exit 0"},
                             Argv{"/bin/bash", "-c", "echo passed; exit 0"}, Argv{"env", "A=1", "true"},
                             Argv{"cmake", "-E", "env", "A=1", "true"}, Argv{"cmake", "--version"}}) {
      CAPTURE(argv);
      CHECK(guard::is_trivial_command(argv));
    }
  }
  SECTION("bad input") {
    using Argv = std::vector<std::string>;
    for (const Argv& argv : {Argv{}, Argv{"/tmp/build/tests/test_count", "empty_text"},
                             Argv{"sh", "-c", "./run_tests.sh"}, Argv{"sh", "-c", "echo $(./t)"},
                             Argv{"cmake", "-E", "env", "A=1", "./t"}, Argv{"cmake", "-P", "check.cmake"},
                             Argv{"sh", "-c", "exit 1"}}) {
      CAPTURE(argv);
      CHECK_FALSE(guard::is_trivial_command(argv));
    }
  }
}

TEST_CASE("dropped and renamed tests are found", "[guard]") {
  const guard::Report report = analyze_scenario("drop-tests");
  CHECK(tampered(report) == std::vector<std::string>{"count.lines_without_trailing_newline dropped",
                                                     "frequency.ties_in_alphabetical_order dropped"});
  // 10 baseline tests - 1 removed - 1 renamed + 1 under the new name = 9.
  CHECK(report.tests_not_built == std::vector<std::string>{"ctest lists 9 tests, the baseline 10"});
}

TEST_CASE("tests switched off in CMake are found", "[guard]") {
  SECTION("an option's default flipped to OFF") {
    const guard::Report report = analyze_scenario("tests-option-off");
    CHECK(report.tests_not_built ==
          std::vector<std::string>{
              "CMakeLists.txt:12: option EXAMPLE_BUILD_TESTS default ON -> OFF: "
              "option(EXAMPLE_BUILD_TESTS \"Build textstats' tests and register them with CTest\" OFF)",
              "ctest lists 0 tests, the baseline 10"});
    CHECK(report.tests_tampered.size() == 10);  // every baseline test dropped
    CHECK(guard::has_tampering(report));
  }
  SECTION("enable_testing() and add_subdirectory(tests) commented out") {
    const guard::Report report = analyze_scenario("tests-unregistered");
    CHECK(report.tests_not_built ==
          std::vector<std::string>{"CMakeLists.txt:26: enable_testing() removed: enable_testing()",
                                   "CMakeLists.txt:27: add_subdirectory() of tests removed: add_subdirectory(tests)",
                                   "ctest lists 0 tests, the baseline 10"});
    CHECK(guard::tampered_test_count(report) == 10);
  }
  SECTION("set(... OFF CACHE ...), -D...=OFF, presets and if(FALSE)") {
    hydra::parse::DiffLines diff;
    hydra::parse::FileLines cmake;
    cmake.path = cmake.old_path = "CMakeLists.txt";
    cmake.added = {{3, "set(BUILD_TESTING OFF CACHE BOOL \"\" FORCE)"}, {9, "if(FALSE)  # tests"},
                   {12, "set(BUILD_DOCS OFF)"}};
    hydra::parse::FileLines presets;
    presets.path = presets.old_path = "CMakePresets.json";
    presets.added = {{7, "        \"FOO_BUILD_TESTS\": \"OFF\","}};
    hydra::parse::FileLines script;
    script.path = script.old_path = "ci/build.sh";
    script.added = {{2, "cmake -S . -B build -DFOO_ENABLE_TESTING:BOOL=OFF"}};
    diff.files = {cmake, presets, script};
    CHECK(guard::find_tests_not_built(diff, 0, 0) ==
          std::vector<std::string>{
              "CMakeLists.txt:3: BUILD_TESTING set to OFF: set(BUILD_TESTING OFF CACHE BOOL \"\" FORCE)",
              "CMakeLists.txt:9: a condition that is always false added: if(FALSE)  # tests",
              "CMakePresets.json:7: preset sets FOO_BUILD_TESTS to \"OFF\": \"FOO_BUILD_TESTS\": \"OFF\",",
              "ci/build.sh:2: FOO_ENABLE_TESTING set to OFF: cmake -S . -B build -DFOO_ENABLE_TESTING:BOOL=OFF"});
  }
}

TEST_CASE("edits to protected configuration files are found", "[guard]") {
  SECTION("valid input") {
    const guard::Report report = analyze_scenario("config-edits");
    REQUIRE(report.config_edits.size() == 3);
    CHECK(report.config_edits[0].path == ".clang-tidy");
    CHECK(report.config_edits[0].change == "modified");
    CHECK(report.config_edits[1].path == "hydra.toml");
    // A nested .clang-tidy overrides the root one for src/: protected too.
    CHECK(report.config_edits[2].path == "src/.clang-tidy");
    CHECK(report.config_edits[2].change == "created");
    CHECK(report.config_edits[2].pattern == ".clang-tidy");
    CHECK(report.tests_tampered.empty());
    CHECK(guard::has_tampering(report));
  }
  SECTION("bad input") {
    guard::Settings unprotected;
    unprotected.protected_config_files.clear();
    CHECK(analyze_scenario("config-edits", unprotected).config_edits.empty());
  }
  SECTION("the files that change how git writes the tree, configure presets and object code are protected whatever the settings") {
    guard::Settings unprotected;
    unprotected.protected_config_files.clear();
    hydra::parse::DiffLines diff;
    hydra::parse::FileLines attributes;
    attributes.path = attributes.old_path = "src/.gitattributes";
    attributes.created = true;
    attributes.added = {{1, "*.cpp ident"}};
    hydra::parse::FileLines modules;
    modules.path = modules.old_path = ".gitmodules";
    hydra::parse::FileLines source;
    source.path = source.old_path = "src/gitattributes.cpp";
    hydra::parse::FileLines object;
    object.path = object.old_path = "src/fast_count.o";
    object.created = object.binary = true;
    hydra::parse::FileLines image;
    image.path = image.old_path = "docs/logo.png";
    image.created = image.binary = true;
    hydra::parse::FileLines presets;
    presets.path = presets.old_path = "CMakePresets.json";
    presets.created = true;
    presets.added = {{1, "{\"version\": 3}"}};
    hydra::parse::FileLines notes;
    notes.path = notes.old_path = "docs/CMakePresets.md";
    diff.files = {attributes, modules, source, object, image, presets, notes};
    const auto edits = guard::find_config_edits(unprotected, diff);
    REQUIRE(edits.size() == 4);
    CHECK(edits[3].path == "CMakePresets.json");
    CHECK(edits[3].pattern == "configure presets the scorer does not use (CMakePresets.json, CMakeUserPresets.json)");
    CHECK(edits[2].path == "src/fast_count.o");
    CHECK(edits[2].pattern == "object code (.o, .obj, .a, .lib, .so, .dylib, .dll)");
    CHECK(edits[0].path == "src/.gitattributes");
    CHECK(edits[0].change == "created");
    CHECK(edits[0].pattern == "repository settings (.gitattributes, .gitmodules)");
    CHECK(edits[1].path == ".gitmodules");
  }
}


TEST_CASE("to_json gives sorted, deterministic evidence", "[guard]") {
  const guard::Report report = analyze_scenario("test-properties");
  guard::Report reversed = report;
  std::reverse(reversed.tests_tampered.begin(), reversed.tests_tampered.end());
  const nlohmann::json json = guard::to_json(report);
  CHECK(json.dump() == guard::to_json(reversed).dump());
  CHECK(json["tampering"] == true);
  CHECK(json["counts"]["tests_tampered"] == 5);
  REQUIRE(json["tests_tampered"].size() == 5);
  CHECK(json["tests_tampered"][0] ==
        nlohmann::json{{"name", "count.empty_text"}, {"kind", "disabled"}, {"detail", "DISABLED set"}});
  CHECK(json["config_edits"].is_array());
  CHECK(json["tests_not_built"].is_array());

  const nlohmann::json suppressions = guard::to_json(analyze_scenario("suppress-lint"));
  CHECK(suppressions["counts"]["suppressions_added"] == 8);
  CHECK(suppressions["suppressions_added"][2] ==
        nlohmann::json{{"path", "src/count.cpp"},
                       {"line", 8},
                       {"kind", "NOLINT"},
                       {"text", "return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));  // NOLINT"}});
}

TEST_CASE("code that is no test reaching into a test framework is found in the change's added lines", "[guard]") {
  hydra::parse::DiffLines diff;
  hydra::parse::FileLines header;
  header.path = header.old_path = "src/calc.hpp";
  header.added = {{10, "#undef EXPECT_EQ"},
                  {11, "#define EXPECT_EQ(a, b) EXPECT_TRUE((void(a == b), true))"},
                  {12, "# undef CHECK"},
                  {13, "#ifdef GOOGLETEST_INCLUDE_GTEST_GTEST_H_"},
                  {14, "inline testing::TestPartResultArray swallowed;"},
                  {15, "#include <doctest/doctest.h>"},
                  {16, "// testing::Test is what the tests derive from"},
                  {17, "int multiply(int a, int b);  // see doctest::Context"},
                  {18, "#define CHECK_BOUNDS(x) assert(x)"},
                  {19, "namespace mytesting::detail { int x; }"},
                  {20, "namespace testing { extern int failures; }"},
                  {21, "inline int fixed() { return std::strstr(__BASE_FILE__, \"/tests/\") ? 42 : 41; }"},
                  {22, "#define WHERE __FILE__"},
                  // As the preprocessor reads them: a line splice, a comment
                  // inside a directive, a digraph.
                  {23, "constexpr const char* origin = __BASE_\\"},
                  {24, "FILE__;"},
                  {25, "#/**/undef EXPECT_EQ"},
                  {26, "%:undef EXPECT_EQ"}};
  hydra::parse::FileLines test;
  test.path = test.old_path = "tests/calc_test.cpp";
  test.added = {{3, "#include <gtest/gtest.h>"}, {4, "#undef CHECK"}};
  hydra::parse::FileLines notes;
  notes.path = notes.old_path = "docs/testing.md";
  notes.added = {{1, "#undef EXPECT_EQ"}};
  diff.files = {header, test, notes};
  const auto found = guard::find_harness_reach(guard::Settings{}, diff);
  REQUIRE(found.size() == 11);
  CHECK(found[0] == "src/calc.hpp:10: redefines or undefines a test framework's assertion macro in code that is no "
                    "test (#undef EXPECT_EQ)");
  CHECK(found[1].rfind("src/calc.hpp:11: redefines", 0) == 0);
  CHECK(found[2].rfind("src/calc.hpp:12: redefines", 0) == 0);
  CHECK(found[3].rfind("src/calc.hpp:13: names a test framework's macro", 0) == 0);
  CHECK(found[4].rfind("src/calc.hpp:14: names a test framework's namespace", 0) == 0);
  CHECK(found[5].rfind("src/calc.hpp:15: includes a test framework's header", 0) == 0);
  CHECK(found[6].rfind("src/calc.hpp:20: names a test framework's namespace", 0) == 0);
  CHECK(found[7].rfind("src/calc.hpp:21: names the translation unit that includes it", 0) == 0);
  CHECK(found[8].rfind("src/calc.hpp:23: names the translation unit that includes it", 0) == 0);
  CHECK(found[9].rfind("src/calc.hpp:25: redefines or undefines", 0) == 0);
  CHECK(found[10].rfind("src/calc.hpp:26: redefines or undefines", 0) == 0);
  guard::Report report;
  report.harness_reach = found;
  CHECK(guard::has_tampering(report));
  CHECK(guard::to_json(report)["counts"]["harness_reach"] == 11);
}

TEST_CASE("a compiled file whose change git shows as binary cannot be read by the line checks: tampering",
          "[guard]") {
  hydra::parse::DiffLines diff;
  hydra::parse::FileLines header;
  header.path = header.old_path = "src/count_impl.hpp";
  header.binary = true;
  hydra::parse::FileLines image;
  image.path = image.old_path = "docs/logo.png";
  image.binary = true;
  hydra::parse::FileLines text;
  text.path = text.old_path = "src/count.cpp";
  text.added = {{1, "#include \"count_impl.hpp\""}};
  diff.files = {header, image, text};
  const auto found = guard::find_unreadable_code(diff, {"src/count_impl.hpp", "src/count.cpp"});
  REQUIRE(found.size() == 1);  // the image is no code the build read; the source is text
  CHECK(found[0].rfind("src/count_impl.hpp: compiled by the build, yet git shows its change as binary", 0) == 0);
  CHECK(guard::find_unreadable_code(diff, {}).empty());
  guard::Report report;
  report.unreadable_code = found;
  CHECK(guard::has_tampering(report));
  CHECK(guard::to_json(report)["counts"]["unreadable_code"] == 1);
}
