// Tests for hydra::capture::find_test_files on a real configured and built
// tree (cmake, Ninja, ctest): a file only tests use is a test file; a
// library source a test program compiles too is code (as fmt's
// posix-mock-test compiles src/format.cc); a header is classified by what
// includes it (Ninja's deps log).
#include <catch2/catch.hpp>

#include <hydra/capture/cmake/codemodel.hpp>
#include <hydra/capture/cmake/test_files.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace fs = std::filesystem;
using hydra::capture::TestFiles;

namespace {

hydra::util::ProcessResult run(std::vector<std::string> argv) {
  hydra::util::ProcessRequest request;
  request.argv = std::move(argv);
  request.timeout = std::chrono::minutes(5);
  request.separate_stderr = true;
  return hydra::util::run_process(request);
}

}  // namespace

TEST_CASE("find_test_files: files only tests use are tests, a library source a test compiles is code",
          "[capture][test_files]") {
  hydra::util::TempDir temp("hydra-test-files");
  const fs::path source = temp.path() / "project", build = temp.path() / "build";
  fs::create_directories(source / "include");
  fs::create_directories(source / "src");
  fs::create_directories(source / "tests");
  hydra::util::write_file_atomic(source / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(p CXX)
add_library(lib STATIC src/lib.cpp)
target_include_directories(lib PUBLIC include)
add_executable(lib_test tests/lib_test.cpp)
target_link_libraries(lib_test PRIVATE lib)
add_executable(mock_test tests/mock_test.cpp src/lib.cpp)
target_include_directories(mock_test PRIVATE include)
enable_testing()
add_test(NAME lib_test COMMAND lib_test)
add_test(NAME mock_test COMMAND mock_test)
)");
  hydra::util::write_file_atomic(source / "include" / "lib.hpp", "int answer();\n");
  hydra::util::write_file_atomic(source / "src" / "lib.cpp", "#include <lib.hpp>\nint answer() { return 42; }\n");
  hydra::util::write_file_atomic(source / "tests" / "helper.hpp", "inline bool is(int a, int b) { return a == b; }\n");
  hydra::util::write_file_atomic(source / "tests" / "lib_test.cpp",
                                 "#include <lib.hpp>\n#include \"helper.hpp\"\nint main() { return is(answer(), 42) ? 0 : 1; }\n");
  hydra::util::write_file_atomic(source / "tests" / "mock_test.cpp",
                                 "#include <lib.hpp>\nint main() { return answer() == 42 ? 0 : 1; }\n");
  REQUIRE(hydra::capture::write_file_api_queries(build));
  const auto configured = run({"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja"});
  INFO(configured.output << configured.error_output);
  REQUIRE(configured.exit_code == 0);
  const auto built = run({"cmake", "--build", build.string()});
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  const auto listed = run({"ctest", "--test-dir", build.string(), "--show-only=json-v1"});
  REQUIRE(listed.exit_code == 0);
  const auto targets = hydra::capture::read_build_targets(build, "");
  REQUIRE(targets.problem.empty());
  const auto users = hydra::capture::header_users(build);
  const TestFiles files = hydra::capture::find_test_files(targets, source, build, source,
                                                          nlohmann::json::parse(listed.output), users);

  SECTION("valid input: a source of the library and of a test program is code") {
    CHECK(files.code.count("src/lib.cpp") == 1);
    CHECK(files.files.count("src/lib.cpp") == 0);
    // Still among what the test depends on (a change to it touches the test).
    CHECK(files.by_test.at("mock_test").count("src/lib.cpp") == 1);
    CHECK(files.files.count("tests/mock_test.cpp") == 1);
    CHECK(files.files.count("tests/lib_test.cpp") == 1);
  }
  SECTION("valid input: a header is classified by what includes it") {
    // Included by the test program only: the test's.
    CHECK(files.files.count("tests/helper.hpp") == 1);
    CHECK(files.by_test.at("lib_test").count("tests/helper.hpp") == 1);
    // Included by the library's object (and in its include directory): code.
    CHECK(files.code.count("include/lib.hpp") == 1);
    CHECK(files.files.count("include/lib.hpp") == 0);
  }
  SECTION("valid input: the baseline decides for the files it knows, the candidate for new ones") {
    TestFiles candidate;
    candidate.files = {"src/lib.cpp", "tests/new_test.cpp", "tests/shared.cpp"};
    candidate.code = {"tests/mock_test.cpp", "tests/shared.cpp"};
    using hydra::capture::is_test_file_of_change;
    CHECK_FALSE(is_test_file_of_change("src/lib.cpp", files, candidate, {}));    // the baseline's code
    CHECK(is_test_file_of_change("tests/mock_test.cpp", files, candidate, {}));  // the baseline's test
    CHECK(is_test_file_of_change("tests/new_test.cpp", files, candidate, {}));   // new, only tests use it
    CHECK_FALSE(is_test_file_of_change("tests/shared.cpp", files, candidate, {}));  // new, code uses it too
    CHECK(is_test_file_of_change("src/lib.cpp", files, candidate, {"src/**"}));     // the configured globs
    CHECK_FALSE(is_test_file_of_change("", files, candidate, {}));
  }
}
