// Bad input through the command line: every case exits 2 with a message
// naming the file (and line:column for parse errors), writes no run
// directory, and never crashes or scores a silent zero. The bad files are
// made in the test from the real recorded fixtures (tests/fixtures/runs/raw/).
#include "cli/cli_support.hpp"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

using cli_test::run_tool;
using nlohmann::json;

namespace {

/// A temporary directory with a recorded baseline run (raw/baseline, with
/// example-project's hydra.toml) and room for bad files.
class BadInputFixture {
 public:
  BadInputFixture() {
    auto baseline = cli_test::record_arguments("baseline", "baseline");
    baseline.insert(baseline.end(), {"--config", cli_test::example_config.string()});
    const auto result = run_tool(baseline, dir.path());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  }

  /// Writes `bytes` to `name` in the directory; returns the name.
  std::string write(const std::string& name, const std::string& bytes) const {
    cli_test::write_bytes(dir.path() / name, bytes);
    return name;
  }

  /// `record --out candidate` with `arguments` added to the bare minimum
  /// (agent and build exit code).
  cli_test::ToolResult record_candidate(const std::vector<std::string>& arguments) const {
    std::vector<std::string> all = {"record", "--out", "candidate", "--agent", "candidate", "--build-exit", "0"};
    all.insert(all.end(), arguments.begin(), arguments.end());
    return run_tool(all, dir.path());
  }

  /// `score --json score.json` of the recorded `candidate` against the baseline.
  json score_candidate() const {
    const auto result =
        run_tool({"score", "--quiet", "--no-gate-exit", "--baseline", "baseline", "--candidate", "candidate", "--json",
                  "score.json"},
                 dir.path());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return cli_test::read_json(dir.path() / "score.json");
  }

  bool candidate_written() const { return std::filesystem::exists(dir.path() / "candidate"); }

  hydra::util::TempDir dir{"hydra-cli-bad-input"};
};

/// Checks that `result` is a clean input error: exit 2, one line on stderr
/// naming `file`, followed by `:LINE:COLUMN: ` when `position` is set.
void check_input_error(const cli_test::ToolResult& result, const std::string& file, bool position) {
  CAPTURE(file, result.exit_code, result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find(file) != std::string::npos);
  if (position) {
    const std::regex located(std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                             R"(:[0-9]+:[0-9]+: )");
    CHECK(std::regex_search(result.output, located));
  }
  CHECK(result.output.find("internal error") == std::string::npos);
}

std::string raw(const std::string& name, const std::string& file) {
  return cli_test::read_bytes(cli_test::raw_dir / name / file);
}

}  // namespace

TEST_CASE("record rejects broken JUnit XML naming file, line and column", "[cli]") {
  BadInputFixture fixture;
  const std::string junit = raw("clean-fix", "junit.xml");
  SECTION("valid input") {
    REQUIRE(fixture.record_candidate({"--junit", fixture.write("whole.xml", junit)}).exit_code == 0);
    // 12 of 12 passed, as ctest reported.
    CHECK(fixture.score_candidate()["rankings"][0]["dimensions"]["tests"]["evidence"]["A_pass"] == 12);
  }
  SECTION("bad input: truncated JUnit XML") {
    // The real file cut in the middle of an element.
    const auto cut = junit.find("<testcase", junit.size() / 2);
    REQUIRE(cut != std::string::npos);
    const auto file = fixture.write("truncated.xml", junit.substr(0, cut + 14));
    check_input_error(fixture.record_candidate({"--junit", file}), file, true);
    CHECK_FALSE(fixture.candidate_written());
  }
  SECTION("bad input: XML that is not JUnit") {
    // The real file with its elements renamed: well-formed, but not JUnit.
    const auto file = fixture.write("coverage.xml", std::regex_replace(junit, std::regex("testsuite"), "coverage"));
    const auto result = fixture.record_candidate({"--junit", file});
    check_input_error(result, file, true);
    CHECK(result.output.find("not a JUnit XML document") != std::string::npos);
    CHECK_FALSE(fixture.candidate_written());
  }
  SECTION("bad input: missing file") {
    const auto result = fixture.record_candidate({"--junit", "no-such-junit.xml"});
    check_input_error(result, "no-such-junit.xml", false);
    CHECK_FALSE(fixture.candidate_written());
  }
}

