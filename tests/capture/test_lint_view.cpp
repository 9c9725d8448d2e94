// The lint view's pure parts: suppressions made inert with lines and columns
// unchanged, and the filter that keeps the findings of the source tree.
#include <catch2/catch.hpp>

#include <hydra/capture/lint/view.hpp>

using hydra::capture::LintScope;
using hydra::guard::Suppression;

TEST_CASE("added suppressions are blanked, line count and columns unchanged", "[capture][lint-view]") {
  const std::string content =
      "// NOLINTBEGIN(bugprone-*)\n"
      "int f() { int x; return x; }  // NOLINT\n"
      "#pragma GCC diagnostic ignored \"-Wshadow\"\n"
      "int g();  // NOLINT kept: not added\n"
      "// NOLINTEND\n";
  const std::vector<Suppression> added = {{"a.cpp", 1, "", "NOLINTBEGIN"},
                                          {"a.cpp", 2, "", "NOLINT"},
                                          {"a.cpp", 3, "", "pragma diagnostic ignored"},
                                          {"a.cpp", 5, "", "NOLINTEND"}};
  const std::string stripped = hydra::capture::strip_suppressions(content, added);
  // Each marker becomes as many spaces: "NOLINTBEGIN(bugprone-*)" is 23
  // characters, "NOLINT" 6, "NOLINTEND" 9; the pragma line becomes empty.
  CHECK(stripped == "// " + std::string(23, ' ') + "\n" +
                        "int f() { int x; return x; }  // " + std::string(6, ' ') + "\n" +
                        "\n" +
                        "int g();  // NOLINT kept: not added\n" +
                        "// " + std::string(9, ' ') + "\n");
}

TEST_CASE("glued markers and line markers are blanked", "[capture][lint-view]") {
  const std::string content =
      "int a;  //fooNOLINT" "BEGIN(bugprone-*)\n"
      "# 12 \"/usr/include/stdio.h\" 3\n"
      "#line 40 \"other.cpp\"\n"
      "int b;\n";
  const std::vector<Suppression> added = {{"a.md", 1, "", "NOLINT" "BEGIN"},
                                          {"a.md", 2, "", "line marker"},
                                          {"a.md", 3, "", "line marker"}};
  CHECK(hydra::capture::strip_suppressions(content, added) ==
        "int a;  //foo" + std::string(23, ' ') + "\n\n\nint b;\n");
  // Lines of no recorded kind stay.
  CHECK(hydra::capture::strip_suppressions(content, {}) == content);
}

TEST_CASE("findings outside the source tree are dropped with their notes, errors stay", "[capture][lint-view]") {
  LintScope scope;
  scope.source = "/work/project";
  scope.excluded = {"/work/project/build"};
  scope.base = "/work/project/build";
  const std::string log =
      "/work/project/src/a.cpp:3:7: warning: in the tree [check-a]\n"
      "  int x;\n"
      "/work/project/build/gen.hpp:1:1: warning: generated [check-b]\n"
      "/work/project/build/gen.hpp:1:1: note: noted here\n"
      "/usr/include/other.h:2:2: warning: elsewhere [check-c]\n"
      "/tmp/overlay.yaml:12:14: error: expected integer\n"
      "../src/b.cpp:1:1: warning: relative to the build tree [check-d]\n";
  std::size_t dropped = 0;
  const std::string kept = hydra::capture::filter_lint_log(log, scope, &dropped);
  CHECK(dropped == 2);  // gen.hpp (an excluded tree) and /usr/include/other.h
  CHECK(kept ==
        "/work/project/src/a.cpp:3:7: warning: in the tree [check-a]\n"
        "  int x;\n"
        "/tmp/overlay.yaml:12:14: error: expected integer\n"
        "../src/b.cpp:1:1: warning: relative to the build tree [check-d]\n");
}

TEST_CASE("the header filter names the trees literally, whatever their paths hold", "[capture][lint-view]") {
  CHECK(hydra::capture::regex_escaped("/work/a.b+c/(x)[y]{z}|w^$?*\\") ==
        "/work/a\\.b\\+c/\\(x\\)\\[y\\]\\{z\\}\\|w\\^\\$\\?\\*\\\\");
  CHECK(hydra::capture::regex_escaped("/plain/path_1-2") == "/plain/path_1-2");
}
