#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>

#include <hydra/error.hpp>
#include <hydra/parse/diff.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

using hydra::parse::DiffLines;
using hydra::parse::FileLines;
using hydra::parse::parse_diff_lines;

namespace {

/// The parser fixtures of tests/fixtures/parse/ (recorded by its record.sh).
std::string parse_fixture_path(const std::string& name) {
  return std::string(HYDRA_FIXTURES_DIR) + "/parse/" + name;
}

/// The anti-gaming fixtures of tests/fixtures/guard/ (recorded by its record.sh).
std::filesystem::path guard_fixture_path(const std::string& name) {
  return std::filesystem::path(HYDRA_FIXTURES_DIR) / "guard" / name;
}

const FileLines& file_named(const DiffLines& diff, const std::string& path) {
  for (const auto& file : diff.files)
    if (file.path == path) return file;
  FAIL("no file " << path << " in the diff");
  throw;  // unreachable
}

hydra::InputError error_of(const std::string& diff) {
  try {
    parse_diff_lines(diff, "change.diff");
  } catch (const hydra::InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

}  // namespace

TEST_CASE("parse_diff_lines keeps the text and numbers of changed lines", "[parse]") {
  SECTION("valid input") {
    for (const std::string name : {"git_diff.diff", "git_diff_binary.diff"}) {
      CAPTURE(name);
      const std::string path = parse_fixture_path(name);
      const std::string text = hydra::util::read_file(path);
      const DiffLines diff = parse_diff_lines(text, path);

      // The same files, paths and line counts as the summary (parse_unified_diff) reads.
      const auto summary = hydra::parse::parse_unified_diff(text, path);
      REQUIRE(diff.files.size() == summary.files.size());
      for (std::size_t i = 0; i < diff.files.size(); ++i) {
        CAPTURE(diff.files[i].path);
        CHECK(diff.files[i].path == summary.files[i].path);
        CHECK(diff.files[i].old_path == summary.files[i].old_path);
        CHECK(diff.files[i].added.size() == summary.files[i].added);
        CHECK(diff.files[i].removed.size() == summary.files[i].removed);
        CHECK(diff.files[i].created == summary.files[i].created);
        CHECK(diff.files[i].deleted == summary.files[i].deleted);
        CHECK(diff.files[i].binary == summary.files[i].binary);
      }

      // "@@ -1,7 +1,8 @@": old lines 2-4 and 7 removed, new lines 2-4, 7 and 8 added.
      const FileLines& reformatted = file_named(diff, "format_me.cpp");
      REQUIRE(reformatted.removed.size() == 4);
      CHECK(reformatted.removed[0].number == 2);
      CHECK(reformatted.removed[0].text == "    if (value < low) return low;");
      CHECK(reformatted.removed[3].number == 7);
      CHECK(reformatted.removed[3].text == "int twice(int value) { return value*2; }");
      REQUIRE(reformatted.added.size() == 5);
      CHECK(reformatted.added[0].number == 2);
      CHECK(reformatted.added[0].text == "  if (value < low) return low;");
      CHECK(reformatted.added[4].number == 8);
      CHECK(reformatted.added[4].text == "int thrice(int value) { return value * 3; }");

      // "@@ -9,7 +9,7 @@ ...": the 4th line of the hunk (line 12) changed.
      const FileLines& renamed = file_named(diff, "math_ops.cpp");
      CHECK(renamed.renamed);
      CHECK(renamed.old_path == "calculator.cpp");
      REQUIRE(renamed.added.size() == 1);
      CHECK(renamed.added[0].number == 12);
      CHECK(renamed.added[0].text == "  return a * b;  // product");

      // Hunk lines that look like file headers are lines.
      const FileLines& sql = file_named(diff, "schema.sql");
      REQUIRE(sql.removed.size() == 1);
      CHECK(sql.removed[0].text == "-- version 1");
      REQUIRE(sql.added.size() == 1);
      CHECK(sql.added[0].text == "++ version 2");

      const FileLines& deleted = file_named(diff, "obsolete.txt");
      CHECK(deleted.deleted);
      REQUIRE(deleted.removed.size() == 3);
      CHECK(deleted.removed[2].number == 3);
      CHECK(deleted.removed[2].text == "line three");

      CHECK(file_named(diff, "notes caf\xc3\xa9.txt").added.at(0).text == "second line");
      CHECK(file_named(diff, "logo.png").added.empty());
    }
    CHECK(parse_diff_lines("", "empty.diff").files.empty());
    CHECK(parse_diff_lines("\r\n", "empty.diff").files.empty());
  }
  SECTION("bad input") {
    const auto prose = error_of("This is not a diff.\n");
    CHECK(prose.file() == "change.diff");
    CHECK(prose.line() == 1);
    CHECK_THAT(prose.message(), Catch::Contains("not a unified diff"));

    // The recorded diff cut inside format_me.cpp's hunk.
    const std::string diff = hydra::util::read_file(parse_fixture_path("git_diff.diff"));
    const auto truncated = error_of(diff.substr(0, diff.find("+  return value;")));
    CHECK_THAT(truncated.message(), Catch::Contains("ends inside a hunk"));

    const auto hunk_first = error_of("@@ -1 +1 @@\n-a\n+b\n");
    CHECK(hunk_first.line() == 1);
    CHECK_THAT(hunk_first.message(), Catch::Contains("a hunk before any file header"));
  }
}

TEST_CASE("DiffLinesReader reads a diff fed line by line", "[parse]") {
  const auto path = guard_fixture_path("suppress-lint.diff");
  const std::string text = hydra::util::read_file(path);
  hydra::parse::DiffLinesReader reader(path.string());
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    reader.read_line(std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  const DiffLines streamed = reader.finish();
  const DiffLines whole = parse_diff_lines(text, path.string());
  REQUIRE(streamed.files.size() == whole.files.size());
  REQUIRE(streamed.files.size() == 3);  // CMakeLists.txt, src/count.cpp, src/frequency.cpp
  for (std::size_t i = 0; i < whole.files.size(); ++i) {
    CHECK(streamed.files[i].path == whole.files[i].path);
    REQUIRE(streamed.files[i].added.size() == whole.files[i].added.size());
    for (std::size_t j = 0; j < whole.files[i].added.size(); ++j) {
      CHECK(streamed.files[i].added[j].number == whole.files[i].added[j].number);
      CHECK(streamed.files[i].added[j].text == whole.files[i].added[j].text);
    }
  }
}

TEST_CASE("parse_diff_lines numbers the hunks of each file from 0", "[parse]") {
  const auto path = guard_fixture_path("suppress-lint.diff");
  const DiffLines diff = parse_diff_lines(hydra::util::read_file(path), path.string());
  for (const FileLines& file : diff.files) {
    CAPTURE(file.path);
    if (!file.added.empty()) CHECK(file.added.front().hunk == 0);
  }
  // "@@ -3,6 +3,10 @@": new lines 6-9; "@@ -16,6 +20,7 @@": new line 23
  // (after 3 context lines 20-22); "@@ -32,5 +37,6 @@": new line 40 (37-39).
  const FileLines& frequency = file_named(diff, "src/frequency.cpp");
  REQUIRE(frequency.added.size() == 6);
  CHECK(frequency.added[3].number == 9);
  CHECK(frequency.added[3].hunk == 0);
  CHECK(frequency.added[4].number == 23);
  CHECK(frequency.added[4].hunk == 1);
  CHECK(frequency.added[5].number == 40);
  CHECK(frequency.added[5].hunk == 2);
}

TEST_CASE("strip_whitespace removes every blank character", "[parse]") {
  CHECK(hydra::parse::strip_whitespace("  CHECK_EQ(a, 1U);\r") == "CHECK_EQ(a,1U);");
  CHECK(hydra::parse::strip_whitespace("\t \v\f") == "");
}

TEST_CASE("parse_diff_lines rejects hostile headers as input errors", "[parse][hostile]") {
  // "diff --git a b" (14 bytes) once threw std::out_of_range from substr.
  for (const std::string diff : {"diff --git a b", "diff --git a", "diff --git "}) {
    CAPTURE(diff);
    const auto error = error_of(diff);
    CHECK(error.line() == 1);
  }
  // Hunk numbers past 2^53 would overflow the line arithmetic.
  const auto huge = error_of(
      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,99999999999999999999 +1 @@\n-x\n+y\n");
  CHECK(huge.line() == 4);
  CHECK_THAT(huge.message(), Catch::Contains("2^53"));
}

TEST_CASE("parse_diff_lines replaces invalid UTF-8 in paths and lines and counts it", "[parse][hostile]") {
  const DiffLines diff = parse_diff_lines(
      "diff --git a/f\xFF b/f\xFF\n--- a/f\xFF\n+++ b/f\xFF\n@@ -1 +1 @@\n-old \xC3\n+new \xE2\x82\xAC\n",
      "change.diff");
  REQUIRE(diff.files.size() == 1);
  CHECK(diff.files[0].path == "f\xEF\xBF\xBD");
  CHECK(diff.files[0].old_path == "f\xEF\xBF\xBD");
  CHECK(diff.files[0].removed.at(0).text == "old \xEF\xBF\xBD");
  CHECK(diff.files[0].added.at(0).text == "new \xE2\x82\xAC");  // valid: kept
  CHECK(diff.invalid_utf8_replaced == 3);  // path, old path, removed line
}