TEST_CASE("record reads lint logs as text: empty is valid, binary and invalid UTF-8 are not", "[cli]") {
  BadInputFixture fixture;
  const std::string log = raw("clean-fix", "clang-tidy.log");
  const auto newline = log.find('\n');
  REQUIRE(newline != std::string::npos);
  SECTION("valid input: an empty lint log is zero findings") {
    REQUIRE(fixture.record_candidate({"--lint-log", fixture.write("empty.log", "")}).exit_code == 0);
    const json lint = fixture.score_candidate()["rankings"][0]["dimensions"]["lint"];
    // Lint ran and found nothing: active. Baseline 0 errors, 2 warnings -> 0, 0:
    // resolved = max(0, (0 + 2) - (0 + 0)) = 2; 100 - 0*12 - 0*2 + 2*1 = 102 -> clamp 100.
    CHECK(lint["active"] == true);
    CHECK(lint["evidence"]["A_warnings"] == 0);
    CHECK(lint["evidence"]["resolved"] == 2);
    CHECK(lint["score"] == Approx(100.0));
  }
  SECTION("valid input: a 10 MB single line does not hide the findings after it") {
    // Decision: a very long line is valid text (clang-tidy prints long
    // template names); the findings on the following lines still count.
    const std::string long_line(10 * 1024 * 1024, 'x');
    REQUIRE(fixture.record_candidate({"--lint-log", fixture.write("long.log", long_line + "\n" + log)}).exit_code == 0);
    const json lint = fixture.score_candidate()["rankings"][0]["dimensions"]["lint"];
    // The real log's 2 warnings, as in the baseline: 100 - 0 - 0 + 0 = 100.
    CHECK(lint["evidence"]["A_warnings"] == 2);
    CHECK(lint["score"] == Approx(100.0));
  }
  SECTION("bad input: a NUL byte (binary log)") {
    // A NUL byte in place of the first newline: line 1, column newline + 1.
    std::string binary = log;
    binary[newline] = '\0';
    const auto file = fixture.write("binary.log", binary);
    const auto result = fixture.record_candidate({"--lint-log", file});
    check_input_error(result, file, true);
    CHECK(result.output.find(file + ":1:" + std::to_string(newline + 1) + ":") != std::string::npos);
    CHECK_FALSE(fixture.candidate_written());
  }
  SECTION("bad input: invalid UTF-8") {
    // A lone continuation byte at the start of line 2.
    std::string invalid = log;
    invalid.insert(newline + 1, "\x80");
    const auto file = fixture.write("latin1.log", invalid);
    const auto result = fixture.record_candidate({"--lint-log", file});
    check_input_error(result, file, true);
    CHECK(result.output.find(file + ":2:1:") != std::string::npos);
    CHECK(result.output.find("UTF-8") != std::string::npos);
    CHECK_FALSE(fixture.candidate_written());
  }
  SECTION("bad input: missing file") {
    check_input_error(fixture.record_candidate({"--lint-log", "no-such.log"}), "no-such.log", false);
    CHECK_FALSE(fixture.candidate_written());
  }
}

TEST_CASE("record rejects metrics JSON with NaN, negative numbers or unknown keys", "[cli]") {
  BadInputFixture fixture;
  SECTION("valid input") {
    // With test results, so the candidate counts as successful (build passed, tests recorded).
    const auto metrics = fixture.write("metrics.json", R"({"duration_seconds": 120, "tokens": 900})");
    REQUIRE(fixture.record_candidate({"--metrics", metrics, "--junit", (cli_test::raw_dir / "clean-fix" / "junit.xml").string()})
                .exit_code == 0);
    // The only candidate is also the fastest successful one: 120/120*100 = 100.
    CHECK(fixture.score_candidate()["rankings"][0]["breakdown"]["speed"] == Approx(100.0));
  }
  SECTION("bad input") {
    struct Case {
      std::string name, content, says;
    };
    for (const Case& bad : {Case{"nan.json", "{\"tokens\": NaN}", "NaN"},
                            Case{"negative.json", "{\"cost_usd\": -0.5}", "negative"},
                            Case{"unknown.json", "{\"duration_seconds\": 10,\n \"tokenz\": 5}", "tokenz"},
                            Case{"truncated.json", "{\"tokens\": 12", "malformed"}}) {
      const auto result = fixture.record_candidate({"--metrics", fixture.write(bad.name, bad.content)});
      check_input_error(result, bad.name, true);
      CHECK(result.output.find(bad.says) != std::string::npos);
      CHECK_FALSE(fixture.candidate_written());
    }
  }
}

