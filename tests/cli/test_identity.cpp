// Same code, same verdict: equivalent runs recorded from real tools (tests in
// another order, code moved down by a line) score the same; tests sharing a
// name in several places are never paired by position. Fixtures:
// tests/fixtures/identity/ (record.sh there).
#include "cli/cli_support.hpp"

namespace fs = std::filesystem;
using cli_test::ranking_of;
using cli_test::read_json;
using cli_test::run_tool;
using nlohmann::json;

namespace {

const fs::path identity = cli_test::fixtures_dir / "identity";

/// Records a run `name` in `directory` from `arguments` (artifact options).
void record(const fs::path& directory, const std::string& name, std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {"record", "--out", name, "--agent", name});
  const auto recorded = run_tool(arguments, directory);
  INFO(recorded.output);
  REQUIRE(recorded.exit_code == 0);
}

/// Scores `candidates` against the run "baseline" in `directory`: the contract.
json score(const fs::path& directory, const std::vector<std::string>& candidates) {
  std::vector<std::string> arguments = {"score", "--baseline", "baseline", "--json", "score.json", "--quiet",
                                        "--no-gate-exit"};
  for (const auto& candidate : candidates) arguments.insert(arguments.end(), {"--candidate", candidate});
  const auto scored = run_tool(arguments, directory);
  INFO(scored.output);
  REQUIRE(scored.exit_code == 0);
  return read_json(directory / "score.json");
}

std::vector<std::string> junit(const std::string& file) { return {"--junit", (identity / file).string()}; }

/// The tests dimension of `agent`, and its lists of changed tests.
const json& tests_of(const json& contract, const std::string& agent) {
  return ranking_of(contract, agent)["dimensions"]["tests"];
}

}  // namespace

TEST_CASE("the same tests in another order score the same", "[cli][identity]") {
  hydra::util::TempDir dir("hydra-cli-identity-order");
  SECTION("jest (capture's jest-junit settings): the other file ran first") {
    record(dir.path(), "baseline", junit("jest_capture_alpha_first.xml"));
    record(dir.path(), "same-order", junit("jest_capture_alpha_first.xml"));
    record(dir.path(), "other-order", junit("jest_capture_beta_first.xml"));
  }
  SECTION("pytest: the other module ran first, a teardown error belongs to its test") {
    record(dir.path(), "baseline", junit("pytest_alpha_first.xml"));
    record(dir.path(), "same-order", junit("pytest_alpha_first.xml"));
    record(dir.path(), "other-order", junit("pytest_beta_first.xml"));
  }
  SECTION("cargo test: five lines added above the doc tests") {
    const auto log = [](const std::string& file) {
      return std::vector<std::string>{"--profile", "rust", "--cargo-test-log", (identity / file).string()};
    };
    record(dir.path(), "baseline", log("cargo_base.log"));
    record(dir.path(), "same-order", log("cargo_base.log"));
    record(dir.path(), "other-order", log("cargo_doc_lines.log"));
  }
  const json contract = score(dir.path(), {"same-order", "other-order"});
  const json& same = ranking_of(contract, "same-order");
  const json& other = ranking_of(contract, "other-order");
  CHECK(same["total"] == other["total"]);
  CHECK(same["mergeable"] == other["mergeable"]);
  CHECK(same["dimensions"]["tests"] == other["dimensions"]["tests"]);
  CHECK(other["tests"]["regressed"].empty());
  CHECK(other["tests"]["dropped"].empty());
  CHECK(other["tests"]["added"].empty());
  CHECK(other["tests"]["duplicates"].empty());
}

