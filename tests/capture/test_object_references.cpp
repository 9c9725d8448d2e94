// The object scan (capture/cmake/object_references.hpp) over a small Ninja build
// tree compiled here: code that is no test reaching into the test harness.
#include <catch2/catch.hpp>

#include <map>

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

namespace {

/// Builds `sources` (path -> text; "tests/..." are the tests) with Ninja in
/// a tree under `top` and scans it.
hydra::capture::ObjectScan build_and_scan(const fs::path& top, const std::map<std::string, std::string>& sources) {
  const fs::path build = top / "build";
  fs::create_directories(build);
  std::string ninja_file = "rule cxx\n  command = c++ -std=c++17 -MD -MF $out.d -c $in -o $out\n  deps = gcc\n"
                           "  depfile = $out.d\n";
  for (const auto& [name, text] : sources) {
    fs::create_directories((top / name).parent_path());
    hydra::util::write_file_atomic(top / name, text);
    if (hydra::util::ends_with(name, ".cpp"))
      ninja_file += "build " + fs::path(name).stem().string() + ".o: cxx ../" + name + "\n";
  }
  hydra::util::write_file_atomic(build / "CMakeCache.txt",
                                 "CMAKE_GENERATOR:INTERNAL=Ninja\nCMAKE_MAKE_PROGRAM:FILEPATH=ninja\n");
  hydra::util::write_file_atomic(build / "build.ninja", ninja_file);
  hydra::util::ProcessRequest ninja;
  ninja.argv = {"ninja", "-C", build.string()};
  const auto built = hydra::util::run_process(ninja);
  INFO(built.output << built.error_output);
  REQUIRE(built.exit_code == 0);
  return hydra::capture::scan_object_references(
      build, build, top, [](const std::string& source) { return !hydra::util::starts_with(source, "tests/"); });
}

}  // namespace

TEST_CASE("objects: code defining what the C library or the tests define is found, its own namespace is not",
          "[capture]") {
  hydra::util::TempDir temp("hydra-object-definitions");
  const std::string harness =
      "#pragma once\nnamespace harness {\ninline int failed_checks = 0;\n"
      "template <typename A, typename B> void check(const A& a, const B& b) { if (!(a == b)) ++failed_checks; }\n}\n";
  const auto scan = build_and_scan(
      temp.path(),
      {{"tests/check.hpp", harness},
       {"src/lib.hpp", "#pragma once\n#include <cstddef>\nnamespace lib {\n"
                       "struct Counts { std::size_t lines = 0; ~Counts() {} };\nstd::size_t count(const char* text);\n}\n"},
       {"tests/count_test.cpp",
        "#include \"check.hpp\"\n#include \"../src/lib.hpp\"\n#include <cstring>\n"
        "int main(int, char** argv) { lib::Counts counts; harness::check(lib::count(argv[0]), std::strlen(argv[0]));\n"
        "  return harness::failed_checks + int(counts.lines); }\n"},
       // The library's own namespace, shared with the tests through its header: quiet.
       {"src/count.cpp", "#include \"lib.hpp\"\n#include <cstring>\n"
                         "std::size_t lib::count(const char* text) { lib::Counts counts; counts.lines = std::strlen(text);\n"
                         "  return counts.lines; }\n"},
       // Interposes the C library's strlen.
       {"src/fast.cpp", "#include <cstddef>\nextern \"C\" std::size_t strlen(const char* text) noexcept {\n"
                        "  std::size_t n = 0; while (text[n]) ++n; return n; }\n"},
       // Replaces the global allocation functions: a standard feature, quiet.
       {"src/alloc.cpp", "#include <cstdlib>\n#include <new>\n"
                         "void* operator new(std::size_t size) { if (void* p = std::malloc(size)) return p; "
                         "throw std::bad_alloc(); }\n"
                         "void operator delete(void* p) noexcept { std::free(p); }\n"},
       // Overrides the harness's check with an explicit specialization.
       {"src/special.cpp", "#include <cstddef>\nnamespace harness {\n"
                           "template <typename A, typename B> void check(const A& a, const B& b);\n"
                           "template <> void check<std::size_t, std::size_t>(const std::size_t&, const std::size_t&) {}\n}\n"},
       // Shares the harness's tally by defining it too, and resets it.
       {"src/tally.cpp", "namespace harness { inline int failed_checks = 0; }\n"
                         "void quiet() { harness::failed_checks = 0; }\n"}});
  INFO(scan.problem);
  REQUIRE(scan.problem.empty());
  CHECK(scan.objects == 5);
  const auto of = [&](const std::string& source) {
    const auto found = scan.references.find(source);
    return found == scan.references.end() ? Set{} : found->second;
  };
  CHECK_FALSE(scan.references.count("src/count.cpp"));
  CHECK_FALSE(scan.references.count("src/alloc.cpp"));
  CHECK(of("src/fast.cpp") == Set{"interposes strlen"});
  CHECK(of("src/special.cpp") == Set{"defines void harness::check<unsigned long, unsigned long>"});
  CHECK(of("src/tally.cpp") == Set{"defines harness::failed_checks"});
}

TEST_CASE("objects: code whose objects nm cannot read is a problem of the scan, not a clean one", "[capture]") {
  hydra::util::TempDir temp("hydra-object-references");
  const fs::path top = temp.path();
  const auto scan = build_and_scan(top, {{"src/fix.cpp", "int fix() { return 42; }\n"},
                                         {"tests/fix_test.cpp", "int fix();\nint main() { return fix() != 42; }\n"}});
  REQUIRE(scan.problem.empty());
  // The code's object rewritten into what no binutils reads; the test's stays.
  hydra::util::write_file_atomic(top / "build" / "fix.o", "not an object at all\n");
  const auto unread = hydra::capture::scan_object_references(
      top / "build", top / "build", top,
      [](const std::string& source) { return !hydra::util::starts_with(source, "tests/"); });
  CHECK(unread.problem.find("nm could not read the objects") != std::string::npos);
}
