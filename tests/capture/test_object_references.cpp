// The object scan (capture/cmake/object_references.hpp) over a small Ninja build
// tree compiled here: code that is no test reaching into the test harness.
#include <catch2/catch.hpp>

#include <hydra/capture/cmake/object_references.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>

namespace fs = std::filesystem;
using Set = std::set<std::string>;

TEST_CASE("objects: code that is no test referring to what only tests define, or to a framework, is found",
          "[capture]") {
  hydra::util::TempDir temp("hydra-object-references");
  const fs::path top = temp.path();
  const fs::path build = top / "build";
  fs::create_directories(build);
  const auto write = [&](const std::string& name, const std::string& text) {
    fs::create_directories((top / name).parent_path());
    hydra::util::write_file_atomic(top / name, text);
  };
  // The test harness's tally, defined by the test only.
  write("tests/count_test.cpp",
        "namespace harness { int failed_checks = 0; int tally() { return failed_checks; } }\n"
        "int answer();\nint main() { return answer() == 42 ? harness::tally() : 1; }\n");
  // A library resetting it through a weak reference.
  write("src/answer.cpp",
        "namespace harness { extern int failed_checks __attribute__((weak)); }\n"
        "int answer() { if (&harness::failed_checks) harness::failed_checks = 0; return 41; }\n");
  // A library reaching for a framework's own class.
  write("src/swallow.cpp",
        "namespace testing { struct TestPartResultArray { TestPartResultArray(); }; }\n"
        "void swallow() { testing::TestPartResultArray array; }\n");
  // An honest library the test also uses.
  write("src/plain.cpp", "int plain(int value) { return value + 1; }\n");
  hydra::util::write_file_atomic(build / "CMakeCache.txt",
                                 "CMAKE_GENERATOR:INTERNAL=Ninja\nCMAKE_MAKE_PROGRAM:FILEPATH=ninja\n");
  hydra::util::write_file_atomic(build / "build.ninja",
                                 "rule cxx\n  command = c++ -MD -MF $out.d -c $in -o $out\n  deps = gcc\n"
                                 "  depfile = $out.d\n"
                                 "build count_test.o: cxx ../tests/count_test.cpp\n"
                                 "build answer.o: cxx ../src/answer.cpp\n"
                                 "build swallow.o: cxx ../src/swallow.cpp\n"
                                 "build plain.o: cxx ../src/plain.cpp\n");
  hydra::util::ProcessRequest ninja;
  ninja.argv = {"ninja", "-C", build.string()};
  const auto built = hydra::util::run_process(ninja);
  INFO(built.output << built.error_output);
  REQUIRE(built.exit_code == 0);

  const auto scan = hydra::capture::scan_object_references(
      build, build, top, [](const std::string& source) { return !hydra::util::starts_with(source, "tests/"); });
  INFO(scan.problem);
  REQUIRE(scan.problem.empty());
  CHECK(scan.objects == 3);
  CHECK(scan.references.count("src/answer.cpp"));
  if (scan.references.count("src/answer.cpp"))
    CHECK(scan.references.at("src/answer.cpp") == Set{"harness::failed_checks"});
  CHECK(scan.references.count("src/swallow.cpp"));
  if (scan.references.count("src/swallow.cpp"))
    CHECK(scan.references.at("src/swallow.cpp") == Set{"testing::TestPartResultArray::TestPartResultArray"});
  CHECK_FALSE(scan.references.count("src/plain.cpp"));
  CHECK_FALSE(scan.references.count("tests/count_test.cpp"));
}
