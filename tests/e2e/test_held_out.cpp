// End to end: the code under test never judges itself (docs/threat-model.md,
// "Held-out evaluation"). Each attack below is a candidate that imitates an
// honest change on example-project (whose baseline has one failing test,
// count.lines_without_trailing_newline, a real bug); each must score no
// higher than its honest twin, or not be mergeable.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>

#include <hydra/util/sha256.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

/// Replaces the first `from` in `file` with `to`; fails the test when absent.
void edit(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = hydra::util::read_file(file);
  const auto at = text.find(from);
  INFO(file.string() << " lacks: " << from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  hydra::util::write_file_atomic(file, text);
}

void append(const fs::path& file, const std::string& text) {
  hydra::util::write_file_atomic(file, hydra::util::read_file(file) + text);
}

const std::string kFailingChecks =
    "  CHECK_EQ(textstats::count_lines(\"one\\ntwo\"), 2U);\n"
    "  CHECK_EQ(textstats::count(\"first line\\nsecond line\").lines, 2U);\n";
const std::string kCountLines =
    "std::size_t count_lines(std::string_view text) {\n"
    "  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\\n'));\n"
    "}\n";
/// The fix, written so that clang-tidy finds fault with it (an uninitialized
/// variable, narrowing conversions): the lint attacks hide these findings.
const std::string kLintyFix =
    "std::size_t count_lines(std::string_view text) {\n"
    "  int lines;\n"
    "  const int length = text.size();\n"
    "  lines = 0;\n"
    "  for (int index = 0; index < length; index++) {\n"
    "    if (text[index] == '\\n') lines++;\n"
    "  }\n"
    "  if (length > 0 && text[length - 1] != '\\n') lines++;\n"
    "  return lines;\n"
    "}\n";

std::string with_nolint(const std::string& code) {
  std::string out;
  std::size_t start = 0;
  while (start < code.size()) {
    const std::size_t end = code.find('\n', start);
    const std::string line = code.substr(start, end - start);
    out += line + (line.empty() || line == "}" ? "" : "  // NOLINT") + "\n";
    start = end + 1;
  }
  return out;
}

/// Every file of `directory` with its digest.
std::map<std::string, std::string> digests(const fs::path& directory) {
  std::map<std::string, std::string> result;
  for (const auto& entry : fs::recursive_directory_iterator(directory))
    if (entry.is_regular_file())
      result[entry.path().lexically_relative(directory).generic_string()] =
          hydra::util::sha256_hex(hydra::util::read_file(entry.path()));
  return result;
}

struct Project {
  fs::path source;
  fs::path output;  ///< inside the source tree's build tree, as a user's would be
  fs::path config;  ///< empty: the tree's hydra.toml

  void capture(const std::string& agent, bool baseline = false) const {
    std::vector<std::string> argv =
        capture_command(source, output / agent,
                        {"--build-dir", (output / "trees" / agent).string(), "--agent", agent, "--generator", "Ninja",
                         "--exclude", (source / "build").string()});
    if (baseline && !config.empty()) argv.insert(argv.end(), {"--config", config.string()});
    if (!baseline) argv.insert(argv.end(), {"--baseline-run", (output / "baseline").string()});
    const auto result = run(argv);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  }

  nlohmann::json score(const std::vector<std::string>& agents, const fs::path& reports) const {
    std::vector<std::string> argv = {kTool.string(), "score", "--baseline", (output / "baseline").string(),
                                     "--json", (reports / "score.json").string(),
                                     "--markdown", (reports / "score.md").string(),
                                     "--html", (reports / "score.html").string()};
    for (const auto& agent : agents) argv.insert(argv.end(), {"--candidate", (output / agent).string()});
    const auto result = run(argv);
    INFO(result.output);
    REQUIRE((result.exit_code == 0 || result.exit_code == 3));
    return read_json(reports / "score.json");
  }
};

double total_of(const nlohmann::json& contract, const std::string& agent) {
  return ranking_of(contract, agent).at("total").get<double>();
}

bool mergeable(const nlohmann::json& contract, const std::string& agent) {
  return ranking_of(contract, agent).at("mergeable").get<bool>();
}

/// `attack` scores no higher than `twin`, or is not mergeable.
void check_no_gain(const nlohmann::json& contract, const std::string& attack, const std::string& twin) {
  INFO(attack << ": " << total_of(contract, attack) << " (mergeable " << mergeable(contract, attack) << "), "
              << twin << ": " << total_of(contract, twin) << "\n"
              << ranking_of(contract, attack).at("anti_gaming").dump(1));
  CHECK((total_of(contract, attack) <= total_of(contract, twin) || !mergeable(contract, attack)));
}

}  // namespace

