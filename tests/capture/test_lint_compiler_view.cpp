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

namespace {

// A body chosen by pasting a predefined macro, with no conditional around it
// (paste.cpp), and `g++ -E paste.cpp` (GCC 12) and `clang++ -E paste.cpp`
// (clang 14) from its first line on.
const std::string kPasteSource =
    "#define CAT2(a, b) a##b\n"                        // 1
    "#define CAT(a, b) CAT2(a, b)\n"                   // 2
    "#define BODY_12 int n; n = 1; return n;\n"        // 3
    "#define BODY_4 return 1;\n"                       // 4
    "int one() {\n"                                    // 5
    "  CAT(BODY_, __GNUC__)\n"                         // 6
    "}\n"                                              // 7
    "const char* v = __VERSION__;\n"                   // 8
    "int major = __clang_major__ + 0;\n"               // 9
    "int same = CAT(1, 2);\n";                         // 10
const std::string kPasteByGcc =
    "# 1 \"paste.cpp\"\n\n\n\n\nint one() {\n  int n; n = 1; return n;\n}\nconst char* v = \"12.2.0\";\n"
    "int major = __clang_major__ + 0;\nint same = 12;\n";
const std::string kPasteByClang =
    "# 1 \"paste.cpp\" 2\n\n\n\n\nint one() {\n  return 1;\n}\nconst char* v = \"Debian Clang 14.0.6\";\n"
    "int major = 14 + 0;\nint same = 12;\n";

std::map<std::uint64_t, std::string> tokens_of(const std::string& text) {
  const PreprocessedText read = read_preprocessed(text);
  return line_tokens(text, read, {0});
}

}  // namespace

TEST_CASE("a line's tokens are those of the output lines that come from it, white space removed",
          "[lint][compiler-view]") {
  const auto gcc = tokens_of(kByGcc);
  CHECK(gcc.at(3) == "intdoubled;");
  CHECK(gcc.at(11) == "intsum=((1)+(2))");
  CHECK(gcc.at(12) == ";");
  CHECK(gcc.count(2) == 0);
  CHECK(tokens_of(kByClang).at(11) == "intsum=((1)+(2));");
}

TEST_CASE("added lines a predefined macro expands otherwise are found without a conditional",
          "[lint][compiler-view]") {
  const auto gcc = tokens_of(kPasteByGcc);
  const auto clang = tokens_of(kPasteByClang);
  const Lines all = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  // The pasted body (__GNUC__), __VERSION__, __clang_major__; not the paste
  // both expand alike, nor the lines around.
  CHECK(expanded_differently(gcc, clang, all) == Lines{6, 8, 9});
  // Only added lines are judged.
  CHECK(expanded_differently(gcc, clang, {6, 7}) == Lines{6});
  CHECK(expanded_differently(gcc, clang, {5, 7, 10}).empty());
  // A macro call over two lines that GCC and clang spread differently
  // (kByGcc, kByClang: `;` on line 12 by GCC, on line 11 by clang) is the
  // same code; the branch only GCC takes has no clang tokens but is left to
  // hidden_lines, and the #else branch only clang takes has no GCC tokens.
  CHECK(expanded_differently(tokens_of(kByGcc), tokens_of(kByClang), {11, 12, 7}).empty());
  CHECK(expanded_differently(tokens_of(kByGcc), tokens_of(kByClang), {3, 4, 5}) == Lines{3, 4, 5});
  // A line whose difference nothing within the window makes up stays
  // different even when the lines after it agree.
  CHECK(expanded_differently({{1, "a"}, {2, "b"}, {3, "c"}}, {{1, "x"}, {2, "b"}, {3, "c"}}, {1, 2, 3}) == Lines{1});
  CHECK(expanded_differently({{1, "ab"}, {2, "c"}}, {{1, "a"}, {2, "bc"}}, {1, 2}).empty());
}

TEST_CASE("a compiler's view clang-tidy did not parse whole leaves its judged lines unlinted", "[lint][compiler-view]") {
  // clang-tidy 14 on GCC 12's expansion of <stdio.h> (its `__malloc__`
  // attribute with arguments), as it ran before the view included the
  // system headers instead.
  hydra::util::ProcessResult ran;
  ran.started = true;
  ran.exit_code = 1;
  ran.output =
      "/scratch/0-tokenize.cpp:3:2: warning: variable 'newlines' is not initialized [cppcoreguidelines-init-variables]\n"
      "/usr/include/stdio.h:189:24: error: '__malloc__' attribute takes no arguments [clang-diagnostic-error]\n"
      "/usr/include/stdio.h:201:25: error: '__malloc__' attribute takes no arguments [clang-diagnostic-error]\n"
      "Found compiler errors.\n";
  const std::set<std::string> judged = {"include/textstats/tokenize.hpp:30-40"};
  const std::string why = compiler_view_not_linted(ran, "the compiler's view of /src/tokenize.cpp", judged);
  CHECK(why ==
        "clang-tidy could not parse the compiler's view of /src/tokenize.cpp (2 compiler errors; the first: "
        "/usr/include/stdio.h:189:24: error: '__malloc__' attribute takes no arguments [clang-diagnostic-error]): its "
        "lines include/textstats/tokenize.hpp:30-40 are not linted");
  // A driver that refused an argument processed nothing.
  ran.output = "error: unknown argument: '-fconcepts-diagnostics-depth=2' [clang-diagnostic-error]\n";
  CHECK(compiler_view_not_linted(ran, "v", judged).find("clang-tidy could not parse v (1 compiler errors") == 0);
  // A crash, a timeout.
  ran.output.clear();
  ran.exit_code = 128 + 11;
  CHECK(compiler_view_not_linted(ran, "v", judged).find("clang-tidy crashed on v") == 0);
  ran.exit_code = -1;
  ran.timed_out = true;
  CHECK(compiler_view_not_linted(ran, "v", judged) == "clang-tidy timed out on v: its lines include/textstats/tokenize.hpp:30-40 are not linted");
  // Findings only, or none: linted whole; a check promoted to an error is a finding.
  ran.timed_out = false;
  ran.exit_code = 1;
  ran.output = "/scratch/0-count.cpp:9:3: error: do not use 'else' after 'return' [readability-else-after-return]\n";
  CHECK(compiler_view_not_linted(ran, "v", judged).empty());
  ran.exit_code = 0;
  ran.output = "/scratch/0-count.cpp:9:3: warning: use nullptr [modernize-use-nullptr]\n";
  CHECK(compiler_view_not_linted(ran, "v", judged).empty());
}
