// End to end: what is scored is what would be merged (docs/threat-model.md,
// "The scorer's git"). The scorer's git reads nothing the candidate's
// repository supplies (attributes, filters, hooks, a repository planted
// where the capture puts its held-out worktree), and a baseline test that
// does not build against the change fails rather than keep the baseline's
// result, and a test file that builds the code otherwise than the held-out
// run does is caught. Each attack is a branch of example-project; all are captured in one
// `capture --ref` call against one baseline and scored once.
#include <catch2/catch.hpp>

#include <functional>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

using hydra::util::read_file;
using hydra::util::write_file_atomic;

const std::string kCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "}\n";
const std::string kFixedCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "  return !text.empty() && text.back() != '\\n' ? newlines + 1 : newlines;\n"
    "}\n";
/// The fix written so that clang-tidy finds fault with it; `suffix` ends each line.
std::string linty_fix(const std::string& suffix) {
  return "std::size_t count_lines(std::string_view text) {\n"
         "  int lines;" + suffix + "\n"
         "  const int length = text.size();" + suffix + "\n"
         "  lines = 0;\n"
         "  for (int index = 0; index < length; index++) {" + suffix + "\n"
         "    if (text[index] == '\\n') lines++;" + suffix + "\n"
         "  }\n"
         "  if (length > 0 && text[length - 1] != '\\n') lines++;" + suffix + "\n"
         "  return lines;" + suffix + "\n"
         "}\n";
}
/// The failing baseline test's assertions, changed to agree with the bug.
const std::string kBugAssertions = "  CHECK_EQ(textstats::count_lines(\"one\\ntwo\"), 2U);\n"
                                   "  CHECK_EQ(textstats::count(\"first line\\nsecond line\").lines, 2U);\n";
const std::string kAgreeingAssertions = "  CHECK_EQ(textstats::count_lines(\"one\\ntwo\"), 1U);\n"
                                        "  CHECK_EQ(textstats::count(\"first line\\nsecond line\").lines, 1U);\n";

class Project {
 public:
  explicit Project(const fs::path& root) : root_(root), source_(root / "project"), out_(root / "out") {
    make_example_repository(source_);
  }
  const fs::path& root() const { return root_; }
  const fs::path& source() const { return source_; }
  const fs::path& out() const { return out_; }

  void capture_baseline() const { e2e::capture_baseline(source_, out_); }

  void candidate(const std::string& name, const std::function<void()>& make) const {
    commit_candidate(source_, name, make);
  }

  void capture_candidates() const { capture_refs(source_, out_); }

  nlohmann::json score(const std::vector<std::string>& names) const {
    const auto scored =
        run(score_command(out_, names, root_ / "score.json", {"--markdown", (root_ / "score.md").string()}));
    INFO(scored.output);
    REQUIRE((scored.exit_code == 0 || scored.exit_code == 3));
    return read_json(root_ / "score.json");
  }

 private:
  fs::path root_, source_, out_;
};

const nlohmann::json& entry(const nlohmann::json& contract, const std::string& name) {
  for (const auto& ranking : contract.at("rankings"))
    if (ranking.at("agent") == "cand-" + name) return ranking;
  FAIL("not ranked: " << name);
  static const nlohmann::json none;
  return none;
}

double total(const nlohmann::json& contract, const std::string& name) { return entry(contract, name).at("total"); }
bool mergeable(const nlohmann::json& contract, const std::string& name) { return entry(contract, name).at("mergeable"); }

/// Whether the held-out run judged `test` of `name` failing where its own run passed it.
bool held_out_failed(const nlohmann::json& contract, const std::string& name, const std::string& test) {
  for (const auto& judged : entry(contract, name).at("anti_gaming").at("held_out").at("judged_by_held_out"))
    if (judged.at("test") == test && judged.at("held_out") == "failed") return true;
  return false;
}

}  // namespace

