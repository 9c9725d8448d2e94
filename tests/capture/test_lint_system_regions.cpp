// GCC's view with clang's system headers (capture/lint/system_regions.hpp),
// on GCC 12's real `-E -v` output of tests/fixtures/compiler-view/src/unit.cpp
// (recorded by record.sh there): <cstdlib> (which include_next's the C
// library's stdlib.h), <stddef.h> (GCC's own folder) and, through the
// project's header, <climits>.
#include <catch2/catch.hpp>

#include <algorithm>

#include <hydra/capture/lint/compiler_view.hpp>
#include <hydra/capture/lint/system_regions.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

#include "test_paths.hpp"

using namespace hydra::capture;
namespace fs = std::filesystem;

namespace {

const fs::path kRecorded = fs::path(HYDRA_FIXTURES_DIR) / "compiler-view";
const fs::path kDirectory = "/work/demo";  // where the command ran: its relative folders and markers resolve here

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  for (const auto line : hydra::util::split(text, '\n')) out.emplace_back(line);
  return out;
}

}  // namespace

TEST_CASE("the include search list is read from a compiler's -v report", "[capture][lint]") {
  const auto search = include_search_list(hydra::util::read_file(kRecorded / "unit.gcc-v.txt"));
  CHECK(search == std::vector<std::string>{"include", "/usr/include/c++/12", "/usr/include/x86_64-linux-gnu/c++/12",
                                           "/usr/include/c++/12/backward", "/usr/lib/gcc/x86_64-linux-gnu/12/include",
                                           "/usr/local/include", "/usr/include/x86_64-linux-gnu", "/usr/include"});
  CHECK(include_search_list("Using built-in specs.\nno list here\n").empty());
}

TEST_CASE("a system header is named relative to the deepest search folder holding it", "[capture][lint]") {
  const std::vector<std::string> search = {"include", "/usr/include/c++/12", "/usr/include"};
  CHECK(header_include_name("/usr/include/c++/12/cstdlib", search, kDirectory) == "cstdlib");
  CHECK(header_include_name("/usr/include/c++/12/bits/std_abs.h", search, kDirectory) == "bits/std_abs.h");
  CHECK(header_include_name("/usr/include/stdlib.h", search, kDirectory) == "stdlib.h");
  CHECK(header_include_name("/usr/lib/gcc/../../include/limits.h", search, kDirectory) == "limits.h");
  CHECK(header_include_name("include/demo/limits.hpp", search, kDirectory) == "demo/limits.hpp");
  CHECK(header_include_name("/opt/elsewhere/x.h", search, kDirectory).empty());
}

TEST_CASE("GCC's system-header regions become includes, the project's stay as GCC expanded them", "[capture][lint]") {
  const std::string recorded = hydra::util::read_file(kRecorded / "unit.gcc.ii");
  const auto search = include_search_list(hydra::util::read_file(kRecorded / "unit.gcc-v.txt"));
  const SystemRegions rewritten = include_system_headers(recorded, search, kDirectory);
  INFO(rewritten.text);
  // The outermost regions only: stdc-predef.h (entered from <command-line>),
  // <cstdlib> (its include_next of stdlib.h and all below stay inside),
  // <climits> from the project's header, <stddef.h> from GCC's own folder.
  CHECK(rewritten.replaced == 4);
  CHECK(rewritten.unresolved.empty());
  const auto out = lines(rewritten.text);
  const std::vector<std::string> includes = [&] {
    std::vector<std::string> found;
    for (const auto& line : out)
      if (hydra::util::starts_with(line, "#include")) found.push_back(line);
    return found;
  }();
  CHECK(includes == std::vector<std::string>{"#include <stdc-predef.h>", "#include <cstdlib>", "#include <climits>",
                                             "#include <stddef.h>"});
  // No system header's text or marker is left; the markers that returned
  // from one lost their flags (clang pops only what it saw pushed); the
  // project header's own enter and return keep theirs.
  for (const auto& line : out) {
    const auto marker = read_line_marker(line);
    if (!marker) continue;
    CAPTURE(line);
    CHECK(marker->flags.count(3) == 0);
    CHECK(marker->file.find("/usr/") == std::string::npos);
  }
  CHECK(std::count(out.begin(), out.end(), "# 1 \"include/demo/limits.hpp\" 1") == 1);
  CHECK(std::count(out.begin(), out.end(), "# 3 \"src/unit.cpp\" 2") == 1);
  CHECK(std::count(out.begin(), out.end(), "# 2 \"src/unit.cpp\"") == 1);
  CHECK(std::count(out.begin(), out.end(), "# 3 \"include/demo/limits.hpp\"") == 2);
  CHECK(rewritten.text.find("__builtin") == std::string::npos);
  // Each include stands on the line of the directive that entered the
  // header, and the project's code on its own lines.
  const PreprocessedText read = read_preprocessed(rewritten.text);
  const auto origin_of = [&](const std::string& text) {
    const auto at = std::find(out.begin(), out.end(), text);
    REQUIRE(at != out.end());
    const auto [file, line] = read.origin[static_cast<std::size_t>(at - out.begin())];
    return read.files[file] + ":" + std::to_string(line);
  };
  CHECK(origin_of("#include <cstdlib>") == "src/unit.cpp:1");
  CHECK(origin_of("#include <climits>") == "include/demo/limits.hpp:2");
  CHECK(origin_of("#include <stddef.h>") == "src/unit.cpp:3");
  CHECK(origin_of("inline int widest() { return 0x7fffffff; }") == "include/demo/limits.hpp:3");
  CHECK(origin_of("  int doubled;") == "src/unit.cpp:6");
}

TEST_CASE("a system header no search folder holds stays as GCC expanded it", "[capture][lint]") {
  const std::string text =
      "# 1 \"a.cpp\"\n# 1 \"/opt/sdk/x.h\" 1 3\nint from_x;\n# 2 \"a.cpp\" 2\nint own;\n";
  const SystemRegions rewritten = include_system_headers(text, {"/usr/include"}, kDirectory);
  CHECK(rewritten.text == text);
  CHECK(rewritten.replaced == 0);
  CHECK(rewritten.unresolved == std::vector<std::string>{"/opt/sdk/x.h"});
  // A project file GCC was told is a system header from some line on (no
  // entering marker) stays too.
  const std::string pragma = "# 1 \"a.cpp\"\n# 1 \"b.hpp\" 1\n# 3 \"b.hpp\" 3\nint quiet;\n# 2 \"a.cpp\" 2\n";
  CHECK(include_system_headers(pragma, {"/usr/include", "."}, kDirectory).text == pragma);
}
