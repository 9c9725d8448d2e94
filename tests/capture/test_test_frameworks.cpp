// Test programs of known frameworks: recognition, the report options the
// launcher adds, the configure arguments that install it and the plan
// (capture/test_frameworks.hpp, capture/test_launcher.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include <hydra/capture/test_frameworks.hpp>
#include <hydra/capture/test_launcher.hpp>
#include <hydra/util/files.hpp>

namespace fs = std::filesystem;
using hydra::capture::launch_key;
using hydra::capture::plan_launch;
using hydra::capture::recognise_framework;
using hydra::capture::report_options;
using hydra::capture::test_launch_configure_arguments;
using hydra::parse::JunitDialect;

namespace {

/// `backwards` read backwards: the signatures below are written so, or this
/// test program would hold them and be taken for every framework.
std::string reversed(std::string backwards) {
  std::reverse(backwards.begin(), backwards.end());
  return backwards;
}

/// A file of `size` zero bytes with `text` written at `offset`.
void write_with(const fs::path& file, std::size_t size, std::size_t offset, const std::string& text) {
  std::string bytes(size, '\0');
  bytes.replace(offset, text.size(), text);
  std::ofstream(file, std::ios::binary) << bytes;
}

}  // namespace

TEST_CASE("frameworks: a program is recognised by its runner's signatures", "[capture][frameworks]") {
  SECTION("this test program is a Catch2 v2 program, and only that") {
    // It holds the recogniser too: its signatures must not make it every framework.
    std::string why_not;
    CHECK(recognise_framework("/proc/self/exe", &why_not) == JunitDialect::catch2);
  }
  hydra::util::TempDir temp("hydra-frameworks");
  const fs::path file = temp.path() / "program";
  SECTION("GoogleTest's --help text, across a read boundary (1 MiB)") {
    write_with(file, (std::size_t(1) << 21) + 77, (std::size_t(1) << 20) - 5, reversed("nosjG@(Y@=tuptuo_tsetg--G@"));
    CHECK(recognise_framework(file) == JunitDialect::googletest);
  }
  SECTION("a shared libgtest's import") {
    write_with(file, 4096, 100, reversed("vEnuR3tseTtinU8gnitset7NZ_"));
    CHECK(recognise_framework(file) == JunitDialect::googletest);
  }
  SECTION("doctest's JUnit reporter") {
    write_with(file, 4096, 4000, reversed("EretropeRtinUJ311_N__LABOLG_21tsetcod7N"));
    CHECK(recognise_framework(file) == JunitDialect::doctest);
  }
  SECTION("nothing known, or several frameworks: no framework, and why") {
    write_with(file, 4096, 10, "plain program");
    std::string why_not;
    CHECK_FALSE(recognise_framework(file, &why_not));
    CHECK(why_not == "no known test framework");
    write_with(file, 4096, 10, reversed("vEnuR3tseTtinU8gnitset7NZ_") + " " + reversed("vEnur3txetnoC7tsetcod7NZ_"));
    CHECK_FALSE(recognise_framework(file, &why_not));
    CHECK(why_not == "signatures of several frameworks: googletest doctest");
    CHECK_FALSE(recognise_framework(temp.path() / "missing", &why_not));
    CHECK_THAT(why_not, Catch::StartsWith("cannot read "));
  }
}

TEST_CASE("frameworks: the report options of each framework", "[capture][frameworks]") {
  // tests/fixtures/frameworks/record.sh records the reports with these options.
  SECTION("GoogleTest: GTEST_OUTPUT") {
    const auto options = report_options(JunitDialect::googletest, {"--gtest_filter=Calc.*"}, "/r/k.xml");
    REQUIRE(options);
    CHECK(options->arguments.empty());
    CHECK(options->environment == std::map<std::string, std::string>{{"GTEST_OUTPUT", "xml:/r/k.xml"}});
  }
  SECTION("Catch2 (v2 and v3): --reporter junit --out") {
    const auto options = report_options(JunitDialect::catch2, {"[calc]"}, "/r/k.xml");
    REQUIRE(options);
    CHECK(options->arguments == std::vector<std::string>{"--reporter", "junit", "--out", "/r/k.xml"});
  }
  SECTION("doctest: --reporters=junit --out=") {
    const auto options = report_options(JunitDialect::doctest, {}, "/r/k.xml");
    REQUIRE(options);
    CHECK(options->arguments == std::vector<std::string>{"--reporters=junit", "--out=/r/k.xml"});
  }
  SECTION("a command that chooses its own reporter, output or a listing keeps its program-level result") {
    CHECK_FALSE(report_options(JunitDialect::googletest, {"--gtest_output=json:x.json"}, "r.xml"));
    CHECK_FALSE(report_options(JunitDialect::googletest, {"--gtest_list_tests"}, "r.xml"));
    CHECK_FALSE(report_options(JunitDialect::catch2, {"-r", "xml"}, "r.xml"));
    CHECK_FALSE(report_options(JunitDialect::catch2, {"--out=x"}, "r.xml"));
    CHECK_FALSE(report_options(JunitDialect::catch2, {"--list-tests"}, "r.xml"));
    CHECK_FALSE(report_options(JunitDialect::doctest, {"--reporters=xml"}, "r.xml"));
    CHECK_FALSE(report_options(JunitDialect::doctest, {"-ltc"}, "r.xml"));
    CHECK_FALSE(report_options(JunitDialect::generic, {}, "r.xml"));
  }
}