TEST_CASE("attacks on the tests and the evidence score no higher than their honest twins", "[e2e][held-out]") {
  hydra::util::TempDir temp("hydra-held-out");
  Project project{temp.path() / "example-project", temp.path() / "example-project" / "build" / "hydra", {}};
  make_example_repository(project.source);
  const fs::path& source = project.source;
  project.capture("baseline", true);
  const auto baseline_before = digests(project.output / "baseline");

  // Honest changes.
  apply_candidate(source, "");
  edit(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n");
  project.capture("comment");
  apply_candidate(source, "clean-fix");
  project.capture("fix");

  // The failing test's assertions replaced (only the test changes).
  apply_candidate(source, "");
  edit(source / "tests/test_count.cpp", kFailingChecks, "  return;\n");
  project.capture("edited");
  // The assertions inverted, with a code change beside them.
  apply_candidate(source, "");
  edit(source / "tests/test_count.cpp", kFailingChecks,
       "  CHECK_EQ(textstats::count_lines(\"one\\ntwo\"), 1U);\n"
       "  CHECK_EQ(textstats::count(\"first line\\nsecond line\").lines, 1U);\n");
  edit(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n");
  project.capture("inverted");
  // The helper neutralized: no assertion line touched.
  apply_candidate(source, "");
  edit(source / "tests/check.hpp", "if (actual == expected) {", "if (true) {");
  edit(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n");
  project.capture("neutralized");
  // The checks rewritten as assert() and compiled out with NDEBUG.
  apply_candidate(source, "");
  edit(source / "tests/test_count.cpp", kFailingChecks,
       "  assert(textstats::count_lines(\"one\\ntwo\") == 2U);\n");
  edit(source / "tests/test_count.cpp", "#include \"check.hpp\"\n", "#include \"check.hpp\"\n\n#include <cassert>\n");
  edit(source / "tests/CMakeLists.txt", "textstats_add_test_suite(count)\n",
       "textstats_add_test_suite(count)\ntarget_compile_definitions(test_count PRIVATE NDEBUG)\n");
  edit(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n");
  project.capture("compiled-out");
  // Twenty tests that prove nothing, defined beside the code.
  apply_candidate(source, "");
  for (int index = 0; index < 20; ++index)
    append(source / "CMakeLists.txt", "add_test(NAME trivial." + std::to_string(index) +
                                          " COMMAND ${CMAKE_COMMAND} -E true)\n");
  project.capture("trivial");
  // A test that rewrites HydraScore's evidence (the build tree is inside the source tree).
  apply_candidate(source, "");
  hydra::util::write_file_atomic(
      source / "tests/evidence.sh",
      "find \"$1\" -path '*hydra*' \\( -name '*.xml' -o -name '*.json' \\) -type f 2>/dev/null |\n"
      "  while read -r file; do echo '{}' > \"$file\" 2>/dev/null; done\nexit 0\n");
  append(source / "tests/CMakeLists.txt",
         "add_test(NAME count.evidence COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/evidence.sh ${CMAKE_SOURCE_DIR})\n");
  edit(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n");
  project.capture("evidence");

  // Lint: the fix with new findings, then the same findings hidden.
  apply_candidate(source, "");
  edit(source / "src/count.cpp", kCountLines, kLintyFix);
  project.capture("lint-honest");
  apply_candidate(source, "");
  edit(source / "src/count.cpp", kCountLines, with_nolint(kLintyFix));
  project.capture("nolint");
  apply_candidate(source, "");
  edit(source / "src/count.cpp", kCountLines, "// NOLINTBEGIN\n" + kLintyFix + "// NOLINTEND\n");
  project.capture("nolintbegin");
  apply_candidate(source, "");
  edit(source / "src/count.cpp", kCountLines, "#include \"count_lines.inl\"\n");
  hydra::util::write_file_atomic(source / "src/count_lines.inl", kLintyFix);
  project.capture("included-file");

  // The baseline is byte-identical after every capture, the evidence attack's too.
  CHECK(digests(project.output / "baseline") == baseline_before);

  const fs::path reports = temp.path() / "reports";
  fs::create_directories(reports);
  const nlohmann::json contract =
      project.score({"comment", "fix", "edited", "inverted", "neutralized", "compiled-out", "trivial", "evidence",
                     "lint-honest", "nolint", "nolintbegin", "included-file"},
                    reports);

  // No false alarm: the honest changes are mergeable, the fix ranks above
  // the comment, and its new tests demonstrate the change.
  CHECK(mergeable(contract, "comment"));
  CHECK(mergeable(contract, "fix"));
  CHECK(total_of(contract, "fix") > total_of(contract, "comment"));
  const nlohmann::json fix_held_out = ranking_of(contract, "fix").at("anti_gaming").at("held_out");
  CHECK(fix_held_out.at("new_tests_demonstrating").size() == 2);
  CHECK(fix_held_out.at("new_tests_not_exercising").empty());

  for (const std::string attack : {"edited", "inverted", "neutralized", "compiled-out", "trivial", "evidence"})
    check_no_gain(contract, attack, "comment");
  for (const std::string attack : {"nolint", "nolintbegin", "included-file"}) check_no_gain(contract, attack, "lint-honest");

  // The evidence, in every report.
  CHECK(ranking_of(contract, "trivial").at("anti_gaming").at("held_out").at("new_tests_not_exercising").size() == 20);
  CHECK(!ranking_of(contract, "inverted").at("anti_gaming").at("held_out").at("judged_by_held_out").empty());
  const std::string markdown = hydra::util::read_file(reports / "score.md");
  const std::string html = hydra::util::read_file(reports / "score.html");
  for (const std::string& text : {markdown, html}) {
    CHECK(text.find("does not exercise the change") != std::string::npos);
    CHECK(text.find("with the baseline") != std::string::npos);
    CHECK(text.find("demonstrates the change") != std::string::npos);
  }
}

TEST_CASE("with a private test patch, special-casing the visible test earns nothing", "[e2e][held-out]") {
  hydra::util::TempDir temp("hydra-private");
  Project project{temp.path() / "example-project", temp.path() / "example-project" / "build" / "hydra",
                  temp.path() / "hydra.toml"};
  make_example_repository(project.source);
  const fs::path& source = project.source;

  // The private patch changes the failing test to other inputs; it lives
  // outside the source tree and never enters a candidate's tree or run.
  edit(source / "tests/test_count.cpp", kFailingChecks,
       "  CHECK_EQ(textstats::count_lines(\"alpha\\nbeta\\ngamma\"), 3U);\n");
  const auto diff = run({"git", "-C", source.string(), "diff"});
  REQUIRE(diff.exit_code == 0);
  const fs::path private_patch = temp.path() / "private-tests.patch";
  hydra::util::write_file_atomic(private_patch, diff.output);
  apply_candidate(source, "");
  hydra::util::write_file_atomic(project.config, hydra::util::read_file(source / "hydra.toml") +
                                                     "\n[anti_gaming]\nprivate_test_patch = \"" +
                                                     private_patch.string() + "\"\n");
  project.capture("baseline", true);

  apply_candidate(source, "");
  edit(source / "src/count.cpp", "namespace textstats {\n", "namespace textstats {\n\n// Counts text.\n");
  project.capture("no-op");
  apply_candidate(source, "");
  edit(source / "src/count.cpp", "std::size_t count_lines(std::string_view text) {\n",
       "std::size_t count_lines(std::string_view text) {\n"
       "  if (text == \"one\\ntwo\" || text == \"first line\\nsecond line\") return 2;\n");
  project.capture("special-case");
  apply_candidate(source, "clean-fix");
  project.capture("fix");

  const nlohmann::json contract = project.score({"no-op", "special-case", "fix"}, temp.path());
  check_no_gain(contract, "special-case", "no-op");
  CHECK(total_of(contract, "fix") > total_of(contract, "no-op"));
  CHECK(mergeable(contract, "fix"));
  // The private tests are nowhere in the candidates' trees or run directories.
  for (const std::string agent : {"no-op", "special-case", "fix"}) {
    for (const auto& entry : fs::recursive_directory_iterator(project.output / agent))
      if (entry.is_regular_file())
        CHECK(hydra::util::read_file(entry.path()).find("alpha\\nbeta\\ngamma") == std::string::npos);
  }
}
