#include <catch2/catch.hpp>

#include <string>

#include <hydra/error.hpp>
#include <hydra/parse/diff.hpp>

#include "parse/parse_fixtures.hpp"

using hydra::model::DiffFile;
using hydra::model::DiffSummary;
using hydra::parse::parse_unified_diff;
using hydra::test::parse_fixture;
using hydra::test::read_parse_fixture;

namespace {

const DiffFile& file_named(const DiffSummary& summary, const std::string& path) {
  for (const auto& file : summary.files)
    if (file.path == path) return file;
  FAIL("no file " << path << " in the diff");
  throw;  // unreachable
}

hydra::InputError error_of(const std::string& diff) {
  try {
    parse_unified_diff(diff, "change.diff");
  } catch (const hydra::InputError& error) {
    return error;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

/// The recorded change (record.sh): both git_diff.diff and, with --binary,
/// git_diff_binary.diff describe it.
void check_recorded_change(const DiffSummary& summary) {
  REQUIRE(summary.files.size() == 9);
  CHECK(summary.files[0].path == "added_later.txt");  // in the order git prints them
  CHECK(summary.files[8].path == "staged_new.txt");

  const auto& intent_to_add = file_named(summary, "added_later.txt");  // git add -N
  CHECK(intent_to_add.created);
  CHECK(intent_to_add.added == 2);
  CHECK(intent_to_add.removed == 0);

  // 3 re-indented lines and "value*2" -> "value * 2" are whitespace-only;
  // "thrice" is new: 5 added, 4 removed, 4 + 4 whitespace-only.
  const auto& reformatted = file_named(summary, "format_me.cpp");
  CHECK(reformatted.added == 5);
  CHECK(reformatted.removed == 4);
  CHECK(reformatted.whitespace_only_added == 4);
  CHECK(reformatted.whitespace_only_removed == 4);
  CHECK_FALSE(reformatted.created);

  const auto& logo = file_named(summary, "logo.png");
  CHECK(logo.binary);
  CHECK(logo.added == 0);
  CHECK(logo.removed == 0);

  const auto& renamed = file_named(summary, "math_ops.cpp");
  CHECK(renamed.renamed);
  CHECK(renamed.old_path == "calculator.cpp");
  CHECK(renamed.added == 1);
  CHECK(renamed.removed == 1);
  CHECK(renamed.whitespace_only_added == 0);  // a comment was added: not whitespace

  // Quoted by git as "a/notes caf\303\251.txt".
  const auto& quoted = file_named(summary, "notes caf\xc3\xa9.txt");
  CHECK(quoted.added == 1);
  CHECK(quoted.old_path == quoted.path);

  const auto& deleted = file_named(summary, "obsolete.txt");
  CHECK(deleted.deleted);
  CHECK(deleted.removed == 3);

  const auto& mode_change = file_named(summary, "run.sh");
  CHECK(mode_change.added + mode_change.removed == 0);
  CHECK_FALSE(mode_change.binary);

  // "--- version 1" and "+++ version 2" are hunk lines, not file headers.
  const auto& sql = file_named(summary, "schema.sql");
  CHECK(sql.added == 1);
  CHECK(sql.removed == 1);

  CHECK(file_named(summary, "staged_new.txt").created);

  // added: 2 + 5 + 0 + 1 + 1 + 0 + 0 + 1 + 1 = 11; removed: 0 + 4 + 0 + 1 + 0 + 3 + 0 + 1 + 0 = 9.
  CHECK(summary.lines_added() == 11);
  CHECK(summary.lines_removed() == 9);
  CHECK(summary.churn() == 20);  // 11 + 9
  CHECK(summary.whitespace_only_churn() == 8);  // 4 + 4 in format_me.cpp
  CHECK(summary.files_touched() == 9);
  CHECK(summary.files_created() == 2);  // added_later.txt, staged_new.txt
}

}  // namespace

TEST_CASE("parse_unified_diff reads git diff output", "[parse]") {
  SECTION("valid input") {
    {
      INFO("git diff -M");
      check_recorded_change(hydra::parse::parse_unified_diff_file(parse_fixture("git_diff.diff")));
    }
    {
      INFO("git diff -M --binary");
      check_recorded_change(hydra::parse::parse_unified_diff_file(parse_fixture("git_diff_binary.diff")));
    }
    CHECK(parse_unified_diff("", "empty.diff").files.empty());
    CHECK(parse_unified_diff("\n", "empty.diff").files.empty());
  }
  SECTION("bad input") {
    const auto prose = error_of("This is not a diff.\n");
    CHECK(prose.file() == "change.diff");
    CHECK(prose.line() == 1);
    CHECK_THAT(prose.message(), Catch::Contains("not a unified diff"));

    // The recorded diff cut inside format_me.cpp's hunk.
    const std::string diff = read_parse_fixture("git_diff.diff");
    const std::string truncated = diff.substr(0, diff.find("+  return value;"));
    CHECK_THAT(error_of(truncated).message(), Catch::Contains("ends inside a hunk"));

    // A hunk header promising fewer lines than follow.
    const auto overlong = error_of(
        "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n+extra\n");
    CHECK(overlong.line() == 7);

    CHECK(error_of("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @\n").line() == 4);
    CHECK_THAT(error_of("diff --cc x\n").message(), Catch::Contains("combined"));
  }
}

TEST_CASE("parse_unified_diff matches whitespace-only lines as a multiset per hunk", "[parse]") {
  // Two removed "x=1;" and one added "x = 1;": one pair matches; the blank
  // line's change of indentation matches too; "y" has no partner.
  const auto summary = parse_unified_diff(
      "diff --git a/f b/f\n"
      "--- a/f\n"
      "+++ b/f\n"
      "@@ -1,4 +1,4 @@\n"
      "-x=1;\n"
      "-x=1;\n"
      "-  \n"
      "+x = 1;\n"
      "+\t\n"
      " tail\n"
      "+y\n"
      "\\ No newline at end of file\n"
      "@@ -10,1 +10,1 @@\n"
      "-z=2;\n"
      "+x=1;\n",
      "change.diff");
  REQUIRE(summary.files.size() == 1);
  const auto& file = summary.files[0];
  CHECK(file.added == 4);    // x = 1;, blank, y, x=1;
  CHECK(file.removed == 4);  // x=1;, x=1;, blank, z=2;
  // Hunk 1: "x=1;" (1 of 2) and the blank line pair up = 2; hunk 2: "x=1;"
  // was removed in another hunk, so it does not count.
  CHECK(file.whitespace_only_added == 2);
  CHECK(file.whitespace_only_removed == 2);
}

TEST_CASE("parse_unified_diff reads plain diff -u output", "[parse]") {
  const auto summary = parse_unified_diff(
      "--- old/a.txt\t2024-01-01 00:00:00.000000000 +0000\n"
      "+++ new/a.txt\t2024-01-02 00:00:00.000000000 +0000\n"
      "@@ -1 +1,2 @@\n"
      " same\n"
      "+more\n",
      "plain.diff");
  REQUIRE(summary.files.size() == 1);
  CHECK(summary.files[0].path == "new/a.txt");
  CHECK(summary.files[0].added == 1);
}
