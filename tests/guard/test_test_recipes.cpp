// Tests for hydra::guard::compare_test_recipes and find_recipe_changes: a
// judged test is defined and built as the reference defines it.
#include <catch2/catch.hpp>

#include <hydra/guard/test_recipes.hpp>

using hydra::guard::compare_test_recipes;
using hydra::guard::TamperKind;
using hydra::guard::TreeTests;
using hydra::model::BuildTarget;
using hydra::model::BuildTargets;
using hydra::model::TestDefinition;

namespace {

/// One tree at `source` with its build tree `build`: the test count.x runs
/// build/tests/test_count, linked with the project's textstats.
struct Tree {
  std::vector<TestDefinition> definitions;
  BuildTargets targets;
  std::string source, build;

  Tree(std::string source_root, std::string build_root) : source(std::move(source_root)), build(std::move(build_root)) {
    TestDefinition test;
    test.name = "count.x";
    test.command = {build + "/tests/test_count", "x"};
    test.properties = {{"WORKING_DIRECTORY", "\"" + build + "/tests\""}, {"LABELS", "[\"unit\"]"}};
    definitions = {test};
    targets.source_root = source;
    targets.build_root = build;
    BuildTarget program;
    program.name = "test_count";
    program.type = "EXECUTABLE";
    program.artifacts = {build + "/tests/test_count"};
    program.sources = {{source + "/tests/test_count.cpp", false, 0}};
    program.compile_groups = {{"CXX", {"-Wall", "-std=c++17"}, {}, {{source + "/include", false}}, {}, ""}};
    program.link = {{"<target:textstats>", "libraries"}};
    BuildTarget library;
    library.name = "textstats";
    library.type = "STATIC_LIBRARY";
    library.artifacts = {build + "/libtextstats.a"};
    targets.targets = {program, library};
  }
  TreeTests view() const { return {&definitions, &targets, source, build}; }
  BuildTarget& program() { return targets.targets[0]; }
};

std::vector<std::string> kinds(const std::vector<hydra::guard::TamperedTest>& found) {
  std::vector<std::string> out;
  for (const auto& finding : found) out.push_back(finding.name + " " + std::string(hydra::guard::to_string(finding.kind)));
  return out;
}

}  // namespace