TEST_CASE("the scorer's git is blind to the candidate's repository, and an API change hides no regression",
          "[e2e][held-out][scorer-git]") {
  hydra::util::TempDir temp("hydra-scorer-git");
  Project project(temp.path());
  const fs::path& source = project.source();
  project.capture_baseline();

  // The baseline's failing test, changed to agree with the bug: what every
  // attack below puts in place of the baseline's copy in the held-out tree.
  const fs::path agreeing = temp.path() / "agreeing_test_count.cpp";
  {
    std::string text = read_file(source / "tests/test_count.cpp");
    text.replace(text.find(kBugAssertions), kBugAssertions.size(), kAgreeingAssertions);
    write_file_atomic(agreeing, text);
  }
  // A candidate that does not fix the bug: a comment in the code, and its
  // own copy of the failing test agreeing with the bug (code and tests
  // touched: a held-out run judges the baseline's test).
  const auto no_fix = [&](const std::string& word) {
    edit_file(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// " + word + "\n");
    edit_file(source / "tests/test_count.cpp", kBugAssertions, kAgreeingAssertions);
  };

  project.candidate("fix", [&] {
    edit_file(source / "src/count.cpp", kCountLines, kFixedCountLines);
    edit_file(source / "tests/test_count.cpp", "  CHECK_EQ(textstats::count_lines(\"one\\ntwo\\n\"), 2U);\n",
         "  CHECK_EQ(textstats::count_lines(\"one\\ntwo\\n\"), 2U);\n  CHECK_EQ(textstats::count_lines(\"one\\n\"), 1U);\n");
  });
  project.candidate("lint-honest", [&] { edit_file(source / "src/count.cpp", kCountLines, linty_fix("")); });

  // 1. The clone's own settings: a post-checkout hook and a smudge filter
  //    (its config and info/attributes, no file of the tree) that put the
  //    agreeing test into the held-out worktree when the capture checks it out.
  project.candidate("settings", [&] { no_fix("Counts text."); });
  // 2. A committed .gitattributes marks the sources binary to the diff: the
  //    NOLINTs it adds are never seen, and what they hide is never scored.
  project.candidate("attributes", [&] {
    create_file(source / ".gitattributes", "*.cpp -diff\n*.hpp -diff\n");
    edit_file(source / "src/count.cpp", kCountLines, linty_fix("  // NOLINT"));
  });
  // 3. A test program (sandboxed, its build tree writable) makes a
  //    repository where the capture puts its held-out worktree (the
  //    repository's objects through an alternate), with a hook that puts the
  //    agreeing test in place when the capture checks it out there.
  project.candidate("planted", [&] {
    no_fix("Counts lines.");
    create_file(source / "tests/plant.sh",
           "#!/bin/sh\n"
           "dest=\"$1/.hydra/held-out/source\"\n"
           "rm -rf \"$dest\"\n"
           "mkdir -p \"$dest\"\n"
           "git init --quiet \"$dest\" >\"$1/plant.log\" 2>&1 || exit 0\n"
           "admin=$(sed -n 's/^gitdir: //p' \"$2/.git\")\n"
           "echo \"$admin/../../objects\" > \"$dest/.git/objects/info/alternates\"\n"
           "printf '#!/bin/sh\\ncp %s tests/test_count.cpp\\n' \"$2/tests/agreeing.txt\" > \"$dest/.git/hooks/post-checkout\"\n"
           "chmod +x \"$dest/.git/hooks/post-checkout\"\n"
           "exit 0\n",
           true);
    fs::copy_file(agreeing, source / "tests/agreeing.txt");
    edit_file(source / "tests/CMakeLists.txt", "textstats_add_test_suite(frequency)\n",
         "add_test(NAME count.plant COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/plant.sh ${CMAKE_BINARY_DIR} "
         "${PROJECT_SOURCE_DIR})\nset_tests_properties(count.plant PROPERTIES LABELS unit)\n\n"
         "textstats_add_test_suite(frequency)\n");
  });
  // 4. The API the baseline's tests use renamed (its own tests updated) and a
  //    baseline-passing test broken with it: the baseline's test program no
  //    longer builds against the change.
  project.candidate("api-rename", [&] {
    edit_file(source / "include/textstats/textstats.hpp", "std::size_t count_lines(", "std::size_t line_count(");
    edit_file(source / "src/count.cpp", "std::size_t count_lines(", "std::size_t line_count(");
    edit_file(source / "src/count.cpp", "counts.lines = count_lines(text);", "counts.lines = line_count(text);");
    edit_file(source / "src/count.cpp", "counts.bytes = text.size();", "counts.bytes = text.size() + 1;");
    std::string tests = read_file(source / "tests/test_count.cpp");
    for (auto at = tests.find("count_lines("); at != std::string::npos; at = tests.find("count_lines(", at))
      tests.replace(at, 11, "line_count");
    write_file_atomic(source / "tests/test_count.cpp", tests);
    edit_file(source / "tests/test_count.cpp", "CHECK_EQ(counts.bytes, 22U);", "CHECK_EQ(counts.bytes, 23U);");
  });

  // 5. A regression switched on from a test file: tests/CMakeLists.txt (the
  //    held-out tree has the baseline's copy) gives the library a define,
  //    and the change's own copy of the test agrees with the regression.
  project.candidate("test-cmake-build", [&] {
    edit_file(source / "src/count.cpp", kCountLines, kFixedCountLines);
    edit_file(source / "src/count.cpp", "counts.bytes = text.size();",
              "counts.bytes = text.size();\n#ifdef TEXTSTATS_BYTES_WITH_END\n  counts.bytes += 1;\n#endif");
    edit_file(source / "tests/test_count.cpp", "CHECK_EQ(counts.bytes, 22U);", "CHECK_EQ(counts.bytes, 23U);");
    edit_file(source / "tests/CMakeLists.txt", "textstats_add_test_suite(frequency)\n",
              "target_compile_definitions(textstats PRIVATE TEXTSTATS_BYTES_WITH_END)\n\n"
              "textstats_add_test_suite(frequency)\n");
  });

  // The clone's settings, made once every branch is committed (the filter
  // would otherwise act on the test's own checkouts here).
  const std::string in_settings_held_out = "case \"$PWD\" in */cand-settings/build/.hydra/held-out/source) ";
  create_file(source / ".git/hooks/post-checkout",
         "#!/bin/sh\n" + in_settings_held_out + "cp " + agreeing.string() + " tests/test_count.cpp;; esac\nexit 0\n",
         true);
  create_file(source / ".git/info/attributes", "tests/test_count.cpp filter=agree\n");
  git(source, {"config", "filter.agree.smudge",
               "sh -c '" + in_settings_held_out + "cat >/dev/null; cat " + agreeing.string() + ";; *) cat;; esac'"});
  git(source, {"config", "filter.agree.clean", "cat"});

  project.capture_candidates();
  const nlohmann::json contract =
      project.score({"fix", "lint-honest", "settings", "attributes", "planted", "api-rename", "test-cmake-build"});
  INFO(read_file(temp.path() / "score.md"));

  // The honest fix: mergeable and first.
  CHECK(mergeable(contract, "fix"));
  CHECK(contract.at("rankings").at(0).at("agent") == "cand-fix");

  // 1 and 3: the held-out run judged the baseline's own test, which fails.
  CHECK(held_out_failed(contract, "settings", "count.lines_without_trailing_newline"));
  {
    const fs::path log = project.out() / "trees/cand-planted/build/plant.log";
    INFO((fs::exists(log) ? read_file(log) : std::string("no plant.log")));
    CHECK(held_out_failed(contract, "planted", "count.lines_without_trailing_newline"));
  }

  // 2: the NOLINTs are seen (listed and blanked): no higher than the honest linty fix.
  {
    const auto& attributes = entry(contract, "attributes");
    INFO(attributes.at("anti_gaming").dump(1));
    CHECK(attributes.at("anti_gaming").at("suppressions_added").size() >= 5);
    CHECK(total(contract, "attributes") <= total(contract, "lint-honest"));
  }

  // 5: the held-out build of the library differs by the define: not mergeable, named.
  {
    const auto& built = entry(contract, "test-cmake-build");
    INFO(built.at("anti_gaming").dump(1));
    CHECK_FALSE(mergeable(contract, "test-cmake-build"));
    REQUIRE(built.at("anti_gaming").contains("held_out_build"));
    CHECK(built.at("anti_gaming").at("held_out_build").at(0).at("key") == "define TEXTSTATS_BYTES_WITH_END");
  }

  // 4: the broken baseline test is a regression, named with the reason.
  {
    const auto& renamed = entry(contract, "api-rename");
    INFO(renamed.at("anti_gaming").at("held_out").dump(1));
    CHECK_FALSE(mergeable(contract, "api-rename"));
    bool regressed = false;
    for (const auto& test : renamed.at("tests").at("regressed"))
      if (test.at("name") == "count.words_and_bytes") regressed = true;
    CHECK(regressed);
    bool named = false;
    for (const auto& test : renamed.at("anti_gaming").at("held_out").at("unverified"))
      if (test.at("test") == "count.words_and_bytes" &&
          test.at("why").get<std::string>().find("does not build") != std::string::npos)
        named = true;
    CHECK(named);
  }
}