TEST_CASE("a malformed hydra.toml is rejected naming the key and its line and column", "[cli]") {
  BadInputFixture fixture;
  // example-project's hydra.toml with a misspelt key under [scoring.gates].
  const std::string config = cli_test::read_bytes(cli_test::example_config);
  const auto gates = config.find("[scoring.gates]\n");
  REQUIRE(gates != std::string::npos);
  const auto insert_at = gates + std::string("[scoring.gates]\n").size();
  const std::string misspelt = config.substr(0, insert_at) + "max_test_regresion_percent = 5\n" + config.substr(insert_at);
  // The inserted line is the one after [scoring.gates].
  const auto line = static_cast<std::size_t>(std::count(config.begin(), config.begin() + static_cast<long>(insert_at), '\n')) + 1;
  const auto file = fixture.write("hydra.toml", misspelt);
  SECTION("valid input") {
    const auto good = fixture.write("good.toml", config);
    REQUIRE(fixture.record_candidate({"--junit", (cli_test::raw_dir / "clean-fix" / "junit.xml").string()}).exit_code == 0);
    const auto result = run_tool({"score", "--quiet", "--baseline", "baseline", "--candidate", "candidate", "--config", good},
                                 fixture.dir.path());
    INFO(result.output);
    CHECK(result.exit_code == 0);  // clean-fix's 12 passing tests, no regression: mergeable
  }
  SECTION("bad input: record --config") {
    const auto result = fixture.record_candidate({"--config", file});
    check_input_error(result, file, true);
    CHECK(result.output.find(file + ":" + std::to_string(line) + ":1:") != std::string::npos);
    CHECK(result.output.find("max_test_regresion_percent") != std::string::npos);
    CHECK_FALSE(fixture.candidate_written());
  }
  SECTION("bad input: score --config") {
    REQUIRE(fixture.record_candidate({}).exit_code == 0);
    const auto result = run_tool({"score", "--baseline", "baseline", "--candidate", "candidate", "--config", file},
                                 fixture.dir.path());
    check_input_error(result, file, true);
    CHECK(result.output.find("max_test_regresion_percent") != std::string::npos);
  }
  SECTION("bad input: a wrong type") {
    const std::string wrong = std::regex_replace(config, std::regex("\nbuild = 30\n"), "\nbuild = \"thirty\"\n");
    REQUIRE(wrong != config);
    const auto result = fixture.record_candidate({"--config", fixture.write("wrong-type.toml", wrong)});
    check_input_error(result, "wrong-type.toml", true);
    CHECK(result.output.find("build") != std::string::npos);
  }
}

TEST_CASE("score refuses duplicate agent names and directories that are not run directories", "[cli]") {
  BadInputFixture fixture;
  for (const char* out : {"first", "second"}) {
    const auto result = run_tool({"record", "--out", out, "--agent", "same-agent", "--build-exit", "0"},
                                 fixture.dir.path());
    REQUIRE(result.exit_code == 0);
  }
  SECTION("valid input") {
    // Each alone is scored. It recorded no tests while the baseline ran 10:
    // tests 0 - 9/9*60 -> clamp 0, and the regression gate fails (fail-closed): exit 3.
    const auto result = run_tool({"score", "--quiet", "--baseline", "baseline", "--candidate", "first"},
                                 fixture.dir.path());
    CHECK(result.exit_code == 3);
  }
  SECTION("bad input: duplicate --agent names") {
    const auto result = run_tool({"score", "--baseline", "baseline", "--candidate", "first", "--candidate", "second",
                                  "--json", "score.json"},
                                 fixture.dir.path());
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("same-agent") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(fixture.dir.path() / "score.json"));
  }
  SECTION("bad input: a directory that is not a run directory") {
    // The raw artifacts themselves: files, but no sealed manifest.
    cli_test::copy_tree(cli_test::raw_dir / "clean-fix", fixture.dir.path() / "artifacts");
    const auto scored = run_tool({"score", "--baseline", "baseline", "--candidate", "artifacts"}, fixture.dir.path());
    check_input_error(scored, "artifacts/manifest.json", false);
    const auto replayed = run_tool({"replay", "artifacts"}, fixture.dir.path());
    check_input_error(replayed, "artifacts/manifest.json", false);
    // record refuses to overwrite it.
    const auto recorded = run_tool({"record", "--out", "artifacts", "--build-exit", "0"}, fixture.dir.path());
    CHECK(recorded.exit_code == 2);
    CHECK(recorded.output.find("artifacts") != std::string::npos);
    CHECK(std::filesystem::exists(fixture.dir.path() / "artifacts" / "junit.xml"));
  }
  SECTION("bad input: a run directory whose manifest is cut short") {
    const auto manifest = fixture.dir.path() / "first" / "manifest.json";
    const std::string text = cli_test::read_bytes(manifest);
    cli_test::write_bytes(manifest, text.substr(0, text.size() / 2));
    const auto result = run_tool({"score", "--baseline", "baseline", "--candidate", "first"}, fixture.dir.path());
    check_input_error(result, "first/manifest.json", true);
  }
}