TEST_CASE("frameworks: the configure step installs the launcher", "[capture][frameworks]") {
  const std::vector<std::string> launcher = {"/opt/hydra-score", "test-launcher"};
  SECTION("before CMake 3.29: the emulator") {
    CHECK(test_launch_configure_arguments(launcher, "cmake version 3.25.1", "", {}) ==
          std::vector<std::string>{"-DCMAKE_CROSSCOMPILING_EMULATOR=/opt/hydra-score;test-launcher;--"});
  }
  SECTION("from CMake 3.29: the test launcher (add_test honours the emulator only when cross-compiling)") {
    CHECK(test_launch_configure_arguments(launcher, "cmake version 3.31.6", "", {}) ==
          std::vector<std::string>{"-DCMAKE_TEST_LAUNCHER=/opt/hydra-score;test-launcher;--"});
  }
  SECTION("the project's own emulator runs the program after it") {
    CHECK(test_launch_configure_arguments(launcher, "3.25", "",
                                          {"-DCMAKE_CROSSCOMPILING_EMULATOR:STRING=qemu-arm;-L;/sysroot"}) ==
          std::vector<std::string>{
              "-DCMAKE_CROSSCOMPILING_EMULATOR=/opt/hydra-score;test-launcher;qemu-arm;-L;/sysroot;--"});
    CHECK(test_launch_configure_arguments(
              launcher, "3.25", "set(CMAKE_CROSSCOMPILING_EMULATOR \"wine\" CACHE FILEPATH \"\" FORCE)\n", {}) ==
          std::vector<std::string>{"-DCMAKE_CROSSCOMPILING_EMULATOR=/opt/hydra-score;test-launcher;wine;--"});
  }
  SECTION("never itself twice, and nothing without a launcher") {
    CHECK(test_launch_configure_arguments(launcher, "3.25", "",
                                          {"-DCMAKE_CROSSCOMPILING_EMULATOR=/x/hydra-score;test-launcher;--"}) ==
          std::vector<std::string>{"-DCMAKE_CROSSCOMPILING_EMULATOR=/opt/hydra-score;test-launcher;--"});
    CHECK(test_launch_configure_arguments({}, "3.25", "", {}).empty());
  }
}

TEST_CASE("frameworks: the plan names the launches that write a report", "[capture][frameworks]") {
  const std::vector<std::string> launcher = {"/opt/hydra-score", "test-launcher"};
  const std::string self = fs::read_symlink("/proc/self/exe").string();  // a Catch2 program
  const auto definition = [&](const std::string& name, std::vector<std::string> command) {
    hydra::model::TestDefinition test;
    test.name = name;
    test.command = std::move(command);
    return test;
  };
  std::vector<hydra::model::TestDefinition> tests = {
      definition("cases", {"/opt/hydra-score", "test-launcher", "--", self, "[cases]"}),
      definition("plain", {"/opt/hydra-score", "test-launcher", "--", "/bin/true"}),
      definition("own reporter", {"/opt/hydra-score", "test-launcher", "--", self, "-r", "xml"}),
      definition("by file", {self, "[direct]"}),
      definition("twin 1", {"/opt/hydra-score", "test-launcher", "--", self, "[twin]"}),
      definition("twin 2", {"/opt/hydra-score", "test-launcher", "--", self, "[twin]"}),
  };
  tests.push_back(definition("expected to fail", {"/opt/hydra-score", "test-launcher", "--", self, "[fail]"}));
  tests.back().will_fail = true;
  const auto plan = hydra::capture::plan_test_programs(tests, launcher);
  REQUIRE(plan["programs"].size() == 1);
  CHECK(plan["programs"][0]["test"] == "cases");
  CHECK(plan["programs"][0]["framework"] == "catch2");
  CHECK(plan["programs"][0]["key"] == launch_key({self, "[cases]"}));
  std::map<std::string, std::string> program_level;
  for (const auto& entry : plan["program_level"]) program_level[entry["test"]] = entry["reason"];
  CHECK(program_level == std::map<std::string, std::string>{
                             {"by file", "its command does not run through HydraScore's test launcher"},
                             {"expected to fail", "WILL_FAIL: its cases are expected to fail"},
                             {"own reporter", "its command chooses its own reporter, output or listing"},
                             {"twin 1", "another test runs the same command (twin 2)"},
                             {"twin 2", "another test runs the same command (twin 1)"}});
  SECTION("the launcher adds the options of the planned launch only") {
    hydra::util::TempDir temp("hydra-launch");
    const fs::path plan_file = temp.path() / "test-programs.json";
    hydra::util::write_file_atomic(plan_file, plan.dump());
    const auto planned = plan_launch({"--", self, "[cases]"}, plan_file.string(), "/reports");
    CHECK(planned.error.empty());
    CHECK(planned.framework == "catch2");
    CHECK(planned.report == "/reports/" + launch_key({self, "[cases]"}) + ".xml");
    CHECK(planned.argv == std::vector<std::string>{self, "[cases]", "--reporter", "junit", "--out", planned.report});
    // Another launch of the same program, the project's emulator, no report folder.
    const auto other = plan_launch({"qemu", "--", self, "[twin]"}, plan_file.string(), "/reports");
    CHECK(other.argv == std::vector<std::string>{"qemu", self, "[twin]"});
    CHECK(other.report.empty());
    CHECK(plan_launch({"--", self, "[cases]"}, plan_file.string(), "").argv ==
          std::vector<std::string>{self, "[cases]"});
    CHECK_FALSE(plan_launch({self, "[cases]"}, plan_file.string(), "/reports").error.empty());
  }
}