TEST_CASE("compare_test_recipes finds every difference in how a test is defined and built", "[guard][held-out]") {
  Tree baseline("/runs/base", "/runs/base/build");
  Tree judged("/work/repo", "/work/repo/build/hydra/trees/agent");  // the build tree inside the source tree
  const std::vector<std::string> tests = {"count.x"};

  SECTION("valid input: the same test in other folders is the same") {
    CHECK(compare_test_recipes(baseline.view(), judged.view(), tests, "held-out run").empty());
  }
  SECTION("valid input: a property added for one test, named with both values") {
    judged.definitions[0].properties["ENVIRONMENT"] = "[\"TEXTSTATS_FIXED=1\"]";
    const auto found = compare_test_recipes(baseline.view(), judged.view(), tests, "held-out run");
    REQUIRE(kinds(found) == std::vector<std::string>{"count.x definition_changed"});
    CHECK(found[0].detail == "held-out run: ENVIRONMENT unset -> [\"TEXTSTATS_FIXED=1\"]");
  }
  SECTION("valid input: a pass expression and a command argument changed") {
    judged.definitions[0].properties["PASS_REGULAR_EXPRESSION"] = "[\".*\"]";
    judged.definitions[0].command[1] = "y";
    const auto found = compare_test_recipes(baseline.view(), judged.view(), tests, "run");
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail ==
          "run: command [\"<build>/tests/test_count\",\"x\"] -> [\"<build>/tests/test_count\",\"y\"]; "
          "PASS_REGULAR_EXPRESSION unset -> [\".*\"]");
  }
  SECTION("valid input: a program that was not built (ctest lists no command) fails as it is, not as tampered") {
    judged.definitions[0].command.clear();
    CHECK(compare_test_recipes(baseline.view(), judged.view(), tests, "on-baseline run").empty());
    // Its properties still count.
    judged.definitions[0].properties["WILL_FAIL"] = "true";
    CHECK(kinds(compare_test_recipes(baseline.view(), judged.view(), tests, "on-baseline run")) ==
          std::vector<std::string>{"count.x definition_changed"});
  }
  SECTION("valid input: a force-included header in the test program's options") {
    judged.program().compile_groups[0].fragments = {"-Wall", "-include", judged.source + "/src/fake.hpp", "-std=c++17"};
    const auto found = compare_test_recipes(baseline.view(), judged.view(), tests, "run");
    REQUIRE(kinds(found) == std::vector<std::string>{"count.x build_changed"});
    CHECK(found[0].detail ==
          "run: test_count: compile options [\"-Wall\",\"-std=c++17\"] -> "
          "[\"-Wall\",\"-include\",\"<source>/src/fake.hpp\",\"-std=c++17\"] (<source>/tests/test_count.cpp)");
  }
  SECTION("valid input: an include directory made SYSTEM, a definition, a source added") {
    judged.program().compile_groups[0].includes[0].system = true;
    judged.program().compile_groups[0].defines = {"NDEBUG"};
    judged.program().sources.push_back({judged.source + "/src/shim.cpp", false, 0});
    const auto found = compare_test_recipes(baseline.view(), judged.view(), tests, "run");
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail.find("sources [] -> [\"<source>/src/shim.cpp\"]") != std::string::npos);
    CHECK(found[0].detail.find("compile definitions [] -> [\"NDEBUG\"]") != std::string::npos);
    CHECK(found[0].detail.find("include directories [\"<source>/include\"] -> [\"SYSTEM <source>/include\"]") !=
          std::string::npos);
  }
  SECTION("valid input: link options, and a project library the test links itself") {
    BuildTarget fake;
    fake.name = "fake";
    fake.type = "STATIC_LIBRARY";
    judged.targets.targets.push_back(fake);
    judged.program().link = {{"-Wl,--wrap=count_lines", "flags"}, {"<target:fake>", "libraries"},
                             {"<target:textstats>", "libraries"}};
    const auto found = compare_test_recipes(baseline.view(), judged.view(), tests, "run");
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail ==
          "run: test_count: link [] -> [\"flags -Wl,--wrap=count_lines\"]; test_count: links the project's fake, "
          "which it did not link and no library it links depends on");
  }
  SECTION("valid input: a project library the code brings (a dependency of one it linked) is the code's") {
    BuildTarget core;
    core.name = "core";
    core.type = "STATIC_LIBRARY";
    judged.targets.targets.push_back(core);
    judged.targets.targets[1].dependencies = {"core"};
    judged.program().link.push_back({"<target:core>", "libraries"});
    CHECK(compare_test_recipes(baseline.view(), judged.view(), tests, "run").empty());
  }
  SECTION("valid input: a post-build step or a compiler launcher only the build commands show") {
    baseline.program().build_commands = {"/usr/bin/c++ -Wall -o tests/CMakeFiles/test_count.dir/t.o -c " +
                                             baseline.source + "/tests/test_count.cpp",
                                         ": && /usr/bin/c++ tests/CMakeFiles/test_count.dir/t.o -o tests/test_count && :"};
    judged.program().build_commands = {"/usr/bin/c++ -Wall -o tests/CMakeFiles/test_count.dir/t.o -c " + judged.source +
                                           "/tests/test_count.cpp",
                                       ": && /usr/bin/c++ tests/CMakeFiles/test_count.dir/t.o -o tests/test_count && cd " +
                                           judged.build + "/tests && cp fake test_count"};
    auto found = compare_test_recipes(baseline.view(), judged.view(), tests, "run");
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail ==
          "run: test_count: build commands (2 -> 2) lost [\":\"], gained [\"&&\",\"<build>/tests\",\"cd\",\"cp\","
          "\"fake\",\"test_count\"]");
    judged.program().build_commands[1] = baseline.program().build_commands[1];
    judged.program().build_commands[0] = "env WRAP=1 " + judged.program().build_commands[0];
    found = compare_test_recipes(baseline.view(), judged.view(), tests, "run");
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail == "run: test_count: build commands (2 -> 2) lost [], gained [\"WRAP=1\",\"env\"]");
    // Recorded on one side only (another generator): not compared.
    judged.program().build_commands.clear();
    CHECK(compare_test_recipes(baseline.view(), judged.view(), tests, "run").empty());
  }
  SECTION("bad input: build settings the judged run did not record while the reference did") {
    judged.targets.targets.clear();
    judged.targets.problem = "no File API reply in /x";
    const auto found = compare_test_recipes(baseline.view(), judged.view(), tests, "run");
    REQUIRE(kinds(found) == std::vector<std::string>{"count.x build_changed"});
    CHECK(found[0].detail == "run: how its program is built is not known (no File API reply in /x)");
    const TreeTests none{&judged.definitions, nullptr, judged.source, judged.build};
    CHECK(compare_test_recipes(baseline.view(), none, tests, "run").size() == 1);
  }
  SECTION("valid input: tests missing on either side are left to the other detectors") {
    judged.definitions.clear();
    CHECK(compare_test_recipes(baseline.view(), judged.view(), tests, "run").empty());
  }
}

TEST_CASE("replace_root_in replaces a root only at a path boundary", "[guard][held-out]") {
  using hydra::guard::replace_root_in;
  CHECK(replace_root_in("\"/a/b\"", "/a/b", "<build>") == "\"<build>\"");
  CHECK(replace_root_in("/a/b/c;/a/bc", "/a/b", "<build>") == "<build>/c;/a/bc");
  CHECK(replace_root_in("-I/a/b -I/a/b/x", "/a/b", "<s>") == "-I<s> -I<s>/x");
  CHECK(replace_root_in("/x", "/", "<s>") == "/x");
}

