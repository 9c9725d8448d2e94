// The compiler's view against clang-tidy's (capture/lint/compiler_view.hpp):
// preprocessed text read line by line, a file's conditional branches, the
// lines only the compiler compiles, and clang-tidy's findings there. The
// preprocessed texts are GCC 12's and clang 14's `-E` output of kSource, the
// findings clang-tidy 14's on GCC's.
#include <catch2/catch.hpp>

#include <hydra/capture/lint/compiler_view.hpp>
#include <hydra/capture/lint/compiler_view_run.hpp>

using namespace hydra::capture;
using Lines = std::set<std::uint64_t>;

namespace {

const std::string kSource =
    "int pick(int value) {\n"                          // 1
    "#if defined(__GNUC__) && !defined(__clang__)\n"   // 2
    "  int doubled;\n"                                 // 3
    "  doubled = value * 2;\n"                         // 4
    "  return doubled;\n"                              // 5
    "#else\n"                                          // 6
    "  return value * 2;\n"                            // 7
    "#endif\n"                                         // 8
    "}\n"                                              // 9
    "#define CALL(a, b) ((a) + (b))\n"                 // 10
    "int sum = CALL(1,\n"                              // 11
    "               2);\n";                            // 12

// `g++ -E only.cpp` (GCC 12): the macro call's `;` lands on its last line.
const std::string kByGcc =
    "# 0 \"only.cpp\"\n# 0 \"<built-in>\"\n# 0 \"<command-line>\"\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n"
    "# 0 \"<command-line>\" 2\n# 1 \"only.cpp\"\n"
    "int pick(int value) {\n\n  int doubled;\n  doubled = value * 2;\n  return doubled;\n\n\n\n}\n\n"
    "int sum = ((1) + (2))\n                 ;\n";
// `clang++ -E only.cpp` (clang 14): the whole call on its first line.
const std::string kByClang =
    "# 1 \"only.cpp\"\n# 1 \"<built-in>\" 1\n# 1 \"<built-in>\" 3\n# 404 \"<built-in>\" 3\n# 1 \"<command line>\" 1\n"
    "# 1 \"<built-in>\" 2\n# 1 \"only.cpp\" 2\n"
    "int pick(int value) {\n\n\n\n\n\n  return value * 2;\n\n}\n\nint sum = ((1) + (2));\n";

Lines token_lines_of(const PreprocessedText& text, const std::string& file) {
  for (std::size_t index = 0; index < text.files.size(); ++index)
    if (text.files[index] == file) return text.token_lines.count(index) ? text.token_lines.at(index) : Lines{};
  return {};
}

}  // namespace

TEST_CASE("preprocessed text gives each output line its source line", "[lint][compiler-view]") {
  const PreprocessedText gcc = read_preprocessed(kByGcc);
  CHECK(token_lines_of(gcc, "only.cpp") == Lines{1, 3, 4, 5, 9, 11, 12});
  const PreprocessedText clang = read_preprocessed(kByClang);
  CHECK(token_lines_of(clang, "only.cpp") == Lines{1, 7, 9, 11});
  // Output line 9 (1-based) is "  int doubled;": only.cpp's line 3.
  REQUIRE(gcc.origin.size() >= 9);
  CHECK(gcc.files[gcc.origin[8].first] == "only.cpp");
  CHECK(gcc.origin[8].second == 3);
  // Markers: `#line`, escapes, flags.
  const PreprocessedText escaped = read_preprocessed("#line 7 \"a\\\\b \\\"c\\\".h\"\nx\n# 20 \"d\\101.h\" 1 3\ny\n");
  CHECK(escaped.files == std::vector<std::string>{"a\\b \"c\".h", "dA.h"});
  CHECK(escaped.token_lines.at(0) == Lines{7});
  CHECK(escaped.token_lines.at(1) == Lines{20});
}

TEST_CASE("a file's conditional branches", "[lint][compiler-view]") {
  const ConditionalBranches branches = conditional_branches(kSource);
  REQUIRE(branches.own_lines.size() == 3);  // none, the #if branch, the #else branch
  CHECK(branches.own_lines[1] == std::vector<std::uint64_t>{3, 4, 5});
  CHECK(branches.own_lines[2] == std::vector<std::uint64_t>{7});
  CHECK(branches.delimiters[1] == std::pair<std::uint64_t, std::uint64_t>{2, 6});
  CHECK(branches.delimiters[2] == std::pair<std::uint64_t, std::uint64_t>{6, 8});
  CHECK(branches.innermost[4] == 1);
  CHECK(branches.innermost[11] == 0);
  // Nested groups, continued directive lines, `#  elif`.
  const ConditionalBranches nested = conditional_branches(
      "#ifdef A\na\n#  if B && \\\n   C\nb\n#  elif D\nd\n#  endif\na2\n#endif\ntop\n");
  REQUIRE(nested.own_lines.size() == 4);
  CHECK(nested.own_lines[1] == std::vector<std::uint64_t>{2, 9});
  CHECK(nested.own_lines[2] == std::vector<std::uint64_t>{5});
  CHECK(nested.own_lines[3] == std::vector<std::uint64_t>{7});
  CHECK(nested.parent[2] == 1);
  CHECK(nested.parent[3] == 1);
  CHECK(nested.innermost[11] == 0);
}

