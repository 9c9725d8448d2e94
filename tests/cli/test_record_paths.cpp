// `hydra-score record` makes the logs' absolute paths relative to their
// checkout, like `capture` does: the same clang-tidy finding reported under
// two checkouts (/ci/base/src/x.cpp, /ci/cand/src/x.cpp) is not new
// (docs/record.md, docs/formulas.md "Lint"). The logs are the real clang-tidy
// logs of tests/fixtures/runs/raw/ with their checkout folder renamed.
#include "cli/cli_support.hpp"

#include <string>
#include <vector>

using cli_test::run_tool;
using nlohmann::json;

namespace {

/// The recorded clang-tidy log of raw/`name` as if run in the checkout `root`.
std::string log_in_checkout(const std::string& name, const std::string& root) {
  std::string log = cli_test::read_bytes(cli_test::raw_dir / name / "clang-tidy.log");
  const std::string recorded = "/tmp/hydra-runs-record/raw/tree";
  for (auto at = log.find(recorded); at != std::string::npos; at = log.find(recorded, at + root.size()))
    log.replace(at, recorded.size(), root);
  return log;
}

struct Checkouts {
  hydra::util::TempDir dir{"hydra-cli-paths"};

  Checkouts() {
    // baseline: 2 warnings in src/frequency.cpp; clean-fix: the same 2
    // (the fix touches src/count.cpp, tests/ and nothing of frequency.cpp).
    cli_test::write_bytes(dir.path() / "base.log", log_in_checkout("baseline", "/ci/base"));
    cli_test::write_bytes(dir.path() / "cand.log", log_in_checkout("clean-fix", "/ci/cand"));
    cli_test::write_bytes(dir.path() / "hydra.toml", "[scoring.lint]\nmatch = \"fingerprint\"\n");
  }

  void record(std::vector<std::string> arguments) const {
    const auto result = run_tool(arguments, dir.path());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  }

  json score() const {
    const auto result = run_tool({"score", "--quiet", "--no-gate-exit", "--baseline", "baseline", "--candidate",
                                  "candidate", "--json", "score.json", "--markdown", "score.md", "--sarif",
                                  "score.sarif"},
                                 dir.path());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return json::parse(cli_test::read_bytes(dir.path() / "score.json"));
  }
};

const std::string diff_file = (cli_test::raw_dir / "clean-fix" / "diff.patch").string();

}  // namespace

TEST_CASE("record makes lint paths relative to their checkout", "[cli][record]") {
  Checkouts checkouts;

  SECTION("by default: the candidate's checkout from its diff, the baseline's at scoring") {
    checkouts.record({"record", "--out", "baseline", "--agent", "baseline", "--build-exit", "0", "--lint-log",
                      "base.log", "--config", "hydra.toml"});
    checkouts.record({"record", "--out", "candidate", "--agent", "candidate", "--build-exit", "0", "--lint-log",
                      "cand.log", "--diff", diff_file});
    // The candidate's log: common folder /ci/cand/src; "frequency.cpp" is not
    // a diff path and "src" is the first part of src/count.cpp one folder up:
    // the checkout is /ci/cand.
    const json manifest = json::parse(cli_test::read_bytes(checkouts.dir.path() / "candidate" / "manifest.json"));
    CHECK(manifest["source_roots"] == json::array({"/ci/cand"}));

    const json contract = checkouts.score();
    const json& lint = contract["rankings"][0]["dimensions"]["lint"];
    // fingerprint mode: both findings match (src/frequency.cpp on both sides):
    // new 0, resolved 0 -> 100 (was 2 new warnings, 2 resolved: 100 - 2*2 + 2 = 98)
    CHECK(lint["score"] == 100.0);
    CHECK(lint["evidence"]["new_warnings"] == 0);
    CHECK(contract["rankings"][0]["lint"]["introduced"].empty());
    const std::string markdown = cli_test::read_bytes(checkouts.dir.path() / "score.md");
    const std::string sarif = cli_test::read_bytes(checkouts.dir.path() / "score.sarif");
    CHECK(markdown.find("/ci/") == std::string::npos);
    CHECK(sarif.find("frequency.cpp") == std::string::npos);  // no new finding listed
  }

  SECTION("--source-root names the checkouts, repeatable") {
    checkouts.record({"record", "--out", "baseline", "--agent", "baseline", "--build-exit", "0", "--lint-log",
                      "base.log", "--config", "hydra.toml", "--source-root", "/ci/base", "--source-root",
                      "/elsewhere/"});
    // No diff: nothing to infer a checkout from, only --source-root relates them.
    checkouts.record({"record", "--out", "candidate", "--agent", "candidate", "--build-exit", "0", "--lint-log",
                      "cand.log", "--source-root", "/ci/cand"});
    const json manifest = json::parse(cli_test::read_bytes(checkouts.dir.path() / "baseline" / "manifest.json"));
    CHECK(manifest["source_roots"] == json::array({"/ci/base", "/elsewhere"}));

    const json contract = checkouts.score();
    // both sides src/frequency.cpp: new 0, resolved 0 -> 100
    CHECK(contract["rankings"][0]["dimensions"]["lint"]["score"] == 100.0);
    CHECK(contract["rankings"][0]["lint"]["introduced"].empty());
    // replay re-derives the run's signals with the same roots
    const auto replayed = run_tool({"replay", "baseline"}, checkouts.dir.path());
    INFO(replayed.output);
    CHECK(replayed.exit_code == 0);
  }
}