TEST_CASE("tests sharing a name are paired by identity, a duplicated identity is named", "[cli][identity]") {
  hydra::util::TempDir dir("hydra-cli-identity-names");
  SECTION("cargo workspace: a new crate's failing tests::it_works is added, not the old crate's regression") {
    const auto log = [](const std::string& file) {
      return std::vector<std::string>{"--profile", "rust", "--cargo-test-log", (identity / file).string()};
    };
    record(dir.path(), "baseline", log("cargo_base.log"));
    record(dir.path(), "new-crate", log("cargo_new_crate.log"));
    const json contract = score(dir.path(), {"new-crate"});
    const json& ranked = ranking_of(contract, "new-crate");
    CHECK(ranked["tests"]["regressed"].empty());
    CHECK(ranked["tests"]["duplicates"].empty());
    // banner's it_works and api_works: new tests that fail.
    REQUIRE(ranked["tests"]["added"].size() == 2);
    CHECK(ranked["tests"]["added"][0]["id"] == "banner/tests/api.rs::api_works");
    CHECK(ranked["tests"]["added"][1]["id"] == "banner/unittests src/lib.rs::tests::it_works");
    CHECK(tests_of(contract, "new-crate")["evidence"]["regressed"] == 0);
  }
  SECTION("node --test, HydraScore's reporter: a new file's failing `adds` is its own test") {
    record(dir.path(), "baseline", junit("node_hydra_base.xml"));
    record(dir.path(), "new-file", junit("node_hydra_new_file.xml"));
    const json contract = score(dir.path(), {"new-file"});
    const json& ranked = ranking_of(contract, "new-file");
    CHECK(ranked["tests"]["regressed"].empty());
    CHECK(ranked["tests"]["duplicates"].empty());
    // adds (failed), math > adds (passed), later (todo: skipped).
    CHECK(ranked["tests"]["added"].size() == 3);
    const json& evidence = tests_of(contract, "new-file")["evidence"];
    // The baseline's 3 tests pass; the candidate ran 5 (the todo is skipped): 4 passed.
    CHECK(evidence["B_pass"] == 3);
    CHECK(evidence["A_total"] == 5);
    CHECK(evidence["A_pass"] == 4);
    CHECK(evidence["A_skipped"] == 1);
  }
  SECTION("node --test, node's own reporter: the new file makes `test::adds` ambiguous, against the candidate") {
    record(dir.path(), "baseline", junit("node_plain_base.xml"));
    record(dir.path(), "new-file", junit("node_plain_new_file.xml"));
    const json contract = score(dir.path(), {"new-file"});
    const json& ranked = ranking_of(contract, "new-file");
    // node names no file: the baseline's passing `test::adds` has two
    // candidate tests, one failing. Never paired by position: the ambiguity
    // is the candidate's, so its failing one pairs with the baseline's.
    REQUIRE(ranked["tests"]["regressed"].size() == 1);
    CHECK(ranked["tests"]["regressed"][0]["id"] == "test::adds");
    const json& duplicates = ranked["tests"]["duplicates"];
    REQUIRE(duplicates.size() == 2);
    CHECK(duplicates[0] == json{{"id", "test > math::adds"}, {"baseline", 1}, {"candidate", 2},
                                {"introduced_by_candidate", true}});
    CHECK(duplicates[1] == json{{"id", "test::adds"}, {"baseline", 1}, {"candidate", 2},
                                {"introduced_by_candidate", true}});
    CHECK(tests_of(contract, "new-file")["evidence"]["duplicate_identities_introduced"] == 2);
  }
  SECTION("jest-junit's defaults: both files' tests share identities; the baseline's own, in either order") {
    record(dir.path(), "baseline", junit("jest_default_alpha_first.xml"));
    record(dir.path(), "other-order", junit("jest_default_beta_first.xml"));
    const json contract = score(dir.path(), {"other-order"});
    const json& ranked = ranking_of(contract, "other-order");
    // beta's failing `math nested subtracts` ran first now: by position it
    // would pair with alpha's passing one. As a group (one pass, one
    // failure on each side) nothing regressed.
    CHECK(ranked["tests"]["regressed"].empty());
    const json& duplicates = ranked["tests"]["duplicates"];
    REQUIRE(duplicates.size() == 3);  // math adds, math nested subtracts, top level
    for (const auto& duplicate : duplicates) {
      CHECK(duplicate["baseline"] == 2);
      CHECK(duplicate["candidate"] == 2);
      CHECK(duplicate["introduced_by_candidate"] == false);
    }
  }
}

TEST_CASE("lint: a line inserted above changes no finding, a clippy build stopped early never beats a no-op",
          "[cli][identity]") {
  hydra::util::TempDir dir("hydra-cli-identity-lint");
  const auto lint = [](const std::string& format, const std::string& file) {
    return std::vector<std::string>{"--lint-log", (identity / file).string(), "--lint-format", format};
  };
  SECTION("flake8 and ESLint") {
    for (const auto& [format, base, inserted] :
         {std::tuple<std::string, std::string, std::string>{"flake8", "flake8_base.log", "flake8_inserted.log"},
          {"eslint-json", "eslint_base.json", "eslint_inserted.json"}}) {
      CAPTURE(format);
      fs::remove_all(dir.path() / "baseline");
      fs::remove_all(dir.path() / "inserted");
      record(dir.path(), "baseline", lint(format, base));
      record(dir.path(), "inserted", lint(format, inserted));
      const json contract = score(dir.path(), {"inserted"});
      const json& ranked = ranking_of(contract, "inserted");
      CHECK(ranked["lint"]["introduced"].empty());
      CHECK(ranked["lint"]["resolved"].empty());
      CHECK(ranked["dimensions"]["lint"]["score"] == 100.0);
    }
  }
  SECTION("cargo clippy -D warnings") {
    record(dir.path(), "baseline", lint("clippy-json", "clippy_base.json"));
    record(dir.path(), "no-op", lint("clippy-json", "clippy_base.json"));
    record(dir.path(), "new-error", lint("clippy-json", "clippy_new_error.json"));
    const json contract = score(dir.path(), {"no-op", "new-error"});
    const json& no_op = ranking_of(contract, "no-op")["dimensions"]["lint"];
    const json& broken = ranking_of(contract, "new-error")["dimensions"]["lint"];
    CHECK(no_op["score"] == 100.0);
    // core_math's new error stopped cargo before app: app's finding is
    // missing, not resolved. 100 - 1 new error * 12 = 88 (nothing resolved).
    CHECK(broken["score"] == 88.0);
    CHECK(broken["evidence"]["new_errors"] == 1);
    CHECK(broken["evidence"]["resolved"] == 0);
    CHECK(broken["evidence"]["baseline_findings_not_reached"] == 1);
    REQUIRE(broken["evidence"]["incomplete"].size() == 1);
    CHECK(broken["evidence"]["incomplete"][0].get<std::string>().find("success false") != std::string::npos);
    CHECK(ranking_of(contract, "new-error")["lint"]["resolved"].empty());
    CHECK(broken["score"].get<double>() < no_op["score"].get<double>());
  }
}
