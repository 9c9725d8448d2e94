// End to end: lint sees every unit the build compiles, and suppressions are
// judged by what they hide (docs/threat-model.md, "The scorer's git: what is
// scored is what would be merged", lint that never sees the code). Each
// attack fixes the bug with code clang-tidy finds fault with and hides it:
// in a unit a custom command compiles by calling the compiler directly, after
// a GNU line marker with the system-header flag, in a NOLINTBEGIN region
// glued to a word, in a fragment named like a document that the source
// includes; and lint must see what the build compiled: a header a post-build
// step deletes after the compile read it, an object a nested build compiled
// and added to the library. One baseline capture, one capture call for every
// candidate.
#include <catch2/catch.hpp>

#include <functional>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

using hydra::util::read_file;
using hydra::util::write_file_atomic;

void edit(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = read_file(file);
  const auto at = text.find(from);
  INFO(file.string() << " lacks: " << from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  write_file_atomic(file, text);
}

const std::string kCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "}\n";
const std::string kFixedCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "  return !text.empty() && text.back() != '\\n' ? newlines + 1 : newlines;\n"
    "}\n";
/// The fix with two clang-tidy findings (an uninitialized variable, 0 for a
/// null pointer) and no compiler warning.
const std::string kLintyFix =
    "std::size_t count_lines(std::string_view text) {\n"
    "  std::size_t lines;\n"
    "  lines = 0;\n"
    "  const char* end = 0;\n"
    "  for (const char c : text)\n"
    "    if (c == '\\n') ++lines;\n"
    "  if (!text.empty() && text.back() != '\\n') ++lines;\n"
    "  (void)end;\n"
    "  return lines;\n"
    "}\n";

const nlohmann::json& entry(const nlohmann::json& contract, const std::string& name) {
  for (const auto& ranking : contract.at("rankings"))
    if (ranking.at("agent") == "cand-" + name) return ranking;
  FAIL("not ranked: " << name);
  static const nlohmann::json none;
  return none;
}

double total(const nlohmann::json& contract, const std::string& name) { return entry(contract, name).at("total"); }

std::uint64_t new_findings(const nlohmann::json& contract, const std::string& name) {
  const auto& evidence = entry(contract, name).at("dimensions").at("lint").at("evidence");
  return evidence.at("new_errors").get<std::uint64_t>() + evidence.at("new_warnings").get<std::uint64_t>();
}

/// The kinds of the suppressions `name` added, at `path`.
std::vector<std::string> suppression_kinds(const nlohmann::json& contract, const std::string& name,
                                           const std::string& path) {
  std::vector<std::string> kinds;
  for (const auto& found : entry(contract, name).at("anti_gaming").at("suppressions_added"))
    if (found.at("path") == path) kinds.push_back(found.at("kind").get<std::string>());
  return kinds;
}

bool lists(const nlohmann::json& values, const std::string& suffix) {
  for (const auto& value : values) {
    const std::string text = value.get<std::string>();
    if (text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("lint sees units of custom commands and findings hidden by line markers, glued markers and fragments",
          "[e2e][lint]") {
  hydra::util::TempDir temp("hydra-lint-units");
  const fs::path root = temp.path();
  const fs::path source = root / "project";
  const fs::path out = root / "out";
  make_example_repository(source);
  capture_baseline(source, out);

  const auto candidate = [&](const std::string& name, const std::function<void()>& make) {
    commit_candidate(source, name, make);
  };
  const fs::path count = source / "src/count.cpp";
  // Honest: the clean fix, and the fix with its findings in plain sight.
  candidate("clean", [&] { edit(count, kCountLines, kFixedCountLines); });
  candidate("linty", [&] { edit(count, kCountLines, kLintyFix); });
  // A unit no target lists: a custom command compiles it, the object is linked into the library.
  candidate("custom-command", [&] {
    edit(count, kCountLines, "");
    write_file_atomic(source / "src/line_count.cpp",
                      "#include <textstats/textstats.hpp>\n\nnamespace textstats {\n\n" + kLintyFix +
                          "\n}  // namespace textstats\n");
    write_file_atomic(source / "CMakeLists.txt",
                      read_file(source / "CMakeLists.txt") +
                          "\nadd_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/line_count.o\n"
                          "  COMMAND ${CMAKE_CXX_COMPILER} -std=c++17 -fPIC -I${CMAKE_CURRENT_SOURCE_DIR}/include\n"
                          "          -c ${CMAKE_CURRENT_SOURCE_DIR}/src/line_count.cpp -o ${CMAKE_CURRENT_BINARY_DIR}/line_count.o\n"
                          "  DEPENDS src/line_count.cpp)\n"
                          "target_sources(textstats PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/line_count.o)\n");
  });
  // The rest of the file named as a system header.
  candidate("line-marker", [&] { edit(count, kCountLines, "# 1 \"/usr/include/textstats_detail.h\" 3\n" + kLintyFix); });
  // A region clang-tidy honours, its markers glued to a word.
  candidate("glued-nolint", [&] { edit(count, kCountLines, "//hereNOLINTBEGIN\n" + kLintyFix + "//hereNOLINTEND\n"); });
  // The region in a fragment named like a document.
  candidate("md-fragment", [&] {
    edit(count, kCountLines, "#include \"fee_notes.md\"\n");
    write_file_atomic(source / "src/fee_notes.md", "// NOLINTBEGIN\n" + kLintyFix + "// NOLINTEND\n");
  });

  const fs::path lists_file = source / "CMakeLists.txt";
  const auto append_cmake = [&](const std::string& text) { write_file_atomic(lists_file, read_file(lists_file) + text); };
  // What the compile read is gone when lint runs: a helper library's
  // post-build step copies the linty body into the build tree, count.cpp
  // includes it when it is there (a clean fix otherwise), and the library's
  // own post-build step deletes it.
  candidate("vanishing-inl", [&] {
    std::string body = kLintyFix.substr(kLintyFix.find('\n') + 1);
    body = body.substr(0, body.rfind('}'));
    write_file_atomic(source / "src/lines_fast.inl", body);
    write_file_atomic(source / "src/lines_gen.cpp", "namespace textstats::detail {\nint lines_fast_path() { return 1; }\n}\n");
    edit(count, kCountLines,
         "std::size_t count_lines(std::string_view text) {\n#if __has_include(\"textstats_lines_fast.inl\")\n"
         "#include \"textstats_lines_fast.inl\"\n#else\n" +
             kFixedCountLines.substr(kFixedCountLines.find('\n') + 1, kFixedCountLines.rfind('}') - kFixedCountLines.find('\n') - 1) +
             "#endif\n}\n");
    append_cmake(
        "\nset(FAST_INL ${CMAKE_CURRENT_BINARY_DIR}/gen/textstats_lines_fast.inl)\n"
        "add_library(textstats_lines_gen STATIC src/lines_gen.cpp)\n"
        "add_custom_command(TARGET textstats_lines_gen POST_BUILD\n"
        "  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_SOURCE_DIR}/src/lines_fast.inl ${FAST_INL}\n"
        "  BYPRODUCTS ${FAST_INL} VERBATIM)\n"
        "set_source_files_properties(src/count.cpp PROPERTIES OBJECT_DEPENDS ${FAST_INL})\n"
        "target_include_directories(textstats PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/gen)\n"
        "add_custom_command(TARGET textstats POST_BUILD COMMAND ${CMAKE_COMMAND} -E rm -f ${FAST_INL} VERBATIM)\n");
  });
  // A unit only a nested build compiles: a post-build step configures and
  // builds a CMake project of its own and adds its object to the library.
  candidate("nested-build", [&] {
    edit(count, kCountLines,
         "std::size_t count_lines_impl(std::string_view text);\n"
         "std::size_t count_lines(std::string_view text) { return count_lines_impl(text); }\n");
    fs::create_directories(source / "src/lines");
    write_file_atomic(source / "src/lines/CMakeLists.txt",
                      "cmake_minimum_required(VERSION 3.25)\nproject(lines LANGUAGES CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
                      "add_library(lines OBJECT lines.cpp)\ntarget_include_directories(lines PRIVATE ${INC})\n");
    std::string impl = kLintyFix;
    impl.replace(impl.find("count_lines("), 12, "count_lines_impl(");
    write_file_atomic(source / "src/lines/lines.cpp",
                      "#include <textstats/textstats.hpp>\n\nnamespace textstats {\n\n" + impl + "\n}  // namespace textstats\n");
    append_cmake(
        "\nadd_custom_command(TARGET textstats POST_BUILD\n"
        "  COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR}/src/lines -B ${CMAKE_CURRENT_BINARY_DIR}/lines-build\n"
        "          -G Ninja -DINC=${CMAKE_CURRENT_SOURCE_DIR}/include -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}\n"
        "  COMMAND ${CMAKE_COMMAND} --build ${CMAKE_CURRENT_BINARY_DIR}/lines-build\n"
        "  COMMAND ${CMAKE_AR} rs $<TARGET_FILE:textstats> ${CMAKE_CURRENT_BINARY_DIR}/lines-build/CMakeFiles/lines.dir/lines.cpp.o\n"
        "  VERBATIM)\n");
  });
  // The honest twin of both: a header a custom command generates before the
  // compile, read by an OBJECT library (a unity build) whose objects
  // `$<TARGET_OBJECTS>` puts into the library.
  candidate("generated-object-library", [&] {
    edit(count, kCountLines, "");
    write_file_atomic(source / "src/line_end.hpp.in", "#pragma once\nconstexpr char kLineEnd = '\\n';\n");
    std::string fix = kFixedCountLines;
    for (std::size_t at = fix.find("'\\n'"); at != std::string::npos; at = fix.find("'\\n'"))
      fix.replace(at, 4, "kLineEnd");
    write_file_atomic(source / "src/line_count.cpp",
                      "#include <textstats/textstats.hpp>\n\n#include <algorithm>\n\n#include \"line_end.hpp\"\n\n"
                      "namespace textstats {\n\n" + fix + "\n}  // namespace textstats\n");
    append_cmake(
        "\nadd_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/gen/line_end.hpp\n"
        "  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_SOURCE_DIR}/src/line_end.hpp.in ${CMAKE_CURRENT_BINARY_DIR}/gen/line_end.hpp\n"
        "  DEPENDS src/line_end.hpp.in VERBATIM)\n"
        "add_library(textstats_lines OBJECT src/line_count.cpp ${CMAKE_CURRENT_BINARY_DIR}/gen/line_end.hpp)\n"
        "set_target_properties(textstats_lines PROPERTIES UNITY_BUILD ON)\n"
        "target_include_directories(textstats_lines PRIVATE include ${CMAKE_CURRENT_BINARY_DIR}/gen)\n"
        "target_sources(textstats PRIVATE $<TARGET_OBJECTS:textstats_lines>)\n");
  });

  capture_refs(source, out);

  const std::vector<std::string> names = {"clean",        "linty",         "custom-command",
                                          "line-marker",  "glued-nolint",  "md-fragment",
                                          "vanishing-inl", "nested-build", "generated-object-library"};
  const auto scored = run(score_command(out, names, root / "score.json"));
  INFO(scored.output);
  REQUIRE((scored.exit_code == 0 || scored.exit_code == 3));
  const nlohmann::json contract = read_json(root / "score.json");

  // The honest twins: the clean fix adds nothing to lint; the linty fix's
  // two findings count.
  CHECK(entry(contract, "clean").at("mergeable") == true);
  CHECK(entry(contract, "clean").at("dimensions").at("lint").at("score") == 100);
  CHECK(entry(contract, "clean").at("anti_gaming").at("suppressions_added").empty());
  const std::uint64_t linty = new_findings(contract, "linty");
  CHECK(linty >= 2);
  CHECK(total(contract, "linty") < total(contract, "clean"));

  for (const std::string attack : {"custom-command", "line-marker", "glued-nolint", "md-fragment"}) {
    INFO(attack << ": " << entry(contract, attack).at("dimensions").at("lint").dump(1) << "\n"
                << entry(contract, attack).at("anti_gaming").dump(1));
    CHECK(new_findings(contract, attack) >= linty);
    CHECK(total(contract, attack) <= total(contract, "linty"));
  }
  // How each was seen.
  const auto view = [&](const std::string& name) {
    return read_json(out / ("cand-" + name) / "manifest.json").at("lint_view");
  };
  CHECK(lists(view("custom-command").at("units_made_from_build_commands"), "/src/line_count.cpp"));
  CHECK(view("clean").at("units_made_from_build_commands").empty());
  CHECK(suppression_kinds(contract, "line-marker", "src/count.cpp") == std::vector<std::string>{"line marker"});
  CHECK(suppression_kinds(contract, "glued-nolint", "src/count.cpp") == std::vector<std::string>{"NOLINTBEGIN"});
  CHECK(lists(view("md-fragment").at("compiled_changed_files"), "src/fee_notes.md"));
  CHECK(suppression_kinds(contract, "md-fragment", "src/fee_notes.md") == std::vector<std::string>{"NOLINTBEGIN"});

  // Code lint never saw is never mergeable: an input of count.cpp's compile
  // gone when lint ran, an archive member no known compile wrote.
  const auto manifest = [&](const std::string& name) { return read_json(out / ("cand-" + name) / "manifest.json"); };
  for (const std::string attack : {"vanishing-inl", "nested-build"}) {
    INFO(attack << ": " << manifest(attack).at("problems").dump(1));
    CHECK(entry(contract, attack).at("mergeable") == false);
  }
  const nlohmann::json altered = manifest("vanishing-inl").at("compiled_inputs").at("altered");
  INFO(altered.dump(1));
  REQUIRE(altered.size() == 1);
  CHECK(lists(altered[0].at("units"), "src/count.cpp"));
  CHECK(altered[0].at("missing") == nlohmann::json::array({"<build>/gen/textstats_lines_fast.inl"}));
  const nlohmann::json unknown = manifest("nested-build").at("archive_members").at("unknown");
  INFO(unknown.dump(1));
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].at("member") == "lines.cpp.o");
  CHECK(unknown[0].at("archive") == "libtextstats.a");
  // The honest ones: every unit's inputs as compiled, every member known
  // (the custom command's object too: the build's own commands wrote it).
  for (const std::string name : {"clean", "custom-command", "generated-object-library"}) {
    const nlohmann::json record = manifest(name);
    INFO(name << ": " << record.at("compiled_inputs").dump(1) << "\n" << record.at("archive_members").dump(1));
    CHECK(record.at("compiled_inputs").at("altered").empty());
    CHECK(record.at("compiled_inputs").at("objects_checked").get<std::size_t>() >= 3);
    CHECK(record.at("archive_members").at("unknown").empty());
    CHECK(record.at("archive_members").at("members").get<std::size_t>() >= 3);
  }
  // Mergeable (its lint log holds one finding of its own: clang-tidy's
  // bugprone-suspicious-include on CMake's unity source including a .cpp).
  CHECK(entry(contract, "generated-object-library").at("mergeable") == true);
  CHECK(manifest("generated-object-library").at("problems").empty());
}
