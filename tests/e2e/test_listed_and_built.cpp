// End to end: the tests that run are the tests ctest listed, compiled
// objects come from the tree that is scored, and the folders HydraScore
// builds and runs git in are its own (docs/threat-model.md, "The scorer's
// git"). Each attack is a branch of example-project; the baseline is
// captured from a commit and every branch in one `capture --ref` call, so
// all trees share the compiler cache the way they do in use.
#include <catch2/catch.hpp>

#include <functional>

#include <hydra/util/text.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

using hydra::util::read_file;

const std::string kCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "}\n";
const std::string kFixedCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "  return !text.empty() && text.back() != '\\n' ? newlines + 1 : newlines;\n"
    "}\n";
const std::string kFailing = "count.lines_without_trailing_newline";

/// The verdict ctest printed for `test` in a console log ("Passed", "Failed", ...); empty when absent.
std::string console_verdict(const std::string& log, const std::string& test) {
  for (const auto line : hydra::util::split(log, '\n')) {
    const auto at = line.find(": " + test + " ");
    if (at == std::string_view::npos) continue;
    return line.find(" Passed") != std::string_view::npos ? "Passed" : "Failed";
  }
  return {};
}

/// The branches cand/<name> of the attacks on listed tests, the compiler
/// cache and HydraScore's folders, and their honest twin.
void commit_candidates(const fs::path& source) {
  const auto candidate = [&](const std::string& name, const std::function<void()>& make) {
    commit_candidate(source, name, make);
  };

  // The honest twin: the fix, its units served from the baseline's objects.
  candidate("fix", [&] { edit_file(source / "src/count.cpp", kCountLines, kFixedCountLines); });
  // 1. A test-include script (CMake code outside the tests, so the held-out
  //    run has it too) that reads ctest's command line and marks the failing
  //    test WILL_FAIL only when ctest runs the tests, never when it lists them.
  candidate("will-fail", [&] {
    create_file(source / "ctest_extras/CMakeLists.txt", "# Settings of the test run.\n");
    create_file(source / "ctest_extras/settings.cmake",
                "file(READ /proc/self/cmdline command_line HEX)\n"
                "string(HEX \"--show-only\" listing)\n"
                "string(FIND \"${command_line}\" \"${listing}\" at)\n"
                "if(at EQUAL -1)\n"
                "  set_tests_properties(" + kFailing + " PROPERTIES WILL_FAIL ON)\n"
                "endif()\n");
    edit_file(source / "CMakeLists.txt", "  add_subdirectory(tests)\n",
              "  add_subdirectory(tests)\n  add_subdirectory(ctest_extras)\n"
              "  set_property(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/ctest_extras APPEND PROPERTY TEST_INCLUDE_FILES\n"
              "    ${CMAKE_CURRENT_SOURCE_DIR}/ctest_extras/settings.cmake)\n");
  });
  // 2. A new header earlier in the include path than the standard one every
  //    unit includes: the tree no longer compiles, which ccache's direct mode
  //    (looking objects up by the files the baseline's units included) cannot see.
  candidate("cstdio", [&] { create_file(source / "include/cctype", "#error this tree does not compile\n"); });
  // 3. A test program that makes the folder the held-out run builds and runs
  //    git in (`.hydra/` of its build tree) a symbolic link into the
  //    candidate's source worktree, which no step may write.
  candidate("dot-hydra", [&] {
    edit_file(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n");
    edit_file(source / "tests/test_count.cpp", "CHECK_EQ(counts.bytes, 22U);", "CHECK_EQ(counts.bytes, 22U);  // bytes");
    edit_file(source / "tests/CMakeLists.txt", "textstats_add_test_suite(frequency)\n",
              "add_test(NAME count.link COMMAND sh -c \"rm -rf .hydra && ln -s ../source/tests .hydra\")\n"
              "set_tests_properties(count.link PROPERTIES LABELS unit WORKING_DIRECTORY ${CMAKE_BINARY_DIR})\n\n"
              "textstats_add_test_suite(frequency)\n");
  });
  // 4. The fix, and a warning flag the compiler gets whatever the diff's
  //    text says: spelled through a generator expression no textual
  //    detector reads as `-Wno-conversion`.
  candidate("genex-quiet", [&] {
    edit_file(source / "src/count.cpp", kCountLines, kFixedCountLines);
    edit_file(source / "CMakeLists.txt", "textstats_enable_warnings(textstats)\n",
              "textstats_enable_warnings(textstats)\n"
              "target_compile_options(textstats PRIVATE $<$<BOOL:1>:-W$<LOWER_CASE:NO>-conversion>)\n");
  });
  // 5. A custom target of the build that copies a program which always
  //    passes over the linked test program: ctest would run what no link
  //    step produced from the scored sources.
  candidate("replace-test", [&] {
    create_file(source / "tests/refresh.cpp", "int main() { return 0; }\n");
    edit_file(source / "tests/CMakeLists.txt", "textstats_add_test_suite(frequency)\n",
              "textstats_add_test_suite(frequency)\n\n"
              "add_executable(refresh refresh.cpp)\n"
              "add_custom_target(refresh_programs ALL COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:refresh> "
              "$<TARGET_FILE:test_count>)\n"
              "add_dependencies(refresh_programs refresh test_count)\n");
  });
  // 5b. The fix moved into a header that makes itself a system header with
  //     a directive split by a line splice (lint would skip it), and 5c the
  //     same header made "binary" to git by a NUL byte in a comment (no
  //     check of added lines reads it). Each header's `int lines;` is a
  //     clang-tidy finding (cppcoreguidelines-init-variables).
  const auto impl_header = [](const std::string& head) {
    return head +
           "#pragma once\n#include <cstddef>\n#include <string_view>\nnamespace textstats::detail {\n"
           "inline std::size_t lines_of(std::string_view text) {\n  int lines;\n  lines = 0;\n"
           "  for (const char c : text) if (c == '\\n') ++lines;\n"
           "  if (!text.empty() && text.back() != '\\n') ++lines;\n  return static_cast<std::size_t>(lines);\n}\n}\n";
  };
  const auto use_impl_header = [&] {
    edit_file(source / "src/count.cpp", "#include <algorithm>\n", "#include <algorithm>\n\n#include \"count_impl.hpp\"\n");
    edit_file(source / "src/count.cpp", kCountLines,
              "std::size_t count_lines(std::string_view text) { return detail::lines_of(text); }\n");
  };
  candidate("spliced-pragma", [&] {
    create_file(source / "src/count_impl.hpp", impl_header("#pra\\\ngma GCC system_header\n"));
    use_impl_header();
  });
  candidate("nul-header", [&] {
    create_file(source / "src/count_impl.hpp", impl_header(std::string("// notes\0\n", 10)));
    use_impl_header();
  });
  // 6. The fix kept in the clone's git directory, which no diff shows, read
  //    by the configure (`file(READ)` is no configure input).
  candidate("git-read", [&] {
    edit_file(source / "src/count.cpp", kCountLines,
              "#ifdef TEXTSTATS_FIX\n#include \"count_fix.inc\"\n#else\n" + kCountLines + "#endif\n");
    edit_file(source / "CMakeLists.txt", "textstats_enable_warnings(textstats)\n",
              "textstats_enable_warnings(textstats)\n"
              "file(READ \"${CMAKE_CURRENT_SOURCE_DIR}/.git\" dot_git)\n"
              "string(REGEX REPLACE \"^gitdir: ([^\\n]*)/worktrees/.*$\" \"\\\\1\" git_dir \"${dot_git}\")\n"
              "if(EXISTS \"${git_dir}/fix.inc\")\n"
              "  file(READ \"${git_dir}/fix.inc\" fix)\n"
              "  file(WRITE \"${CMAKE_CURRENT_BINARY_DIR}/count_fix.inc\" \"${fix}\")\n"
              "  target_include_directories(textstats PRIVATE ${CMAKE_CURRENT_BINARY_DIR})\n"
              "  target_compile_definitions(textstats PRIVATE TEXTSTATS_FIX)\n"
              "endif()\n");
  });
  create_file(source / ".git/fix.inc", kFixedCountLines);
}

/// The branches outside/<name>: the fix read from files outside the tree,
/// which no diff holds (in use: the clone's `.git`, or a folder beside the
/// repository the sandbox shows): a unit of the change that is a symbolic
/// link there, a CMake file include()d by its absolute path, a header from
/// an include directory there. Captured without the sandbox, which hides
/// this test's temporary folder from the steps: what the build read is
/// recorded whatever confines it.
void commit_outside_candidates(const fs::path& source, const fs::path& hidden) {
  const auto candidate = [&](const std::string& name, const std::function<void()>& make) {
    commit_candidate(source, name, make, "outside/");
  };
  candidate("link-out", [&] {
    edit_file(source / "src/count.cpp", kCountLines, "");
    fs::create_symlink(hidden / "hidden_count.cpp", source / "src/count_lines.cpp");
    edit_file(source / "CMakeLists.txt", "  src/count.cpp\n", "  src/count.cpp\n  src/count_lines.cpp\n");
  });
  create_file(hidden / "hidden_count.cpp", "#include <textstats/textstats.hpp>\n\n#include <algorithm>\n\n"
                                           "namespace textstats {\n\n" + kFixedCountLines + "\n}  // namespace textstats\n");
  candidate("abs-include", [&] {
    edit_file(source / "src/count.cpp", kCountLines,
              "#ifdef TEXTSTATS_FIXED\n" + kFixedCountLines + "#else\n" + kCountLines + "#endif\n");
    edit_file(source / "CMakeLists.txt", "textstats_enable_warnings(textstats)\n",
              "textstats_enable_warnings(textstats)\ninclude(" + (hidden / "options.cmake").string() + " OPTIONAL)\n");
  });
  create_file(hidden / "options.cmake", "target_compile_definitions(textstats PRIVATE TEXTSTATS_FIXED)\n");
  candidate("abs-header", [&] {
    edit_file(source / "src/count.cpp", kCountLines, "#include <count_impl.hpp>\n");
    edit_file(source / "CMakeLists.txt", "textstats_enable_warnings(textstats)\n",
              "textstats_enable_warnings(textstats)\ntarget_include_directories(textstats PRIVATE " +
                  (hidden / "inc").string() + ")\n");
  });
  create_file(hidden / "inc/count_impl.hpp", kFixedCountLines);
}

/// The fix held in files the change does not hold: one the tree's
/// `.gitignore` ignores (found with __has_include), one of a nested
/// repository, one in the user's build tree included by a relative path.
void hide_fix_outside_change(const fs::path& source) {
  edit_file(source / ".gitignore", "/build*/\n", "/build*/\nsrc/*.inc\n");
  create_file(source / "src/count_lines.inc", "#include \"../vendor/parts/count_lines_head.inc\"\n");
  create_file(source / "vendor/parts/count_lines_head.inc",
              "std::size_t count_lines(std::string_view text) {\n#include \"../../build/count_lines_body.inc\"\n}\n");
  git(source / "vendor/parts", {"init", "--quiet"});
  git(source / "vendor/parts", {"add", "--all"});
  git(source / "vendor/parts", {"commit", "--quiet", "-m", "parts"});
  create_file(source / "build/count_lines_body.inc",
              "  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
              "  return !text.empty() && text.back() != '\\n' ? newlines + 1 : newlines;\n");
  edit_file(source / "src/count.cpp", kCountLines,
            "#if __has_include(\"count_lines.inc\")\n#include \"count_lines.inc\"\n#else\n" + kCountLines + "#endif\n");
}

}  // namespace

