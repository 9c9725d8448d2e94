// Hostile input through the command line: files shaped by a candidate (its
// test names, its diff) or by an attacker. Each case is one finding of a
// fuzzing and hand-made-file review; none may crash the tool, end in
// "internal error", or stop the other candidates from being ranked.
// The hostile files are made here (hand-made malformed inputs); the rest of
// each run comes from the recorded fixtures of tests/fixtures/runs/raw/.
#include "cli/cli_support.hpp"

#include <hydra/util/sha256.hpp>

#include <string>
#include <vector>

using cli_test::run_tool;
using nlohmann::json;

namespace {

/// A temporary directory with the recorded baseline run and the recorded
/// clean-fix candidate (both from raw artifacts, with example-project's
/// hydra.toml in the baseline).
class HostileFixture {
 public:
  HostileFixture() {
    auto baseline = cli_test::record_arguments("baseline", "baseline");
    baseline.insert(baseline.end(), {"--config", cli_test::example_config.string()});
    const auto recorded = run_tool(baseline, dir.path());
    INFO(recorded.output);
    REQUIRE(recorded.exit_code == 0);
    const auto fix = run_tool(cli_test::record_arguments("clean-fix", "clean-fix"), dir.path());
    INFO(fix.output);
    REQUIRE(fix.exit_code == 0);
  }

  std::string write(const std::string& name, const std::string& bytes) const {
    cli_test::write_bytes(dir.path() / name, bytes);
    return name;
  }

  cli_test::ToolResult run(const std::vector<std::string>& arguments) const { return run_tool(arguments, dir.path()); }

  /// `record --out hostile --agent hostile --build-exit 0` plus `arguments`.
  cli_test::ToolResult record_hostile(const std::vector<std::string>& arguments) const {
    std::vector<std::string> all = {"record", "--out", "hostile", "--agent", "hostile", "--build-exit", "0"};
    all.insert(all.end(), arguments.begin(), arguments.end());
    return run(all);
  }

  /// Scores clean-fix and hostile against the baseline; the contract.
  json score_both() const {
    const auto result = run({"score", "--quiet", "--no-gate-exit", "--baseline", "baseline", "--candidate",
                             "clean-fix", "--candidate", "hostile", "--json", "score.json", "--sarif",
                             "score.sarif", "--markdown", "score.md", "--html", "score.html"});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return cli_test::read_json(dir.path() / "score.json");
  }

  bool hostile_written() const { return std::filesystem::exists(dir.path() / "hostile"); }

