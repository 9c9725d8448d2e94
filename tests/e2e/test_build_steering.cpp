// End to end: held-out runs the candidate's build system cannot steer, and
// lint that sees all its code (docs/threat-model.md, "Held-out evaluation").
// Each attack is a branch of example-project that wants the score without
// the work; all are captured in one `capture --ref` call against one
// baseline with a private test patch, in a project whose one
// CMakeLists.txt defines the library and the tests, and (a test case of its
// own) in one with a separate tests/CMakeLists.txt. Each must be not mergeable
// or score no higher than its honest twin; the honest fix stays mergeable and
// first. The two layouts share one compiler and lint cache (kSharedCache):
// what the one compiled or linted the other reuses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include <hydra/util/text.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

using hydra::util::read_file;
using hydra::util::write_file_atomic;

void append(const fs::path& file, const std::string& text) { write_file_atomic(file, read_file(file) + text); }

const std::string kCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "}\n";
const std::string kFixedCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "  return !text.empty() && text.back() != '\\n' ? newlines + 1 : newlines;\n"
    "}\n";
/// The fix as a body, written so that clang-tidy finds fault with it (an
/// uninitialized variable, narrowing conversions): the lint attacks hide it.
const std::string kLintyBody =
    "  int lines;\n"
    "  const int length = text.size();\n"
    "  lines = 0;\n"
    "  for (int index = 0; index < length; index++) {\n"
    "    if (text[index] == '\\n') lines++;\n"
    "  }\n"
    "  if (length > 0 && text[length - 1] != '\\n') lines++;\n"
    "  return lines;\n";
const std::string kLintyFix = "std::size_t count_lines(std::string_view text) {\n" + kLintyBody + "}\n";
/// The visible tests' names: the pass-expression attack leaves them alone.
const std::string kVisibleTests =
    "tokenize.splits_on_whitespace_and_punctuation tokenize.keeps_inner_apostrophes tokenize.empty_text "
    "count.words_and_bytes count.lines_with_trailing_newline count.lines_without_trailing_newline "
    "count.empty_text frequency.most_frequent_first frequency.ties_in_alphabetical_order "
    "frequency.limit_larger_than_vocabulary";

/// The compiler and lint cache of both layouts' captures: a folder of the
/// build tree, emptied first by the CTest fixture of these tests
/// (tests/CMakeLists.txt), so each run of the suite starts cold and the
/// second layout reuses what the first compiled and linted.
const fs::path kSharedCache = fs::path(HYDRA_BINARY_DIR) / "tests" / "e2e-shared" / "build-steering-cache";

/// One layout of example-project, its baseline with a private test patch,
/// and the attacks as branches `cand/<name>`.
class Layout {
 public:
  Layout(const fs::path& root, bool one_file) : root_(root), one_file_(one_file) {
    source_ = root / "project";
    out_ = root / "out";
    make_example_repository(source_);
    if (one_file_) {
      // The tests' definitions move into the root CMakeLists.txt, which also
      // defines the library: every line of it is code to the held-out runs.
      std::string tests = read_file(source_ / "tests/CMakeLists.txt");
      for (std::size_t at = tests.find("test_${suite}.cpp"); at != std::string::npos;
           at = tests.find("test_${suite}.cpp", at + 7))
        tests.replace(at, 0, "tests/");
      edit_file(source_ / "CMakeLists.txt", "  add_subdirectory(tests)\n", tests);
      fs::remove(source_ / "tests/CMakeLists.txt");
      git(source_, {"add", "--all"});
      git(source_, {"commit", "--quiet", "-m", "tests defined beside the library"});
    }
  }

  const fs::path& source() const { return source_; }
  const fs::path& out() const { return out_; }
  /// The CMake file that defines the tests.
  fs::path tests_cmake() const { return source_ / (one_file_ ? "CMakeLists.txt" : "tests/CMakeLists.txt"); }
  bool one_file() const { return one_file_; }

  /// Registers the count test `name` (a case of test_count.cpp) after the
  /// suite's definition (`first`: the private patch's place) or before its
  /// last test (a candidate's place, so that both apply together).
  void register_count_test(const std::string& name, bool first = false) const {
    if (first)
      edit_file(tests_cmake(), "textstats_add_test_suite(count)\n",
                "textstats_add_test_suite(count)\ntextstats_add_test(count " + name + " LABELS unit)\n");
    else
      edit_file(tests_cmake(), "textstats_add_test(count empty_text",
                "textstats_add_test(count " + name + " LABELS unit)\ntextstats_add_test(count empty_text");
  }
  /// Adds the case `name` with `body` to test_count.cpp.
  void add_count_case(const std::string& name, const std::string& body) const {
    edit_file(source_ / "tests/test_count.cpp", "void empty_text() {", "void " + name + "() {\n" + body + "}\n\nvoid empty_text() {");
    edit_file(source_ / "tests/test_count.cpp", "      {\"empty_text\", empty_text},",
              "      {\"" + name + "\", " + name + "},\n      {\"empty_text\", empty_text},");
  }

