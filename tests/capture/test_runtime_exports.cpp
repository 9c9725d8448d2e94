// The runtime libraries' exports kept between captures
// (capture/cmake/runtime_exports.hpp), over a shared library compiled here.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <hydra/capture/cmake/runtime_exports.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace fs = std::filesystem;
using Set = std::set<std::string>;

TEST_CASE("runtime exports: what a shared library exports is kept under its identity and read again when it changes",
          "[capture]") {
  hydra::util::TempDir temp("hydra-runtime-exports");
  const fs::path top = temp.path();
  const auto nm = hydra::util::find_program("nm");
  REQUIRE(nm);
  // A shared library of our own, compiled here.
  hydra::util::write_file_atomic(top / "lib.c", "int kept_first(void) { return 1; }\n");
  hydra::util::ProcessRequest compile;
  compile.argv = {"cc", "-shared", "-fPIC", "-o", (top / "libkept.so").string(), (top / "lib.c").string()};
  REQUIRE(hydra::util::run_process(compile).exit_code == 0);
  const std::vector<fs::path> libraries = {top / "libkept.so"};
  const fs::path cache = top / "cache";

  // Without a cache folder: read, nothing kept.
  const Set read = hydra::capture::exported_names_kept(libraries, *nm, std::nullopt);
  CHECK(read.count("kept_first") == 1);
  CHECK_FALSE(fs::exists(cache));

  // With one: read, then kept in one file.
  CHECK(hydra::capture::exported_names_kept(libraries, *nm, cache) == read);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(cache / "runtime-exports")) files.push_back(entry.path());
  REQUIRE(files.size() == 1);
  CHECK(hydra::util::read_file(files.front()).find("kept_first\n") != std::string::npos);

  // While the library is the same file, the kept names are what is read
  // (an entry edited here shows it).
  hydra::util::write_file_atomic(files.front(), "kept_first\nonly_in_the_entry\n");
  CHECK(hydra::capture::exported_names_kept(libraries, *nm, cache) == Set{"kept_first", "only_in_the_entry"});

  // A library nm cannot read: what the others give is answered, nothing kept.
  hydra::util::write_file_atomic(top / "libbroken.so", "not a shared library\n");
  const fs::path other_cache = top / "other-cache";
  const Set partial = hydra::capture::exported_names_kept({top / "libkept.so", top / "libbroken.so"}, *nm, other_cache);
  CHECK(partial.count("kept_first") == 1);
  CHECK_FALSE(fs::exists(other_cache / "runtime-exports"));

  // The library rebuilt with another export: another identity, read again.
  hydra::util::write_file_atomic(top / "lib.c", "int kept_second(void) { return 2; }\n");
  REQUIRE(hydra::util::run_process(compile).exit_code == 0);
  const Set again = hydra::capture::exported_names_kept(libraries, *nm, cache);
  CHECK(again.count("kept_second") == 1);
  CHECK(again.count("kept_first") == 0);
  CHECK(again.count("only_in_the_entry") == 0);
}

TEST_CASE("runtime exports: the compiler run outside the sandbox is the user's", "[capture]") {
  // Named by the user's initial cache (a name on PATH is found there).
  const auto named = hydra::parse::parse_cmake_cache("CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/g++-12\n");
  CHECK(hydra::capture::user_compiler(named) == "/usr/bin/g++-12");
  const auto on_path = hydra::parse::parse_initial_cache("set(CMAKE_CXX_COMPILER c++ CACHE STRING \"\")\n");
  const auto cxx = hydra::util::find_program("c++");
  REQUIRE(cxx);
  CHECK(hydra::capture::user_compiler(on_path) == cxx->string());
  // None named: $CXX, else c++ on PATH; whatever a build tree's cache says
  // is not read at all (user_compiler takes no build tree).
  if (std::getenv("CXX") == nullptr && std::getenv("CC") == nullptr)
    CHECK(hydra::capture::user_compiler(hydra::parse::CMakeCache{}) == cxx->string());
}
