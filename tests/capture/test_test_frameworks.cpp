// Test programs of known frameworks: recognition, the report options the
// launcher adds, the hook that puts the launcher in front of every test and the plan
// (capture/runners/test_frameworks.hpp, test_launch_hook.hpp, test_launcher.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/runners/test_launch_hook.hpp>
#include <hydra/util/process.hpp>
#include <hydra/capture/runners/child_run.hpp>
#include <hydra/capture/runners/test_launcher.hpp>
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

TEST_CASE("frameworks: the configure step includes the launch hook first, the user's includes after it",
          "[capture][frameworks]") {
  const fs::path include = "/build/.hydra-test-launch/top-level.cmake";
  CHECK(test_launch_configure_arguments(include, {}, {}) ==
        std::vector<std::string>{"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + include.string()});
  CHECK(test_launch_configure_arguments(include, {}, {"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES:FILEPATH=/a.cmake;/b.cmake"}) ==
        std::vector<std::string>{"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + include.string() + ";/a.cmake;/b.cmake"});
  CHECK(test_launch_configure_arguments(
            include,
            hydra::parse::parse_initial_cache("set(CMAKE_PROJECT_TOP_LEVEL_INCLUDES \"/c.cmake\" CACHE FILEPATH \"\" FORCE)\n"),
            {}) ==
        std::vector<std::string>{"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + include.string() + ";/c.cmake"});
  // HydraScore's own module is never included into a capture's tree.
  CHECK(test_launch_configure_arguments(include, {}, {"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=/x/HydraScore.cmake"}) ==
        std::vector<std::string>{"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + include.string()});
  SECTION("a launcher that CMake code cannot hold as it is is not installed") {
    CHECK(hydra::capture::launcher_is_writable({"/opt/hydra-score", "test-launcher"}));
    CHECK_FALSE(hydra::capture::launcher_is_writable({"/opt/a;b/hydra-score", "test-launcher"}));
    CHECK_FALSE(hydra::capture::launcher_is_writable({"/opt/${x}/hydra-score", "test-launcher"}));
    CHECK_FALSE(hydra::capture::launcher_is_writable({}));
    hydra::util::TempDir temp("hydra-launch");
    CHECK(hydra::capture::install_test_launch({"/opt/a\"b", "test-launcher"}, temp.path(), {}, {}).empty());
    CHECK_FALSE(fs::exists(temp.path() / hydra::capture::kTestLaunchFolder / "add-test.cmake"));
  }
}

TEST_CASE("frameworks: a held-out build tree's launch files name the build tree where its steps see it",
          "[capture][frameworks]") {
  // The held-out build tree is written on HydraScore's side and mounted at
  // the candidate's build tree: configure and ctest read the files there.
  hydra::util::TempDir temp("hydra-launch-seen");
  const fs::path build = temp.path() / ".hydra/held-out/build";
  const fs::path seen = temp.path() / "candidate-build";
  const auto arguments =
      hydra::capture::install_test_launch({"/opt/hydra-score", "test-launcher"}, build, {}, {}, seen);
  const fs::path seen_folder = seen / hydra::capture::kTestLaunchFolder;
  CHECK(arguments ==
        std::vector<std::string>{"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + (seen_folder / "top-level.cmake").string()});
  const fs::path written = build / hydra::capture::kTestLaunchFolder;
  REQUIRE(fs::is_regular_file(written / "add-test.cmake"));
  REQUIRE(fs::is_regular_file(written / "top-level.cmake"));
  CHECK_FALSE(fs::exists(seen_folder));
  const std::string include = hydra::util::read_file(written / "top-level.cmake");
  CHECK(include.find((seen_folder / "add-test.cmake").generic_string()) != std::string::npos);
  CHECK(include.find(build.generic_string()) == std::string::npos);
}

TEST_CASE("frameworks: ctest runs every existing program through the launcher, arguments as they are",
          "[capture][frameworks]") {
  // A real configure and ctest: both add_test() signatures, arguments that
  // are empty, hold a ';' or a bracket's end, a program that does not exist.
  hydra::util::TempDir temp("hydra-launch-hook");
  const fs::path source = temp.path() / "source", build = temp.path() / "build";
  fs::create_directories(source / "sub");
  // The launcher here is `sh -c 'printf "[%s]" "$@"' launcher`: it prints its arguments.
  const std::string printer = "#!/bin/sh\nprintf '[%s]' \"$@\"\n";
  hydra::util::write_file_atomic(source / "print.sh", printer);
  fs::permissions(source / "print.sh", fs::perms::owner_exec, fs::perm_options::add);
  hydra::util::write_file_atomic(source / "CMakeLists.txt",
                                 "cmake_minimum_required(VERSION 3.20)\nproject(Hook NONE)\nenable_testing()\n"
                                 "add_subdirectory(sub)\n");
  hydra::util::write_file_atomic(
      source / "sub" / "CMakeLists.txt",
      "file(COPY ${PROJECT_SOURCE_DIR}/print.sh DESTINATION ${CMAKE_CURRENT_BINARY_DIR})\n"
      "add_test(old print.sh one)\n"
      "add_test(NAME new COMMAND ${PROJECT_SOURCE_DIR}/print.sh \"\" \"a;b\" \"x]=]y\")\n"
      "add_test(NAME missing COMMAND ${CMAKE_CURRENT_BINARY_DIR}/not-built)\n");
  const std::vector<std::string> launcher = {(source / "print.sh").string(), "test-launcher"};
  const auto arguments = hydra::capture::install_test_launch(launcher, build, {}, {});
  REQUIRE(arguments.size() == 1);
  std::vector<std::string> configure = {"cmake", "-S", source.string(), "-B", build.string()};
  configure.insert(configure.end(), arguments.begin(), arguments.end());
  hydra::util::ProcessRequest request;
  request.argv = configure;
  auto configured = hydra::util::run_process(request);
  INFO(configured.output);
  REQUIRE(configured.exit_code == 0);

  request.argv = {"ctest", "--test-dir", build.string(), "--show-only=json-v1"};
  const auto listed = hydra::util::run_process(request);
  REQUIRE(listed.exit_code == 0);
  std::map<std::string, std::vector<std::string>> commands;
  const auto listing = nlohmann::json::parse(listed.output);
  for (const auto& test : listing.at("tests"))
    commands[test.at("name").get<std::string>()] =
        test.contains("command") ? test.at("command").get<std::vector<std::string>>() : std::vector<std::string>{};
  const std::string copied = (build / "sub" / "print.sh").string();
  CHECK(commands["old"] == std::vector<std::string>{launcher[0], "test-launcher", "--", copied, "one"});
  CHECK(commands["new"] == std::vector<std::string>{launcher[0], "test-launcher", "--", (source / "print.sh").string(),
                                                    "", "a;b", "x]=]y"});
  CHECK(commands["missing"].empty());  // ctest's own "not found", as without the hook

  request.argv = {"ctest", "--test-dir", build.string(), "-R", "^(old|new)$", "-V"};
  const auto ran = hydra::util::run_process(request);
  INFO(ran.output);
  CHECK(ran.exit_code == 0);
  CHECK(ran.output.find("[test-launcher][--][" + copied + "][one]") != std::string::npos);
  CHECK(ran.output.find("[test-launcher][--][" + (source / "print.sh").string() + "][][a;b][x]=]y]") !=
        std::string::npos);
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
    // Catch2 writes into a pipe the launcher holds (judged_run.hpp).
    CHECK(planned.report_pipe);
    CHECK(planned.judged);
    CHECK(planned.argv ==
          std::vector<std::string>{self, "[cases]", "--reporter", "junit", "--out", hydra::capture::kReportPipeWord});
    // Another launch of the same program, the project's emulator, no report folder.
    const auto other = plan_launch({"qemu", "--", self, "[twin]"}, plan_file.string(), "/reports");
    CHECK(other.argv == std::vector<std::string>{"qemu", self, "[twin]"});
    CHECK(other.report.empty());
    CHECK(other.program_index == 1);
    CHECK(other.program == self);
    CHECK(plan_launch({"--", self, "[cases]"}, plan_file.string(), "").argv ==
          std::vector<std::string>{self, "[cases]"});
    CHECK_FALSE(plan_launch({self, "[cases]"}, plan_file.string(), "/reports").error.empty());
  }
}