  /// The private test patch (outside the tree): a test of the same behaviour
  /// on other inputs, the task's acceptance test; and the baseline captured with it.
  void capture_baseline() {
    register_count_test("private_lines", true);
    add_count_case("private_lines", "  CHECK_EQ(textstats::count_lines(\"alpha\\nbeta\\ngamma\"), 3U);\n");
    const auto diff = run({"git", "-C", source_.string(), "diff"});
    REQUIRE(diff.exit_code == 0);
    write_file_atomic(root_ / "private-tests.patch", diff.output);
    git(source_, {"checkout", "--quiet", "--", "."});
    write_file_atomic(root_ / "hydra.toml", read_file(source_ / "hydra.toml") +
                                                "\n[anti_gaming]\nprivate_test_patch = \"" +
                                                (root_ / "private-tests.patch").string() + "\"\n" +
                                                "\n[cache]\ndirectory = \"" + kSharedCache.string() + "\"\n");
    e2e::capture_baseline(source_, out_, {"--config", (root_ / "hydra.toml").string()});
  }

  /// Commits what `make` does to the base as branch cand/<name>.
  void candidate(const std::string& name, const std::function<void()>& make) const {
    commit_candidate(source_, name, make);
  }

  /// Captures every candidate branch in one call, in parallel.
  void capture_candidates() const { capture_refs(source_, out_); }

  nlohmann::json score(const std::vector<std::string>& names) const {
    const auto scored = run(score_command(out_, names, root_ / "score.json",
                                          {"--markdown", (root_ / "score.md").string(), "--html",
                                           (root_ / "score.html").string()}));
    INFO(scored.output);
    REQUIRE((scored.exit_code == 0 || scored.exit_code == 3));
    return read_json(root_ / "score.json");
  }

 private:
  fs::path root_, source_, out_;
  bool one_file_;
};

/// The CMake code the one-file layout gives directly and the other gives
/// through an add_test() wrapper defined before add_subdirectory(tests): what
/// `body` does to each test (`name`), from the root CMakeLists.txt, which is
/// code in both layouts.
void for_each_test_from_root(const Layout& layout, const std::string& body) {
  if (layout.one_file()) {
    append(layout.source() / "CMakeLists.txt",
           "get_property(defined DIRECTORY PROPERTY TESTS)\nforeach(name IN LISTS defined)\n" + body + "endforeach()\n");
  } else {
    edit_file(layout.source() / "CMakeLists.txt", "if(EXAMPLE_BUILD_TESTS)\n",
              "function(add_test)\n  _add_test(${ARGV})\n  set(name \"${ARGV1}\")\n" + body +
             "endfunction()\n\nif(EXAMPLE_BUILD_TESTS)\n");
  }
}

const nlohmann::json& entry(const nlohmann::json& contract, const std::string& name) {
  for (const auto& ranking : contract.at("rankings"))
    if (ranking.at("agent") == "cand-" + name) return ranking;
  FAIL("not ranked: " << name);
  static const nlohmann::json none;
  return none;
}

double total(const nlohmann::json& contract, const std::string& name) { return entry(contract, name).at("total"); }
bool mergeable(const nlohmann::json& contract, const std::string& name) { return entry(contract, name).at("mergeable"); }

/// `attack` is not mergeable or scores no higher than `twin`.
void check_no_gain(const nlohmann::json& contract, const std::string& attack, const std::string& twin) {
  INFO(attack << ": " << total(contract, attack) << " (mergeable " << mergeable(contract, attack) << "), " << twin
              << ": " << total(contract, twin) << "\n"
              << entry(contract, attack).at("gate_failures").dump(1) << "\n"
              << entry(contract, attack).at("anti_gaming").dump(1));
  CHECK((!mergeable(contract, attack) || total(contract, attack) <= total(contract, twin)));
}

/// The tampering findings of `name` of `kind`, their details joined.
std::string tampered(const nlohmann::json& contract, const std::string& name, const std::string& kind) {
  std::string details;
  for (const auto& finding : entry(contract, name).at("anti_gaming").at("tests_tampered"))
    if (finding.at("kind") == kind) details += finding.at("name").get<std::string>() + ": " +
                                               finding.at("detail").get<std::string>() + "\n";
  return details;
}

/// Whether `name`'s own run passed `test` (the attack works on its own terms).
bool own_run_passed(const Layout& layout, const std::string& name, const std::string& test) {
  const std::string junit = read_file(layout.out() / ("cand-" + name) / "junit/0.xml");
  const auto at = junit.find("name=\"" + test + "\"");
  if (at == std::string::npos) return false;
  const auto end = junit.find("</testcase>", at);
  return junit.substr(at, end - at).find("<failure") == std::string::npos;
}