TEST_CASE("the added lines only the compiler compiles, and the reverse", "[lint][compiler-view]") {
  const ConditionalBranches branches = conditional_branches(kSource);
  LinesBySide sides{token_lines_of(read_preprocessed(kByGcc), "only.cpp"),
                    token_lines_of(read_preprocessed(kByClang), "only.cpp")};
  // The change added lines 2-8: the GCC branch is hidden from clang-tidy,
  // the #else branch is linted and never built. The macro call (top level)
  // differs in where its tokens land, and is no branch at all.
  const HiddenLines added = hidden_lines(branches, {2, 3, 4, 5, 6, 7, 8, 11, 12}, sides);
  CHECK(added.compiled_not_linted == Lines{3, 4, 5});
  CHECK(added.linted_not_compiled == Lines{7});
  // An honest change elsewhere: nothing.
  const HiddenLines elsewhere = hidden_lines(branches, {1, 9, 11, 12}, sides);
  CHECK(elsewhere.compiled_not_linted.empty());
  CHECK(elsewhere.linted_not_compiled.empty());
  // A change to one line of an existing GCC-only branch: that line only.
  CHECK(hidden_lines(branches, {4}, sides).compiled_not_linted == Lines{4});
  // Existing code wrapped: the change added only the directives.
  CHECK(hidden_lines(branches, {2, 6}, sides).compiled_not_linted == Lines{3, 4, 5});
  // Both sides take the branch (clang as the compiler): nothing.
  CHECK(hidden_lines(branches, {3, 4, 5}, {sides.compiled, sides.compiled}).compiled_not_linted.empty());
}

TEST_CASE("hidden lines in runs", "[lint][compiler-view]") {
  using Runs = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  CHECK(line_runs({3, 4, 5}, {1, 7}) == Runs{{3, 5}});
  CHECK(line_runs({3, 5, 20, 21}, {1, 7, 9}) == Runs{{3, 5}, {20, 21}});
  CHECK(line_runs({}, {}).empty());
}

TEST_CASE("clang-tidy's findings on the compiler's view land on the real lines", "[lint][compiler-view]") {
  const PreprocessedText view = read_preprocessed(kByGcc);
  // clang-tidy 14, cppcoreguidelines-init-variables, over `g++ -E only.cpp`
  // written as /scratch/view.cpp (plus two lines it could have printed).
  const std::string output =
      "1 warning generated.\n"
      "/scratch/view.cpp:9:7: warning: variable 'doubled' is not initialized [cppcoreguidelines-init-variables]\n"
      "  int doubled;\n      ^\n              = 0\n"
      "/scratch/view.cpp:7:5: warning: a finding on a line not judged [readability-x]\n"
      "/scratch/view.cpp:10:3: error: '__malloc__' attribute takes no arguments [clang-diagnostic-error]\n"
      "/scratch/view.cpp:9:7: note: a note\n";
  std::map<std::string, JudgedFile> judged;
  judged["only.cpp"] = {"/src/only.cpp", {{3, "  int doubled;"}, {4, "  doubled = value * 2;"}}};
  std::size_t count = 0;
  const std::string findings = compiler_view_findings(output, "/scratch/view.cpp", view, judged, &count);
  CHECK(count == 1);
  CHECK(findings ==
        "/src/only.cpp:3:7: warning: variable 'doubled' is not initialized [cppcoreguidelines-init-variables]\n"
        "  int doubled;\n      ^\n");
}

TEST_CASE("which sources include a header, from Ninja's deps log", "[lint][compiler-view]") {
  const std::string deps =
      "CMakeFiles/lib.dir/src/a.cpp.o: #deps 3, deps mtime 1 (VALID)\n"
      "    /src/src/a.cpp\n    /src/include/h.hpp\n    /usr/include/c++/12/string\n\n"
      "CMakeFiles/lib.dir/src/b.cpp.o: #deps 2, deps mtime 1 (VALID)\n"
      "    ../src/src/b.cpp\n    ../src/include/h.hpp\n\n";
  const auto including = sources_including(deps, "/build");
  CHECK(including.at("/src/include/h.hpp") == std::set<std::filesystem::path>{"/src/src/a.cpp", "/src/src/b.cpp"});
  CHECK(including.count("/src/src/a.cpp") == 0);
}
