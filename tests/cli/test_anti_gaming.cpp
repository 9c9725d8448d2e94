// Each attack of the threat model (docs/threat-model.md), performed on
// example-project as an agent would (tests/fixtures/guard/record.sh made the
// real git diffs and `ctest --show-only=json-v1` listings), recorded into run
// directories and scored: caught, penalized or blocked, with the evidence in
// the score JSON and the Markdown report.
#include <catch2/catch.hpp>

#include <hydra/util/files.hpp>

#include "cli/cli_support.hpp"

using namespace cli_test;

namespace {

const fs::path guard_dir = fixtures_dir / "guard";

struct Scored {
  nlohmann::json entry;
  std::string markdown;
};

/// Records the baseline and the attacked tree, scores them with
/// example-project's hydra.toml.
Scored score_attack(const hydra::util::TempDir& temp, const std::string& attack) {
  const std::string candidate_junit =
      fs::exists(guard_dir / (attack + ".junit.xml")) ? attack + ".junit.xml" : "baseline.junit.xml";
  const auto baseline = run_tool({"record", "--out", "baseline", "--agent", "baseline", "--build-exit", "0",
                                  "--junit", (guard_dir / "baseline.junit.xml").string(), "--ctest-json",
                                  (guard_dir / "baseline.ctest.json").string(), "--config",
                                  example_config.string()},
                                 temp.path());
  REQUIRE(baseline.exit_code == 0);
  const auto candidate =
      run_tool({"record", "--out", attack, "--agent", attack, "--build-exit", "0", "--junit",
                (guard_dir / candidate_junit).string(), "--ctest-json",
                (guard_dir / (attack + ".ctest.json")).string(), "--diff", (guard_dir / (attack + ".diff")).string()},
               temp.path());
  INFO(candidate.output);
  REQUIRE(candidate.exit_code == 0);
  const auto scored = run_tool({"score", "--baseline", "baseline", "--candidate", attack, "--json", "score.json",
                                "--markdown", "score.md", "--quiet", "--no-gate-exit"},
                               temp.path());
  INFO(scored.output);
  REQUIRE(scored.exit_code == 0);
  return {read_json(temp.path() / "score.json")["rankings"][0], read_bytes(temp.path() / "score.md")};
}

bool gate_failed(const nlohmann::json& entry, const std::string& gate) {
  for (const auto& failure : entry["gate_failures"])
    if (failure["gate"] == gate) return true;
  return false;
}

std::vector<std::string> tamper_kinds(const nlohmann::json& entry) {
  std::vector<std::string> kinds;
  for (const auto& test : entry["anti_gaming"]["tests_tampered"]) kinds.push_back(test["kind"]);
  return kinds;
}

bool contains(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

TEST_CASE("an honest change raises no anti-gaming finding", "[cli][anti_gaming]") {
  hydra::util::TempDir temp("hydra-guard-cli");
  const auto scored = score_attack(temp, "clean-fix");
  CHECK(scored.entry["anti_gaming"]["counts"]["config_edits"] == 0);
  CHECK(scored.entry["anti_gaming"]["counts"]["suppressions_added"] == 0);
  CHECK(scored.entry["anti_gaming"]["counts"]["assertions_removed"] == 0);
  CHECK(scored.entry["anti_gaming"]["counts"]["tests_tampered"] == 0);
  CHECK(scored.entry["anti_gaming"]["counts"]["tests_not_built"] == 0);
  CHECK_FALSE(gate_failed(scored.entry, "anti_gaming"));
  CHECK(scored.markdown.find("Anti-gaming findings") == std::string::npos);
}

TEST_CASE("each attack on example-project is caught, penalized or blocked", "[cli][anti_gaming]") {
  hydra::util::TempDir temp("hydra-guard-cli");

  SECTION("editing hydra.toml and .clang-tidy: a protected-path change and a failed gate") {
    const auto scored = score_attack(temp, "config-edits");
    CHECK(scored.entry["anti_gaming"]["config_edits"].size() >= 2);
    CHECK(scored.entry["breakdown"]["diff_scope"].get<double>() <= 30);
    CHECK(gate_failed(scored.entry, "anti_gaming"));
    CHECK(scored.markdown.find("protected configuration edited: hydra.toml") != std::string::npos);
  }
  SECTION("NOLINT, pragma diagnostic ignored and -Wno-* flags: scored like new warnings") {
    const auto scored = score_attack(temp, "suppress-lint");
    const auto suppressions = scored.entry["anti_gaming"]["suppressions_added"].size();
    CHECK(suppressions >= 3);
    // lint is inactive here (no clang-tidy log recorded); the penalty is in
    // the evidence whenever lint is active, and the findings are listed.
    CHECK(scored.markdown.find("lint suppression added") != std::string::npos);
  }
  SECTION("assertions removed from test files: counted and penalized") {
    const auto scored = score_attack(temp, "remove-assertions");
    const auto removed = scored.entry["anti_gaming"]["assertions_removed"].size();
    CHECK(removed > 0);
    // Each removed assertion costs anti_gaming.assertion_penalty (2) points.
    CHECK(scored.entry["dimensions"]["tests"]["evidence"]["assertion_penalty"] == 2.0 * removed);
    CHECK(scored.markdown.find("assertion removed") != std::string::npos);
  }
  SECTION("DISABLED, WILL_FAIL, SKIP_RETURN_CODE and skip regexes: tampered tests are regressions") {
    const auto scored = score_attack(temp, "test-properties");
    const auto kinds = tamper_kinds(scored.entry);
    CHECK(contains(kinds, "disabled"));
    CHECK(contains(kinds, "will_fail_flipped"));
    CHECK(contains(kinds, "skip_rule_added"));
    CHECK(scored.entry["dimensions"]["tests"]["evidence"]["tampered_tests"].get<int>() > 0);
    CHECK(gate_failed(scored.entry, "anti_gaming"));
    CHECK(scored.entry["mergeable"] == false);
  }
  SECTION("a test's command replaced by something trivial") {
    const auto scored = score_attack(temp, "replace-commands");
    const auto kinds = tamper_kinds(scored.entry);
    CHECK((contains(kinds, "command_trivial") || contains(kinds, "command_changed")));
    CHECK(gate_failed(scored.entry, "anti_gaming"));
  }
  SECTION("tests deleted or renamed: dropped, penalized like regressions") {
    const auto scored = score_attack(temp, "drop-tests");
    // Dropped from ctest's own test list (the recorded results are the
    // baseline's, so the evidence comes from the definitions).
    CHECK(contains(tamper_kinds(scored.entry), "dropped"));
    CHECK(gate_failed(scored.entry, "anti_gaming"));
  }
  SECTION("a CMake option default flipped so tests are not built") {
    const auto scored = score_attack(temp, "tests-option-off");
    CHECK_FALSE(scored.entry["anti_gaming"]["tests_not_built"].empty());
    CHECK(gate_failed(scored.entry, "anti_gaming"));
    CHECK(scored.markdown.find("tests not built") != std::string::npos);
  }
  SECTION("add_test calls removed so tests are not registered") {
    const auto scored = score_attack(temp, "tests-unregistered");
    CHECK_FALSE(scored.entry["anti_gaming"]["tests_not_built"].empty());
    CHECK(gate_failed(scored.entry, "anti_gaming"));
  }
}