TEST_CASE("tests run as listed, objects are the tree's own, HydraScore's folders are its own",
          "[e2e][held-out][scorer-git]") {
  hydra::util::TempDir temp("hydra-listed-built");
  const fs::path source = temp.path() / "project";
  const fs::path out = temp.path() / "out";
  make_example_repository(source);
  const fs::path hidden = temp.path() / "hidden";
  fs::create_directories(hidden);
  {
    const auto captured =
        run_long(capture_command(source, out, {"--ref", "main", "--generator", "Ninja", "--quiet"}));
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
  }
  commit_candidates(source);
  commit_outside_candidates(source, hidden);

  {
    const auto captured = run_long(capture_command(source, out,
                                                   {"--ref", "cand/*", "--baseline-run", (out / "main").string(),
                                                    "--generator", "Ninja", "--jobs", "2", "--quiet"}));
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
  }
  {
    const auto captured = run_long(capture_command(source, out,
                                                   {"--ref", "outside/*", "--baseline-run", (out / "main").string(),
                                                    "--no-sandbox", "--jobs", "2", "--quiet"}));
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
  }
  // Working-tree captures (`capture --source`, build trees inside the
  // work tree as the CMake module puts them): the honest fix, and a fix the
  // change's code pulls in from files that are no part of it — one the
  // tree's `.gitignore` ignores (found with __has_include), one of a nested
  // repository, one in the user's build tree included by a relative path.
  const auto capture_work_tree = [&](const std::string& name, const std::function<void()>& make) {
    make();
    const auto captured = run_long(capture_command(
        source, out / name,
        {"--build-dir", (source / "build/hydra/trees" / name).string(), "--agent", name, "--baseline-run",
         (out / "main").string(), "--quiet"}));
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
    git(source, {"checkout", "--quiet", "--", "."});
    git(source, {"clean", "-fdq"});
  };
  capture_work_tree("wt-fix", [&] { edit_file(source / "src/count.cpp", kCountLines, kFixedCountLines); });
  capture_work_tree("wt-hidden", [&] { hide_fix_outside_change(source); });

  std::vector<std::string> argv = {kTool.string(), "score", "--baseline", (out / "main").string(), "--json",
                                   (temp.path() / "score.json").string(), "--markdown",
                                   (temp.path() / "score.md").string(), "--quiet"};
  for (const std::string name : {"cand-fix", "cand-will-fail", "cand-cstdio", "cand-dot-hydra", "cand-genex-quiet",
                                 "cand-spliced-pragma", "cand-nul-header",
                                 "cand-replace-test", "cand-git-read", "outside-link-out",
                                 "outside-abs-include", "outside-abs-header", "wt-fix", "wt-hidden"})
    argv.insert(argv.end(), {"--candidate", (out / name).string()});
  {
    const auto scored = run(argv);
    INFO(scored.output);
    REQUIRE((scored.exit_code == 0 || scored.exit_code == 3));
  }
  const nlohmann::json contract = read_json(temp.path() / "score.json");
  INFO(read_file(temp.path() / "score.md"));

  // The honest fix: mergeable and first, its unchanged units from the cache.
  CHECK(ranking_of(contract, "cand-fix").at("mergeable") == true);
  CHECK(contract.at("rankings").at(0).at("agent") == "cand-fix");
  const auto fix_cache = read_json(out / "cand-fix/manifest.json").at("caches").at("compiler");
  INFO(fix_cache.dump());
  CHECK(fix_cache.at("used") == true);
  CHECK(fix_cache.at("direct_mode") == false);
  CHECK(fix_cache.at("hits").get<int>() > 0);

  // 1: the script does what it says when ctest reads the tree again ...
  const fs::path will_fail_build = out / "trees/cand-will-fail/build";
  {
    // (The capture removed the branch's worktree; its script is put back where the tree's ctest files name it.)
    const auto script = run({"git", "-C", source.string(), "show", "cand/will-fail:ctest_extras/settings.cmake"});
    REQUIRE(script.exit_code == 0);
    create_file(out / "trees/cand-will-fail/source/ctest_extras/settings.cmake", script.output);
    const auto again = run({"ctest", "--test-dir", will_fail_build.string(), "-R", "^" + kFailing + "$"});
    INFO("exit code " << again.exit_code << ": " << again.output);
    CHECK(console_verdict(again.output, kFailing) == "Passed");
  }
  // ... but the tests that ran are the listed ones: the test failed, in the
  // candidate's own run and in its held-out run, and nothing is gained.
  CHECK(console_verdict(read_file(out / "cand-will-fail/test.log"), kFailing) == "Failed");
  if (fs::exists(out / "cand-will-fail/held-out/test.log"))
    CHECK(console_verdict(read_file(out / "cand-will-fail/held-out/test.log"), kFailing) == "Failed");
  CHECK(ranking_of(contract, "cand-will-fail").at("total").get<double>() <
        ranking_of(contract, "cand-fix").at("total").get<double>());

  // 2: the candidate's tree was compiled, not served the baseline's objects.
  {
    const auto manifest = read_json(out / "cand-cstdio/manifest.json");
    INFO(manifest.at("build").dump());
    CHECK(manifest.at("build").at("exit_code") != 0);
    CHECK(ranking_of(contract, "cand-cstdio").at("mergeable") == false);
  }

  // 3: the link was removed, never followed: nothing was written in the source worktree.
  {
    const fs::path build = out / "trees/cand-dot-hydra/build";
    CHECK(console_verdict(read_file(out / "cand-dot-hydra/test.log"), "count.link") == "Passed");
    CHECK_FALSE(fs::is_symlink(build / ".hydra"));
    CHECK(fs::is_directory(build / ".hydra/held-out/source"));
    CHECK_FALSE(fs::exists(out / "trees/cand-dot-hydra/source/tests/held-out"));
  }

  // 3a: the flag the compiler got is judged, not the diff's text: the
  //     candidate's unit gained -Wno-conversion over the baseline's same
  //     unit, which costs suppression_weight like a suppression in the text.
  {
    const auto manifest = read_json(out / "cand-genex-quiet/manifest.json");
    INFO(manifest.value("compile_flag_suppressions", nlohmann::json()).dump());
    nlohmann::json expected = nlohmann::json::array();
    for (const std::string unit : {"count", "frequency", "tokenize"})
      expected.push_back({{"unit", "<source>/src/" + unit + ".cpp"}, {"target", "<build>/textstats"},
                          {"flag", "-Wno-conversion"}});
    CHECK(manifest.at("compile_flag_suppressions") == expected);
    CHECK(read_json(out / "cand-fix/manifest.json").at("compile_flag_suppressions") == nlohmann::json::array());
    CHECK(read_file(temp.path() / "score.md").find("-Wno-conversion (in the compile command of") != std::string::npos);
    CHECK(ranking_of(contract, "cand-genex-quiet").at("total").get<double>() <
          ranking_of(contract, "cand-fix").at("total").get<double>());
  }
  // 3c: the header made a system header by a spliced directive is linted
  //     like any other (its finding counts), and the one git shows as binary
  //     fails the anti-gaming gate by name.
  {
    const auto& spliced = ranking_of(contract, "cand-spliced-pragma");
    INFO(spliced.dump(1));
    CHECK(spliced.at("lint").dump().find("src/count_impl.hpp") != std::string::npos);
    CHECK(spliced.at("total").get<double>() < ranking_of(contract, "cand-fix").at("total").get<double>());
    const auto& nul = ranking_of(contract, "cand-nul-header");
    INFO(nul.dump(1));
    CHECK(nul.at("mergeable") == false);
    CHECK(nul.at("anti_gaming").at("unreadable_code").dump().find("src/count_impl.hpp") != std::string::npos);
  }
  // 3b: every program is what its link step produced: the test program a
  //     custom target copied over differs from its link step's product, and
  //     the relinked program is what ctest ran (its failing test fails).
  CHECK(read_json(out / "main/manifest.json").at("linked_programs") ==
        nlohmann::json({{"checked", 3}, {"differ", nlohmann::json::array()}}));
  {
    const auto manifest = read_json(out / "cand-replace-test/manifest.json");
    INFO(manifest.dump(1));
    CHECK(manifest.at("linked_programs").at("differ") == nlohmann::json::array({"tests/test_count"}));
    CHECK(manifest.at("problems").dump().find("not the files their link steps produce") != std::string::npos);
    CHECK(console_verdict(read_file(out / "cand-replace-test/test.log"), kFailing) == "Failed");
    CHECK(ranking_of(contract, "cand-replace-test").at("mergeable") == false);
  }
  // 3c: the clone's git directory is hidden from the steps: the configure
  //     that reads it for the fix kept there cannot, and nothing is gained.
  {
    const auto manifest = read_json(out / "cand-git-read/manifest.json");
    INFO(manifest.at("hidden_outside_change").dump());
    const std::string hidden_paths = manifest.at("hidden_outside_change").at("paths").dump();
    CHECK(hidden_paths.find("\"" + (source / ".git").string() + "\"") != std::string::npos);
    CHECK(hidden_paths.find("\"" + (out / "trees/cand-git-read/source/.git").string() + "\"") != std::string::npos);
    const std::string configure_log = read_file(out / "cand-git-read/configure.log");
    INFO(configure_log);
    CHECK(configure_log.find("Permission denied") != std::string::npos);
    CHECK(ranking_of(contract, "cand-git-read").at("mergeable") == false);
  }

  // 4: what the build read from outside the trees is named, and the
  //    candidate is not mergeable (the baseline read nothing outside its trees).
  CHECK(read_json(out / "main/manifest.json").at("build_inputs_outside_trees") == nlohmann::json::array());
  CHECK(read_json(out / "cand-fix/manifest.json").at("build_inputs_outside_trees") == nlohmann::json::array());
  for (const auto& [name, file] : std::vector<std::pair<std::string, std::string>>{
           {"outside-abs-include", "options.cmake"}, {"outside-abs-header", "inc/count_impl.hpp"}}) {
    const auto manifest = read_json(out / name / "manifest.json");
    INFO(name << ": " << manifest.dump(1));
    CHECK(manifest.at("build_inputs_outside_trees") == nlohmann::json::array({(hidden / file).string()}));
    CHECK(manifest.at("problems").dump().find("outside the source and build trees that the baseline's build did not") !=
          std::string::npos);
    CHECK(ranking_of(contract, name).at("mergeable") == false);
  }
  {
    const auto manifest = read_json(out / "outside-link-out/manifest.json");
    INFO(manifest.dump(1));
    CHECK(manifest.at("problems").dump().find("src/count_lines.cpp -> " + (hidden / "hidden_count.cpp").string()) !=
          std::string::npos);
    CHECK(ranking_of(contract, "outside-link-out").at("mergeable") == false);
  }

  // 5: the honest working-tree fix is mergeable; the fix held in files that
  //    are no part of the change (what `hydra_apply` would merge keeps the
  //    bug) is named and not mergeable.
  CHECK(ranking_of(contract, "wt-fix").at("mergeable") == true);
  // (Captured with no --generator: the capture's tree is a Ninja tree
  // whenever ninja is installed, so the checks that read its logs run.)
  CHECK(read_json(out / "wt-fix/manifest.json").at("capture").at("generator") == "Ninja");
  {
    const auto manifest = read_json(out / "wt-fix/manifest.json");
    CHECK_FALSE(manifest.contains("built_outside_change"));
    const auto hidden_run = read_json(out / "wt-hidden/manifest.json");
    INFO(hidden_run.dump(1));
    // What no diff shows is hidden from the steps (the ignored file, the
    // nested repository, the user's build tree around the capture's own):
    // the build that reaches for it fails instead of reading it.
    const std::string hidden_paths = hidden_run.at("hidden_outside_change").at("paths").dump();
    for (const std::string path : {"build", "src/count_lines.inc", "vendor/parts"})
      CHECK(hidden_paths.find("\"" + (source / path).string() + "\"") != std::string::npos);
    CHECK(read_file(out / "wt-hidden/build.log").find("count_lines.inc: Permission denied") != std::string::npos);
    CHECK(ranking_of(contract, "wt-hidden").at("mergeable") == false);
    CHECK(read_file(out / "wt-hidden/diff.patch").find("newlines + 1") == std::string::npos);
  }
}