  hydra::util::TempDir dir{"hydra-cli-hostile"};
};

/// A clean input error: exit 2, the file named, no "internal error".
void check_input_error(const cli_test::ToolResult& result, const std::string& file) {
  CAPTURE(result.exit_code, result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find(file) != std::string::npos);
  CHECK(result.output.find("internal error") == std::string::npos);
}

const std::string replacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

TEST_CASE("record reads JUnit suites nested 50,000 deep without recursion", "[cli][hostile]") {
  HostileFixture fixture;
  // Once a segmentation fault (recursion in the JUnit reader), for both
  // <testsuite> and <testsuites>. One test case at the innermost level.
  const std::size_t depth = 50000;
  for (const std::string element : {"testsuite", "testsuites"}) {
    CAPTURE(element);
    std::string xml = "<testsuites>";
    for (std::size_t i = 0; i < depth; ++i) xml += "<" + element + " name=\"s\">";
    xml += "<testsuite name=\"deep\"><testcase classname=\"deep\" name=\"bottom\"/></testsuite>";
    for (std::size_t i = 0; i < depth; ++i) xml += "</" + element + ">";
    xml += "</testsuites>";
    std::filesystem::remove_all(fixture.dir.path() / "hostile");
    const auto result = fixture.record_hostile({"--junit", fixture.write("nested.xml", xml)});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const json signals = cli_test::read_json(fixture.dir.path() / "hostile" / "signals.json");
    // The one test case at the bottom, found and passed.
    CHECK(signals["tests"]["total"] == 1);
    CHECK(signals["tests"]["passed"] == 1);
  }
}

TEST_CASE("record rejects ctest JSON whose values have the wrong type as input errors", "[cli][hostile]") {
  HostileFixture fixture;
  // Once "internal error: [json.exception.type_error.302] type must be string".
  for (const std::string text : {R"({"kind": 1})", R"({"kind": {}})", R"({"kind": null})"}) {
    CAPTURE(text);
    const auto file = fixture.write("ctest.json", text);
    const auto result = fixture.record_hostile({"--ctest-json", file});
    check_input_error(result, file);
    CHECK(result.output.find("/kind") != std::string::npos);
    CHECK_FALSE(fixture.hostile_written());
  }
  SECTION("a version number beyond int is not read as 1") {
    // 2^32 + 1 would become 1 if it were narrowed to int.
    const auto file = fixture.write(
        "ctest.json", R"({"kind": "ctestInfo", "version": {"major": 4294967297, "minor": 0}, "tests": []})");
    const auto result = fixture.record_hostile({"--ctest-json", file});
    check_input_error(result, file);
    CHECK(result.output.find("/version/major") != std::string::npos);
  }
}

TEST_CASE("record rejects a diff --git line without paths as an input error", "[cli][hostile]") {
  HostileFixture fixture;
  // The 14 bytes once gave "internal error: basic_string_view::substr".
  const auto file = fixture.write("short.diff", "diff --git a b");
  const auto result = fixture.record_hostile({"--diff", file});
  check_input_error(result, file);
  CHECK(result.output.find(file + ":1: ") != std::string::npos);
  CHECK_FALSE(fixture.hostile_written());
}

TEST_CASE("invalid UTF-8 in a candidate's test names or diff paths does not stop the ranking",
          "[cli][hostile]") {
  HostileFixture fixture;
  // Once: recorded fine, then every `score` including the run failed with
  // "internal error: [json.exception.type_error.316] invalid UTF-8 byte".
  // The real clean-fix JUnit with one test renamed to carry the bytes FF FE,
  // and the real diff with a file renamed to carry the byte C3 (truncated).
  std::string junit = cli_test::read_bytes(cli_test::raw_dir / "clean-fix" / "junit.xml");
  const auto name = junit.find("name=\"", junit.find("<testcase"));
  REQUIRE(name != std::string::npos);
  junit.insert(name + 6, "\xFF\xFE");
  std::string diff = cli_test::read_bytes(cli_test::raw_dir / "clean-fix" / "diff.patch");
  const std::string header = "diff --git a/";
  REQUIRE(diff.rfind(header, 0) == 0);
  const auto path_end = diff.find(' ', header.size());
  const std::string path = diff.substr(header.size(), path_end - header.size());
  std::string renamed;
  for (std::size_t at = 0; at < diff.size();) {  // every occurrence of the path: a/, b/, ---, +++
    const auto found = diff.find(path, at);
    if (found == std::string::npos) {
      renamed += diff.substr(at);
      break;
    }
    renamed += diff.substr(at, found - at) + path + "\xC3";
    at = found + path.size();
  }

  const auto recorded = fixture.record_hostile({"--junit", fixture.write("junit.xml", junit), "--diff",
                                                fixture.write("diff.patch", renamed)});
  INFO(recorded.output);
  REQUIRE(recorded.exit_code == 0);
  const json contract = fixture.score_both();
  CHECK(cli_test::ranked_agents(contract).size() == 2);
  const json& hostile = cli_test::ranking_of(contract, "hostile");
  // One replacement in the JUnit (FF and FE are two invalid bytes: two
  // replacements), one per path occurrence kept in the diff (path and old path).
  const json notes = hostile["run"]["input_notes"];
  REQUIRE(notes.size() == 2);
  CHECK(notes[0] == "diff.patch: 2 invalid UTF-8 sequences replaced by U+FFFD");
  CHECK(notes[1] == "junit/0.xml: 2 invalid UTF-8 sequences replaced by U+FFFD");
  // The renamed test is new to the baseline: listed as added, with U+FFFD.
  bool found_replaced = false;
  for (const auto& test : hostile["tests"]["added"])
    if (test["name"].get<std::string>().rfind(replacement + replacement, 0) == 0) found_replaced = true;
  CHECK(found_replaced);
  // The clean candidate has nothing to note.
  CHECK_FALSE(cli_test::ranking_of(contract, "clean-fix")["run"].contains("input_notes"));
}

TEST_CASE("compare rejects counts above 2^53 naming the value's position", "[cli][hostile]") {
  HostileFixture fixture;
  // Once accepted and reported as "passed checks dropped from 1 to
  // 18446744073709551615" (a signed cast of the count).
  const auto reference = fixture.write(
      "reference.json", R"({"schema": "hydra-score/tasks/1", "tasks": [{"id": "t", "objective": {"passed": 1, "total": 1}}]})");
  for (const std::string count : {"18446744073709551615", "9223372036854775808", "9007199254740993"}) {
    CAPTURE(count);
    const auto candidate = fixture.write(
        "candidate.json", "{\"schema\": \"hydra-score/tasks/1\", \"tasks\": [{\"id\": \"t\", \"objective\": {\"passed\": " +
                              count + ", \"total\": " + count + "}}]}");
    const auto result = fixture.run({"compare", "--reference", reference, "--candidate", candidate});
    check_input_error(result, candidate);
    // Line 1, column of "passed" (the first count): its JSON pointer and position.
    CHECK(result.output.find("candidate.json:1:") != std::string::npos);
    CHECK(result.output.find("/tasks/0/objective/passed") != std::string::npos);
    CHECK(result.output.find("out of range") != std::string::npos);
  }
  SECTION("2^53 itself is a valid count") {
    const auto candidate = fixture.write(
        "candidate.json", R"({"schema": "hydra-score/tasks/1", "tasks": [{"id": "t", "objective": {"passed": 9007199254740992, "total": 9007199254740992}}]})");
    const auto result = fixture.run({"compare", "--reference", reference, "--candidate", candidate});
    INFO(result.output);
    CHECK((result.exit_code == 0 || result.exit_code == 4 || result.exit_code == 5));
  }
}

TEST_CASE("a flood of lint findings is listed up to 25,000 per list and per SARIF run, the rest counted",
          "[cli][hostile]") {
  HostileFixture fixture;
  // The real first finding of clean-fix's clang-tidy log, repeated on
  // distinct lines: 25,010 findings for "flood", 5,000 for "trickle".
  const std::string log = cli_test::read_bytes(cli_test::raw_dir / "clean-fix" / "clang-tidy.log");
  const auto start = log.find("/tmp/");
  const auto colon = log.find(':', start);
  REQUIRE((start != std::string::npos && colon != std::string::npos));
  const std::string file = log.substr(start, colon - start);
  const auto rest_start = log.find(':', colon + 1);  // after "file:LINE"
  const std::string rest = log.substr(rest_start, log.find('\n', rest_start) - rest_start);
  const auto flood = [&](std::size_t count) {
    std::string text;
    for (std::size_t line = 1; line <= count; ++line) text += file + ":" + std::to_string(line) + rest + "\n";
    return text;
  };
  for (const auto& [agent, count] : {std::pair<std::string, std::size_t>{"flood", 25010}, {"trickle", 5000}}) {
    const auto recorded = fixture.run({"record", "--out", agent, "--agent", agent, "--build-exit", "0",
                                       "--lint-log", fixture.write(agent + ".log", flood(count))});
    INFO(recorded.output);
    REQUIRE(recorded.exit_code == 0);
  }
  const auto scored = fixture.run({"score", "--quiet", "--no-gate-exit", "--baseline", "baseline", "--candidate",
                                   "flood", "--candidate", "trickle", "--json", "score.json", "--sarif",
                                   "score.sarif", "--markdown", "score.md"});
  INFO(scored.output);
  REQUIRE(scored.exit_code == 0);
  const json contract = cli_test::read_json(fixture.dir.path() / "score.json");
  // The baseline has none of these lines' findings: all are new.
  const json& flooded = cli_test::ranking_of(contract, "flood");
  CHECK(flooded["dimensions"]["lint"]["evidence"]["introduced_findings"] == 25010);
  CHECK(flooded["lint"]["introduced"].size() == 25000);
  CHECK(flooded["lint"]["introduced_omitted"] == 10);  // 25,010 - 25,000
  const json& trickle = cli_test::ranking_of(contract, "trickle");
  CHECK(trickle["lint"]["introduced"].size() == 5000);
  CHECK_FALSE(trickle["lint"].contains("introduced_omitted"));

  const json sarif = cli_test::read_json(fixture.dir.path() / "score.sarif");
  // One clang-tidy run: 25,000 + 5,000 listed by the contract, cut to 25,000.
  std::size_t clang_tidy_runs = 0;
  for (const auto& run : sarif["runs"]) {
    if (run["tool"]["driver"]["name"] != "clang-tidy") continue;
    ++clang_tidy_runs;
    CHECK(run["results"].size() == 25000);
    CHECK(run["properties"]["hydraOmittedResults"] == 5000);  // 30,000 - 25,000
  }
  CHECK(clang_tidy_runs == 1);
  CHECK(sarif["properties"]["hydraUnlistedFindings"] == 10);  // not in the contract

  const std::string markdown = cli_test::read_bytes(fixture.dir.path() / "score.md");
  CHECK(markdown.find("New lint findings (25010)") != std::string::npos);
  // 50 rows shown: 24,960 more, of which the contract lists 25,000 in all.
  CHECK(markdown.find("…and 24960 more (the JSON contract lists 25000)") != std::string::npos);
}

TEST_CASE("a resealed manifest with a wrong-typed key is an input error naming the key", "[cli][hostile]") {
  HostileFixture fixture;
  // A seal proves only that the files match the manifest: anyone can write
  // a manifest and its seal. Once: "internal error: [json.exception.type_error.302]".
  const auto forge = [&](const std::string& pointer, const json& value) {
    const auto file = fixture.dir.path() / "clean-fix" / "manifest.json";
    json manifest = cli_test::read_json(file);
    manifest[json::json_pointer(pointer)] = value;
    json unsealed = manifest;
    unsealed.erase("seal");
    manifest["seal"] = hydra::util::sha256_hex(unsealed.dump());
    cli_test::write_bytes(file, manifest.dump(2) + "\n");
  };
  for (const auto& [pointer, value] : std::vector<std::pair<std::string, json>>{
           {"/agent", 5}, {"/build/exit_code", "0"}, {"/tools", json::array()}, {"/problems", {{{"x", 1}}}},
           {"/artifacts/0", 1}}) {  // checked while verifying the seal
    CAPTURE(pointer);
    const auto original = cli_test::read_bytes(fixture.dir.path() / "clean-fix" / "manifest.json");
    forge(pointer, value);
    const auto result = fixture.run({"score", "--baseline", "baseline", "--candidate", "clean-fix"});
    check_input_error(result, "clean-fix/manifest.json");
    CHECK(result.output.find("\"" + pointer) != std::string::npos);
    cli_test::write_bytes(fixture.dir.path() / "clean-fix" / "manifest.json", original);
  }
}
