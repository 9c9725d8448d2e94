// `hydra-score record` of the other profiles' artifacts: cargo test's output,
// cargo's JSON messages, ESLint's JSON, flake8 text (the parser fixtures,
// recorded from the real tools by tests/fixtures/parse/record.sh).
#include "cli/cli_support.hpp"

namespace fs = std::filesystem;
using cli_test::run_tool;
using nlohmann::json;

namespace {

const fs::path parse_fixtures = cli_test::fixtures_dir / "parse";

json signals_of(const fs::path& run) { return json::parse(cli_test::read_bytes(run / "signals.json")); }

}  // namespace

TEST_CASE("record reads cargo test output and cargo's JSON lint messages", "[cli]") {
  hydra::util::TempDir dir("hydra-cli-record-rust");
  const auto recorded =
      run_tool({"record", "--out", "run", "--profile", "rust", "--build-exit", "0", "--cargo-test-log",
                (parse_fixtures / "libtest.log").string(), "--lint-log", (parse_fixtures / "clippy.json").string(),
                "--lint-format", "clippy-json"},
               dir.path());
  INFO(recorded.output);
  REQUIRE(recorded.exit_code == 0);
  const json signals = signals_of(dir.path() / "run");
  // libtest.log: the unit tests (2 ok, 3 FAILED, 2 ignored), tests/api.rs
  // (2 ok), the doc-tests (2 ok, 1 FAILED): 12 tests, 6 + 4 + 2.
  CHECK(signals["tests"]["total"] == 12);
  CHECK(signals["tests"]["passed"] == 6);
  CHECK(signals["tests"]["failed"] == 4);
  CHECK(signals["tests"]["skipped"] == 2);
  // clippy.json: clippy::needless_return and rustc's unused_variables, both
  // errors under -D warnings.
  CHECK(signals["lint"]["errors"] == 2);
  CHECK(signals["lint"]["by_tool"]["clippy"] == 1);
  CHECK(signals["lint"]["by_tool"]["rustc"] == 1);
  const json manifest = json::parse(cli_test::read_bytes(dir.path() / "run" / "manifest.json"));
  CHECK(manifest["profile"] == "rust");
  const auto replayed = run_tool({"replay", "run"}, dir.path());
  CHECK(replayed.exit_code == 0);
}

TEST_CASE("record reads ESLint's JSON and flake8 text, and refuses a log that is not in the format named", "[cli]") {
  hydra::util::TempDir dir("hydra-cli-record-lint");
  const auto eslint = run_tool({"record", "--out", "js", "--lint-log", (parse_fixtures / "eslint.json").string(),
                                "--lint-format", "eslint-json", "--profile", "js-node"},
                               dir.path());
  INFO(eslint.output);
  REQUIRE(eslint.exit_code == 0);
  // eslint.json: six messages (3 errors, 3 warnings; the parser tests list them).
  CHECK(signals_of(dir.path() / "js")["lint"]["by_tool"]["eslint"] == 6);
  const auto flake8 = run_tool({"record", "--out", "py", "--lint-log", (parse_fixtures / "flake8.log").string(),
                                "--lint-format", "flake8", "--profile", "python"},
                               dir.path());
  INFO(flake8.output);
  REQUIRE(flake8.exit_code == 0);
  // flake8.log: ten lines, one finding each (F401, F841, E711, ... W291).
  CHECK(signals_of(dir.path() / "py")["lint"]["by_tool"]["flake8"] == 10);

  const auto wrong = run_tool({"record", "--out", "bad", "--lint-log", (parse_fixtures / "clang_tidy.log").string(),
                               "--lint-format", "eslint-json"},
                              dir.path());
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.output.find("clang_tidy.log:1:") != std::string::npos);  // the file, line and column
  CHECK_FALSE(fs::exists(dir.path() / "bad"));
  const auto unknown = run_tool({"record", "--out", "bad", "--lint-format", "pylint"}, dir.path());
  CHECK(unknown.exit_code == 2);
}