TEST_CASE("find_recipe_changes compares the runs that judge the tests", "[guard][held-out]") {
  Tree base("/base", "/base/build"), own("/cand", "/cand/build"), held("/cand", "/cand/build"),
      on_baseline("/cand", "/cand/build");
  hydra::model::Run baseline, candidate;
  baseline.test_definitions = base.definitions;
  baseline.build_targets = base.targets;
  baseline.source_root = base.source;
  baseline.build_root = base.build;
  candidate.test_definitions = own.definitions;
  candidate.build_targets = own.targets;
  candidate.source_root = own.source;
  candidate.build_root = own.build;
  held.definitions[0].properties["ENVIRONMENT"] = "[\"X=1\"]";
  candidate.held_out.definitions = held.definitions;
  candidate.held_out.targets = held.targets;
  candidate.held_out.roots = {held.source, held.build};

  SECTION("valid input: mode built: the held-out run's definitions, not the candidate's own") {
    candidate.held_out.mode = "built";
    const auto found = hydra::guard::find_recipe_changes(baseline, candidate);
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail == "held-out run: ENVIRONMENT unset -> [\"X=1\"]");
  }
  SECTION("valid input: mode candidate: its own run is the held-out run") {
    candidate.held_out.mode = "candidate";
    candidate.test_definitions[0].properties["TIMEOUT"] = "1.0";
    const auto found = hydra::guard::find_recipe_changes(baseline, candidate);
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail == "the candidate's run (its held-out run): TIMEOUT unset -> 1.0");
  }
  SECTION("valid input: mode baseline: the baseline's results stand, nothing to compare") {
    candidate.held_out.mode = "baseline";
    CHECK(hydra::guard::find_recipe_changes(baseline, candidate).empty());
  }
  SECTION("valid input: a new test runs otherwise on the baseline's code") {
    candidate.held_out.mode = "baseline";
    candidate.held_out.new_tests_mode = "built";
    TestDefinition fresh = own.definitions[0];
    fresh.name = "count.new";
    candidate.test_definitions.push_back(fresh);
    fresh.properties["WORKING_DIRECTORY"] = "\"/cand/build/.hydra/on-baseline\"";
    on_baseline.definitions.push_back(fresh);
    candidate.held_out.on_baseline_definitions = on_baseline.definitions;
    candidate.held_out.on_baseline_targets = on_baseline.targets;
    candidate.held_out.on_baseline_roots = {on_baseline.source, on_baseline.build};
    const auto found = hydra::guard::find_recipe_changes(baseline, candidate);
    REQUIRE(kinds(found) == std::vector<std::string>{"count.new definition_changed"});
    CHECK(found[0].detail ==
          "on-baseline run: WORKING_DIRECTORY \"<build>/tests\" -> \"<build>/.hydra/on-baseline\"");
  }
  SECTION("valid input: a private patch's held-out run of the baseline is the reference") {
    candidate.held_out.mode = "built";
    baseline.held_out.mode = "built";
    baseline.held_out.private_test_patch = true;
    Tree private_run("/base", "/base/build");  // the baseline's code with the private tests
    private_run.definitions[0].properties["ENVIRONMENT"] = "[\"X=1\"]";  // the same as the candidate's held-out run
    baseline.held_out.definitions = private_run.definitions;
    baseline.held_out.targets = private_run.targets;
    baseline.held_out.roots = {private_run.source, private_run.build};
    CHECK(hydra::guard::find_recipe_changes(baseline, candidate).empty());
  }
}

TEST_CASE("HydraScore's test launcher is one launcher whether hydra-score or its helper runs it", "[guard][held-out]") {
  Tree baseline("/runs/base", "/runs/base/build");
  Tree judged("/runs/base", "/runs/base/build");
  const std::vector<std::string> tests = {"count.x"};
  baseline.definitions[0].command = {"/usr/bin/hydra-score", "test-launcher", "--", "/runs/base/build/tests/test_count"};
  judged.definitions[0].command = {"/usr/bin/hydra-score-step", "test-launcher", "--",
                                   "/runs/base/build/tests/test_count"};
  CHECK(compare_test_recipes(baseline.view(), judged.view(), tests, "the candidate's run").empty());
  // Another folder's helper, or the helper's name on another command, is a change.
  judged.definitions[0].command[0] = "/opt/other/hydra-score-step";
  CHECK(kinds(compare_test_recipes(baseline.view(), judged.view(), tests, "the candidate's run")) ==
        std::vector<std::string>{"count.x definition_changed"});
  CHECK(hydra::guard::launcher_as_hydra_score({"/usr/bin/hydra-score-step", "run-step", "--", "x"})[0] ==
        "/usr/bin/hydra-score-step");
  CHECK(hydra::guard::launcher_as_hydra_score({"/usr/bin/hydra-score-step", "test-launcher", "--", "x"})[0] ==
        "/usr/bin/hydra-score");
}