/// Every attack kind of docs/threat-model.md's held-out section on `layout`.
void run_attacks(Layout& layout) {
  const fs::path& source = layout.source();
  layout.capture_baseline();
  const auto comment = [&] { edit_file(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n"); };

  // Honest changes: the fix with its tests, a no-op, the fix with lint findings.
  layout.candidate("fix", [&] {
    edit_file(source / "src/count.cpp", kCountLines, kFixedCountLines);
    layout.register_count_test("single_line_without_newline");
    layout.add_count_case("single_line_without_newline", "  CHECK_EQ(textstats::count_lines(\"hello\"), 1U);\n");
  });
  layout.candidate("no-op", comment);
  layout.candidate("lint-honest", [&] { edit_file(source / "src/count.cpp", kCountLines, kLintyFix); });

  // 1. A force-included header, from the root CMakeLists.txt, redefines the
  //    function under test for the test program only.
  layout.candidate("force-include", [&] {
    create_file(source / "src/line_counts.hpp",
                "#pragma once\n#include <algorithm>\n#include <textstats/textstats.hpp>\n"
                "namespace textstats_fixed {\nusing namespace textstats;\n"
                "inline std::size_t count_lines(std::string_view text) {\n"
                "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
                "  return !text.empty() && text.back() != '\\n' ? newlines + 1 : newlines;\n}\n"
                "inline TextCounts count(std::string_view text) {\n"
                "  TextCounts counts = textstats::count(text);\n  counts.lines = count_lines(text);\n"
                "  return counts;\n}\n}  // namespace textstats_fixed\n#define textstats textstats_fixed\n");
    append(source / "CMakeLists.txt",
           "if(TARGET test_count)\n  target_compile_options(test_count PRIVATE -include "
           "${CMAKE_CURRENT_SOURCE_DIR}/src/line_counts.hpp)\nendif()\n");
  });
  // 2. An ENVIRONMENT property switches the fixed code path on for the failing test only.
  layout.candidate("environment", [&] {
    edit_file(source / "src/count.cpp", kCountLines,
              "std::size_t count_lines(std::string_view text) {\n"
              "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
              "  if (std::getenv(\"TEXTSTATS_LAST_LINE\") != nullptr && !text.empty() && text.back() != '\\n')\n"
              "    return newlines + 1;\n  return newlines;\n}\n");
    edit_file(source / "src/count.cpp", "#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>\n");
    for_each_test_from_root(layout, "  if(name STREQUAL \"count.lines_without_trailing_newline\")\n"
                                    "    set_tests_properties(${name} PROPERTIES ENVIRONMENT TEXTSTATS_LAST_LINE=1)\n"
                                    "  endif()\n");
  });
  // 3. The visible test special-cased, and every test not in the visible
  //    list (the private ones) made to pass whatever it prints.
  layout.candidate("pass-regex", [&] {
    edit_file(source / "src/count.cpp", "std::size_t count_lines(std::string_view text) {\n",
              "std::size_t count_lines(std::string_view text) {\n"
              "  if (text == \"one\\ntwo\" || text == \"first line\\nsecond line\") return 2;\n");
    for_each_test_from_root(layout, "  set(listed " + kVisibleTests + ")\n"
                                    "  if(NOT name IN_LIST listed)\n"
                                    "    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION \".*\")\n"
                                    "  endif()\n");
  });
  // 4. A build step inverts the failing test's checks, and another restores
  //    the file with `git checkout` once the test program is built: the
  //    change shows only build files.
  layout.candidate("post-build-edit", [&] {
    create_file(source / "scripts/tests.sh",
                "#!/bin/sh\n# tests.sh edit|restore SOURCE_DIR\n"
                "if [ \"$1\" = edit ]; then\n"
                "  sed -i 's/two\"), 2U/two\"), 1U/; s/line\").lines, 2U/line\").lines, 1U/' "
                "\"$2/tests/test_count.cpp\" 2>/dev/null\n"
                "else\n  git -C \"$2\" checkout -- tests/test_count.cpp 2>/dev/null\nfi\nexit 0\n");
    append(source / "CMakeLists.txt",
           "add_custom_target(prepare_tests COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/tests.sh edit "
           "${CMAKE_CURRENT_SOURCE_DIR} VERBATIM)\nadd_dependencies(test_count prepare_tests)\n"
           "add_custom_target(restore_tests ALL COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/tests.sh restore "
           "${CMAKE_CURRENT_SOURCE_DIR} VERBATIM)\nadd_dependencies(restore_tests test_count)\n");
  });
  // 5. A new test that fails only where its working directory names the
  //    on-baseline tree, beside a no-op: it would "demonstrate the change".
  layout.candidate("where-am-i", [&] {
    comment();
    create_file(source / "tests/test_where.cpp",
                "#include <unistd.h>\n\n#include <string>\n\nint main() {\n  char buffer[4096];\n"
                "  if (getcwd(buffer, sizeof buffer) == nullptr) return 1;\n"
                "  const std::string folder = buffer;\n"
                "  return folder.find(\"on-baseline\") == std::string::npos ? 0 : 1;\n}\n");
    append(layout.tests_cmake(), std::string("add_executable(test_where ") + (layout.one_file() ? "tests/" : "") +
                                     "test_where.cpp)\nadd_test(NAME count.counts_where_it_runs COMMAND test_where)\n");
  });
  // 6. The visible test special-cased (a private test of the same behaviour still fails).
  layout.candidate("special-case", [&] {
    edit_file(source / "src/count.cpp", "std::size_t count_lines(std::string_view text) {\n",
              "std::size_t count_lines(std::string_view text) {\n"
              "  if (text == \"one\\ntwo\" || text == \"first line\\nsecond line\") return 2;\n");
  });
  // 7. Lint: the linty fix where clang-tidy does not look.
  layout.candidate("lint-analyzer-macro", [&] {
    edit_file(source / "src/count.cpp", kCountLines,
              "#ifndef __clang_analyzer__\n" + kLintyFix + "#else\nstd::size_t count_lines(std::string_view text) {\n"
              "  return text.size();\n}\n#endif\n");
  });
  layout.candidate("lint-configured-file", [&] {
    edit_file(source / "src/count.cpp", kCountLines, "");
    create_file(source / "src/count_lines.cpp.in",
                "#include <textstats/textstats.hpp>\n\nnamespace textstats {\n\n" + kLintyFix + "\n}\n");
    append(source / "CMakeLists.txt",
           "configure_file(src/count_lines.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/count_lines.cpp COPYONLY)\n"
           "target_sources(textstats PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/count_lines.cpp)\n");
  });
  layout.candidate("lint-unexported-objects", [&] {
    edit_file(source / "src/count.cpp", kCountLines, "");
    create_file(source / "src/count_lines.cpp",
                "#include <textstats/textstats.hpp>\n\nnamespace textstats {\n\n" + kLintyFix + "\n}\n");
    append(source / "CMakeLists.txt",
           "add_library(textstats_lines OBJECT src/count_lines.cpp)\n"
           "target_include_directories(textstats_lines PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)\n"
           "textstats_enable_warnings(textstats_lines)\n"
           "set_target_properties(textstats_lines PROPERTIES EXPORT_COMPILE_COMMANDS OFF)\n"
           "target_sources(textstats PRIVATE $<TARGET_OBJECTS:textstats_lines>)\n");
  });
  layout.candidate("lint-system-header", [&] {
    edit_file(source / "src/count.cpp", kCountLines,
              "std::size_t count_lines(std::string_view text) { return detail::count_lines(text); }\n");
    edit_file(source / "src/count.cpp", "#include <algorithm>\n", "#include <algorithm>\n\n#include <count_lines.hpp>\n");
    create_file(source / "src/detail/count_lines.hpp",
                "#pragma once\n\n#include <cstddef>\n#include <string_view>\n\nnamespace textstats::detail {\n\n"
                "inline std::size_t count_lines(std::string_view text) {\n" + kLintyBody + "}\n\n}\n");
    append(source / "CMakeLists.txt",
           "target_include_directories(textstats SYSTEM PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/detail)\n");
  });
  // 8. Lint through files no diff shows as they are read (one layout: the
  //    same defence in both): NOLINT markers a configure writes from spelled-apart
  //    parts, markers read through an in-tree symbolic link, a configure
  //    preset the scorer does not use, and the linty fix in a branch only the
  //    build's compiler (GCC) takes, a clean one where clang-tidy looks.
  std::vector<std::string> generated_lint;
  if (!layout.one_file()) {
    generated_lint = {"lint-generated-nolint", "lint-symlink-alias", "preset", "lint-compiler-only",
                      "lint-header-unit", "lint-pasted-version", "lint-compiler-unparsed"};
    layout.candidate("lint-compiler-only", [&] {
      edit_file(source / "src/count.cpp", kCountLines,
                "#if defined(__GNUC__) && !defined(__clang__)\n" + kLintyFix + "#else\n" + kFixedCountLines +
                    "#endif\n");
    });
    // The GCC-only branch in a header, taken only in the one unit whose
    // macros CMake sets apart: GCC's view of it holds the standard library
    // as GCC expanded it, which clang does not parse.
    layout.candidate("lint-header-unit", [&] {
      append(source / "include/textstats/tokenize.hpp",
             "\nnamespace textstats::detail {\nstd::size_t count_lines(std::string_view text);\n}\n\n"
             "#if defined(TEXTSTATS_TOKENIZE_UNIT) && defined(__GNUC__) && !defined(__clang__)\n"
             "namespace textstats::detail {\n" + kLintyFix + "}\n#endif\n");
      edit_file(source / "src/count.cpp", kCountLines,
                "std::size_t count_lines(std::string_view text) { return detail::count_lines(text); }\n");
      append(source / "CMakeLists.txt",
             "set_source_files_properties(src/tokenize.cpp PROPERTIES COMPILE_DEFINITIONS TEXTSTATS_TOKENIZE_UNIT)\n");
    });
    // A GCC-only branch clang cannot parse (a builtin only GCC has): its
    // lines are not linted, so the lint is incomplete and the run not mergeable.
    layout.candidate("lint-compiler-unparsed", [&] {
      edit_file(source / "src/count.cpp", kCountLines,
                "#if defined(__GNUC__) && !defined(__clang__)\n"
                "std::size_t count_lines(std::string_view text) {\n"
                "  const std::size_t pure = __builtin_has_attribute(count_lines, pure) ? 1 : 0;\n" + kLintyBody +
                    "}\n#else\n" + kFixedCountLines + "#endif\n");
    });
    // No conditional: the body is chosen by pasting GCC's major version onto
    // a name; clang's __GNUC__ (4) picks the clean one.
    layout.candidate("lint-pasted-version", [&] {
      std::string linty;
      for (const auto line : hydra::util::split(kLintyBody, '\n'))
        if (!line.empty()) linty += " \\\n" + std::string(line);
      std::string versions;
      for (int major = 5; major <= 20; ++major)
        versions += "#define TEXTSTATS_BODY_" + std::to_string(major) + " TEXTSTATS_BODY_TUNED\n";
      edit_file(source / "src/count.cpp", kCountLines,
                "#define TEXTSTATS_CAT2(a, b) a##b\n#define TEXTSTATS_CAT(a, b) TEXTSTATS_CAT2(a, b)\n"
                "#define TEXTSTATS_BODY_TUNED" + linty + "\n" + versions +
                "#define TEXTSTATS_BODY_4 \\\n"
                "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n')); \\\n"
                "  return !text.empty() && text.back() != '\\n' ? newlines + 1 : newlines;\n"
                "std::size_t count_lines(std::string_view text) {\n  TEXTSTATS_CAT(TEXTSTATS_BODY_, __GNUC__)\n}\n");
    });
    layout.candidate("lint-generated-nolint", [&] {
      edit_file(source / "src/count.cpp", kCountLines, "");
      create_file(source / "src/count_lines.cpp.in",
                  "#include <textstats/textstats.hpp>\n\nnamespace textstats {\n\n// @TAG@BEGIN\n" + kLintyFix +
                      "// @TAG@END\n}\n");
      append(source / "CMakeLists.txt",
             "string(CONCAT TAG \"NO\" \"LINT\")\n"
             "configure_file(src/count_lines.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/count_lines.cpp @ONLY)\n"
             "target_sources(textstats PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/count_lines.cpp)\n");
    });
    layout.candidate("lint-symlink-alias", [&] {
      edit_file(source / "src/count.cpp", kCountLines,
                "std::size_t count_lines(std::string_view text) { return detail::count_lines(text); }\n");
      edit_file(source / "src/count.cpp", "#include <algorithm>\n", "#include <algorithm>\n\n#include \"count_alias.hpp\"\n");
      create_file(source / "include/textstats/count_lines.hpp",
                  "#pragma once\n\n#include <cstddef>\n#include <string_view>\n\nnamespace textstats::detail {\n\n"
                  "// NOLINTBEGIN\ninline std::size_t count_lines(std::string_view text) {\n" + kLintyBody +
                      "}\n// NOLINTEND\n\n}\n");
      fs::create_symlink("../include/textstats/count_lines.hpp", source / "src/count_alias.hpp");
    });
    layout.candidate("preset", [&] {
      edit_file(source / "src/count.cpp", kCountLines, kFixedCountLines);
      create_file(source / "CMakePresets.json",
                  "{\"version\": 3, \"configurePresets\": [{\"name\": \"default\", \"binaryDir\": \"build\", "
                  "\"cacheVariables\": {\"TEXTSTATS_FAST_COUNT\": \"ON\"}}]}\n");
    });
  }
  // 9. A configure that compiles the fix only where it runs as HydraScore's
  //    capture runs it (one layout: the same defence in both): keyed on the
  //    tree having no git directory (a user's clone has one), and on the
  //    sandbox's PID 1 and HOME, through a header the configure writes.
  std::vector<std::string> configure_keyed;
  if (!layout.one_file()) {
    configure_keyed = {"configure-git", "configure-sandbox", "configure-folder", "configure-readonly"};
    layout.candidate("configure-git", [&] {
      edit_file(source / "src/count.cpp", kCountLines,
                "#ifdef TEXTSTATS_PORTABLE_COUNT\n" + kFixedCountLines + "#else\n" + kCountLines + "#endif\n");
      append(source / "CMakeLists.txt",
             "# Exported sources count portably; checkouts keep the tuned counter.\n"
             "if(NOT IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/.git)\n"
             "  target_compile_definitions(textstats PRIVATE TEXTSTATS_PORTABLE_COUNT=1)\nendif()\n");
    });
    layout.candidate("configure-sandbox", [&] {
      edit_file(source / "src/count.cpp", kCountLines,
                "#if TEXTSTATS_LAST_LINE\n" + kFixedCountLines + "#else\n" + kCountLines + "#endif\n");
      edit_file(source / "src/count.cpp", "#include <algorithm>\n", "#include <algorithm>\n\n#include \"textstats_tuning.h\"\n");
      append(source / "CMakeLists.txt",
             "execute_process(COMMAND cat /proc/1/comm OUTPUT_VARIABLE textstats_init ERROR_QUIET)\n"
             "set(textstats_last_line 0)\n"
             "if(textstats_init MATCHES \"init\" AND \"$ENV{HOME}\" MATCHES \"hydra\")\n"
             "  set(textstats_last_line 1)\nendif()\n"
             "file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/tuning/textstats_tuning.h "
             "\"#define TEXTSTATS_LAST_LINE ${textstats_last_line}\\n\")\n"
             "target_include_directories(textstats PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/tuning)\n");
    });
    // Keyed on the folder the capture checks the tree out to (a user's clone
    // is named after the repository), and on the tree being read-only.
    layout.candidate("configure-folder", [&] {
      edit_file(source / "src/count.cpp", kCountLines,
                "#ifdef TEXTSTATS_STAGED_COUNT\n" + kFixedCountLines + "#else\n" + kCountLines + "#endif\n");
      append(source / "CMakeLists.txt",
             "get_filename_component(textstats_folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)\n"
             "if(textstats_folder STREQUAL \"source\")\n"
             "  target_compile_definitions(textstats PRIVATE TEXTSTATS_STAGED_COUNT)\nendif()\n");
    });
    layout.candidate("configure-readonly", [&] {
      edit_file(source / "src/count.cpp", kCountLines,
                "#ifdef TEXTSTATS_SEALED_COUNT\n" + kFixedCountLines + "#else\n" + kCountLines + "#endif\n");
      append(source / "CMakeLists.txt",
             "execute_process(COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_CURRENT_SOURCE_DIR}/.textstats-probe\n"
             "                RESULT_VARIABLE textstats_probe ERROR_QUIET)\n"
             "if(NOT textstats_probe EQUAL 0)\n"
             "  target_compile_definitions(textstats PRIVATE TEXTSTATS_SEALED_COUNT)\nendif()\n");
    });
  }
  layout.capture_candidates();

  // The same build-step attack without the sandbox (in one layout: it is the
  // same defence in both): the source tree is writable then, and what the
  // step wrote (and restored) is caught.
  if (!layout.one_file()) {
    const auto unsandboxed = run_long(capture_command(
        source, layout.out() / "unsandboxed",
        {"--ref", "cand/post-build-edit", "--baseline-run", (layout.out() / "baseline").string(), "--generator",
         "Ninja", "--no-sandbox", "--quiet"}));
    INFO(unsandboxed.output);
    REQUIRE(unsandboxed.exit_code == 0);
    const auto manifest = read_json(layout.out() / "unsandboxed/cand-post-build-edit/manifest.json");
    CHECK(manifest.at("problems").dump().find("tests/test_count.cpp: written") != std::string::npos);
  }

  const std::vector<std::string> names = {"fix", "no-op", "lint-honest", "force-include", "environment", "pass-regex",
                                          "post-build-edit", "where-am-i", "special-case", "lint-analyzer-macro",
                                          "lint-configured-file", "lint-unexported-objects", "lint-system-header"};
  std::vector<std::string> scored = names;
  scored.insert(scored.end(), generated_lint.begin(), generated_lint.end());
  scored.insert(scored.end(), configure_keyed.begin(), configure_keyed.end());
  const nlohmann::json contract = layout.score(scored);

  // The honest fix resolves the task, is mergeable and first.
  CHECK(contract.at("rankings")[0].at("agent") == "cand-fix");
  CHECK(mergeable(contract, "fix"));
  CHECK(entry(contract, "fix").at("resolution").at("resolved") == true);
  CHECK(entry(contract, "fix").at("resolution").at("acceptance_tests") ==
        nlohmann::json::array({"count.lines_without_trailing_newline", "count.private_lines"}));

  // The attacks work on their own terms (their own run passes the failing test) ...
  CHECK(own_run_passed(layout, "force-include", "count.lines_without_trailing_newline"));
  CHECK(own_run_passed(layout, "environment", "count.lines_without_trailing_newline"));
  CHECK(own_run_passed(layout, "where-am-i", "count.counts_where_it_runs"));
  // ... and gain nothing.
  for (const std::string attack : {"force-include", "environment", "pass-regex", "post-build-edit", "where-am-i",
                                   "special-case"})
    check_no_gain(contract, attack, "no-op");
  for (const std::string attack : {"lint-analyzer-macro", "lint-configured-file", "lint-unexported-objects",
                                   "lint-system-header"})
    check_no_gain(contract, attack, "lint-honest");

  // Each says why, naming both values.
  CHECK(tampered(contract, "force-include", "build_changed").find("\"-include\",\"<source>/src/line_counts.hpp\"") !=
        std::string::npos);
  const std::string environment = tampered(contract, "environment", "definition_changed");
  CHECK(environment.find("count.lines_without_trailing_newline: held-out run: ") != std::string::npos);
  CHECK(environment.find("ENVIRONMENT unset -> [\"TEXTSTATS_LAST_LINE=1\"]") != std::string::npos);
  const std::string pass_regex = tampered(contract, "pass-regex", "definition_changed");
  CHECK(pass_regex.find("count.private_lines: held-out run: ") != std::string::npos);
  CHECK(pass_regex.find("PASS_REGULAR_EXPRESSION unset -> [\".*\"]") != std::string::npos);
  const auto not_exercising = entry(contract, "where-am-i").at("anti_gaming").at("held_out").at("new_tests_not_exercising");
  CHECK(not_exercising.dump().find("count.counts_where_it_runs") != std::string::npos);
  // Unresolved: the private test still fails, or passes only as the candidate redefined or rebuilt it.
  for (const std::string name : {"special-case", "no-op", "pass-regex", "force-include"}) {
    CAPTURE(name);
    CHECK(entry(contract, name).at("resolution").at("resolved") == false);
    CHECK(entry(contract, name).at("resolution").at("still_failing").dump().find("count.private_lines") !=
          std::string::npos);
    const auto gates = failed_gates(entry(contract, name));
    CHECK(std::find(gates.begin(), gates.end(), "resolved") != gates.end());
  }
  for (const std::string name : {"lint-analyzer-macro", "lint-configured-file", "lint-unexported-objects",
                                 "lint-system-header"}) {
    CAPTURE(name);
    CHECK(entry(contract, name).at("lint").at("introduced").size() >= 2);
  }
  // The generated file's and the aliased header's markers do not hide
  // their findings; a preset the scorer never used is a protected edit.
  if (!layout.one_file()) {
    for (const std::string name : {"lint-generated-nolint", "lint-symlink-alias", "lint-compiler-only",
                                   "lint-header-unit", "lint-pasted-version"}) {
      CAPTURE(name);
      check_no_gain(contract, name, "lint-honest");
      CHECK(entry(contract, name).at("dimensions").at("lint").at("score").get<double>() <
            entry(contract, "fix").at("dimensions").at("lint").at("score").get<double>());
    }
    const auto manifest = read_json(layout.out() / "cand-lint-generated-nolint" / "manifest.json");
    CHECK(manifest.dump().find("\"generated_files_stripped\":[\"count_lines.cpp\"]") != std::string::npos);
    // The branch only GCC compiles is linted in GCC's view: kLintyFix's
    // findings, as lint-honest has them, on lines 8-17 of src/count.cpp (the
    // #if is line 7, where count_lines began); the #else branch is linted and
    // never built.
    const auto compiler_view = read_json(layout.out() / "cand-lint-compiler-only" / "manifest.json")
                                   .at("lint_view").at("compiler_view");
    INFO(compiler_view.dump());
    CHECK(compiler_view.at("compiled_not_linted") ==
          nlohmann::json::parse(R"([{"file": "src/count.cpp", "first": 8, "last": 17}])"));
    CHECK(compiler_view.at("linted_not_compiled").size() == 1);
    CHECK(compiler_view.at("findings").get<int>() >= 2);
    CHECK(entry(contract, "lint-compiler-only").at("lint").at("introduced").size() ==
          entry(contract, "lint-honest").at("lint").at("introduced").size());
    // The header's branch only tokenize.cpp's macros take under GCC, linted
    // in that unit's view with clang's own system headers (GCC's expansion
    // of the standard library is not parsed by clang): kLintyFix's findings;
    // the branch is lines 23-34 of tokenize.hpp (16 lines before, then "",
    // "namespace textstats::detail {", the declaration, "}", "", the #if on
    // 22; the namespace 23, kLintyFix 24-33 (its signature, 8 lines of body,
    // "}"), the namespace's "}" 34).
    const auto header_view = read_json(layout.out() / "cand-lint-header-unit" / "manifest.json");
    INFO(header_view.at("lint_view").at("compiler_view").dump());
    CHECK(header_view.at("lint_view").at("compiler_view").at("compiled_not_linted") ==
          nlohmann::json::parse(R"([{"file": "include/textstats/tokenize.hpp", "first": 23, "last": 34}])"));
    CHECK(header_view.at("lint_view").at("compiler_view").at("findings").get<int>() >= 2);
    CHECK(header_view.at("lint_view").at("compiler_view").at("problems").empty());
    CHECK_FALSE(header_view.contains("lint_incomplete"));
    // The body pasted from __GNUC__, no conditional: line 38 of count.cpp
    // (count_lines began on line 7: the two paste macros 7-8, the tuned body
    // 9-17, its versions 5-20 on 18-33, clang's body 34-36, the signature 37).
    const auto pasted_view = read_json(layout.out() / "cand-lint-pasted-version" / "manifest.json")
                                 .at("lint_view").at("compiler_view");
    INFO(pasted_view.dump());
    CHECK(pasted_view.at("expanded_differently") ==
          nlohmann::json::parse(R"([{"file": "src/count.cpp", "first": 38, "last": 38}])"));
    CHECK(pasted_view.at("compiled_not_linted").empty());
    CHECK(pasted_view.at("findings").get<int>() >= 2);
    for (const std::string name : {"lint-header-unit", "lint-pasted-version"}) {
      CAPTURE(name);
      CHECK(entry(contract, name).at("lint").at("introduced").size() >= 2);
    }
    const auto unparsed = read_json(layout.out() / "cand-lint-compiler-unparsed" / "manifest.json");
    INFO(unparsed.at("lint_view").at("compiler_view").dump());
    CHECK(unparsed.at("lint_incomplete").dump().find("clang-tidy could not parse the compiler's view of ") !=
          std::string::npos);
    CHECK_FALSE(mergeable(contract, "lint-compiler-unparsed"));
    CHECK(entry(contract, "lint-compiler-unparsed").at("gate_failures").dump().find(
              "its lines src/count.cpp:8-18 are not linted") != std::string::npos);
    // The honest fixes compile the same code in both views: nothing judged.
    for (const std::string name : {"cand-fix", "cand-lint-honest"}) {
      CAPTURE(name);
      const auto honest = read_json(layout.out() / name / "manifest.json").at("lint_view").at("compiler_view");
      CHECK(honest.at("expanded_differently").empty());
      CHECK(honest.at("findings") == 0);
    }
    CHECK_FALSE(mergeable(contract, "preset"));
    CHECK(entry(contract, "preset").at("anti_gaming").at("config_edits").dump().find("CMakePresets.json") !=
          std::string::npos);
    // The configure keyed on the capture passes its own run, and a plain
    // configure of the same tree (a clone's git directory, the user's HOME)
    // names what it builds otherwise.
    for (const std::string& name : configure_keyed) {
      CAPTURE(name);
      CHECK(own_run_passed(layout, name, "count.lines_without_trailing_newline"));
      check_no_gain(contract, name, "fix");
      CHECK_FALSE(mergeable(contract, name));
    }
    CHECK(entry(contract, "configure-git").at("gate_failures").dump().find(
              "src/count.cpp: TEXTSTATS_PORTABLE_COUNT=1 only in HydraScore's capture") != std::string::npos);
    CHECK(entry(contract, "configure-sandbox").at("gate_failures").dump().find(
              "tuning/textstats_tuning.h: generated with other content") != std::string::npos);
    CHECK(entry(contract, "configure-folder").at("gate_failures").dump().find(
              "src/count.cpp: TEXTSTATS_STAGED_COUNT only in HydraScore's capture") != std::string::npos);
    CHECK(entry(contract, "configure-readonly").at("gate_failures").dump().find(
              "src/count.cpp: TEXTSTATS_SEALED_COUNT only in HydraScore's capture") != std::string::npos);
    // The baseline's own configure is the same in both: nothing to excuse.
    const auto baseline = read_json(layout.out() / "baseline" / "manifest.json");
    CHECK(baseline.at("configure_differential").at("ran") == true);
    CHECK(baseline.at("configure_differential").at("differences").empty());
  }
  // Every report shows the resolution.
  const std::string markdown = read_file(layout.out().parent_path() / "score.md");
  const std::string html = read_file(layout.out().parent_path() / "score.html");
  for (const std::string& text : {markdown, html}) CHECK(text.find("Resolved") != std::string::npos);
  CHECK(markdown.find("UNRESOLVED: count.private\\_lines") != std::string::npos);
  CHECK(html.find("UNRESOLVED: count.private_lines") != std::string::npos);
}

/// The hydra_score target of the working-tree flow: `cmake --build` runs the
/// project's configure with the candidate's CMake files before the target
/// runs; a repointed HYDRA_SCORE_EXECUTABLE runs nothing, and a tree whose
/// CMake files changed is refused with the safe flow named.
void check_working_tree_flow(const Layout& layout) {
  const fs::path& source = layout.source();
  const fs::path build = layout.out().parent_path() / "user-build";
  const auto configure = [&] {
    return run({"cmake", "-S", source.string(), "-B", build.string(), "-G", "Ninja",
                "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=" + kModule.string(), "-DHYDRA_SCORE_EXECUTABLE=" + kTool.string(),
                "-DHYDRA_SCORE_OUTPUT_DIR=" + layout.out().string()});
  };
  const auto configured = configure();
  INFO(configured.output);
  REQUIRE(configured.exit_code == 0);

  // A CMake file changed: refused, naming the safe flow; opting in scores it.
  append(source / "CMakeLists.txt", "# A comment in the project's CMake code.\n");
  const auto refused = run({"cmake", "--build", build.string(), "--target", "hydra_score"});
  CHECK(refused.exit_code != 0);
  CHECK(refused.output.find("changes CMake files (CMakeLists.txt)") != std::string::npos);
  CHECK(refused.output.find("HYDRA_SCORE_CANDIDATES") != std::string::npos);

  // The change repoints the tool at a wrapper that would forge score.json.
  const fs::path forged = layout.out().parent_path() / "forged";
  create_file(source / "wrapper.sh", "#!/bin/sh\necho forged > '" + forged.string() + "'\nexit 0\n");
  fs::permissions(source / "wrapper.sh", fs::perms::owner_all, fs::perm_options::add);
  append(source / "CMakeLists.txt",
         "set(HYDRA_SCORE_EXECUTABLE ${CMAKE_CURRENT_SOURCE_DIR}/wrapper.sh CACHE FILEPATH \"\" FORCE)\n");
  const auto repointed = run({"cmake", "--build", build.string(), "--target", "hydra_score"},
                             {}, {{"HYDRA_SCORE_ALLOW_CMAKE_CHANGES", "1"}});
  CHECK(repointed.exit_code != 0);
  CHECK(repointed.output.find("HYDRA_SCORE_EXECUTABLE is") != std::string::npos);
  CHECK(repointed.output.find("wrapper.sh") != std::string::npos);
  CHECK_FALSE(fs::exists(forged));
  git(source, {"checkout", "--quiet", "--", "."});
  fs::remove(source / "wrapper.sh");
}

}  // namespace

TEST_CASE("attacks through the build system and lint's blind spots gain nothing, in a project whose one "
          "CMakeLists.txt defines the library and the tests",
          "[e2e][held-out][build-steering]") {
  hydra::util::TempDir temp("hydra-steering");
  Layout layout(temp.path() / "one-file", true);
  run_attacks(layout);
  check_working_tree_flow(layout);
}

TEST_CASE("attacks through the build system and lint's blind spots gain nothing, in a project whose tests "
          "are defined in tests/CMakeLists.txt",
          "[e2e][held-out][build-steering]") {
  hydra::util::TempDir temp("hydra-steering");
  Layout layout(temp.path() / "tests-folder", false);
  run_attacks(layout);
  check_working_tree_flow(layout);
}
