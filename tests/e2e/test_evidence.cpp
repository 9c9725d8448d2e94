// End to end: a candidate's own code (here, its test) tries to tamper with
// the evidence and to forge results. Real cmake, ctest and git.
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

/// A tiny project with one real test, committed as the baseline.
void make_tiny_repository(const fs::path& source, const std::string& test_body) {
  fs::create_directories(source);
  hydra::util::write_file_atomic(source / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(tiny LANGUAGES CXX)
enable_testing()
add_executable(tiny_test tiny_test.cpp)
add_test(NAME tiny.adds COMMAND tiny_test)
)");
  hydra::util::write_file_atomic(source / "tiny_test.cpp", test_body);
  git(source, {"init", "--quiet"});
  git(source, {"add", "--all"});
  git(source, {"commit", "--quiet", "-m", "tiny"});
}

hydra::util::ProcessResult capture(const fs::path& source, const fs::path& out, const fs::path& tree,
                                      std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {kTool.string(), "capture", "--source", source.string(), "--out", out.string(),
                                   "--build-dir", tree.string(), "--generator", "Ninja", "--jobs", "2"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run(argv);
}

}  // namespace

TEST_CASE("a candidate's test cannot rewrite the baseline's evidence or forge its own results",
          "[e2e][anti_gaming]") {
  hydra::util::TempDir temp("hydra-evidence");
  const fs::path source = temp.path() / "tiny";
  const fs::path runs = temp.path() / "runs";
  make_tiny_repository(source, "int main() { return 0; }\n");
  const auto baseline = capture(source, runs / "baseline", temp.path() / "tree-baseline");
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  const fs::path target = runs / "baseline" / "junit" / "0.xml";
  REQUIRE(fs::exists(target));

  // The agent's change: the test now fails for real, but it rewrites the
  // baseline's JUnit to make the baseline look worse, writes a fake passing
  // JUnit file where a naive tool might look, and prints a fake ctest summary.
  hydra::util::write_file_atomic(source / "tiny_test.cpp", R"(#include <cstdio>
int main() {
  if (std::FILE* baseline = std::fopen(")" + target.string() + R"(", "w")) {
    std::fputs("<testsuite name=\"forged\" tests=\"1\" failures=\"1\"><testcase name=\"tiny.adds\" status=\"fail\"/></testsuite>", baseline);
    std::fclose(baseline);
  }
  if (std::FILE* fake = std::fopen("junit.xml", "w")) {
    std::fputs("<testsuite name=\"ctest\" tests=\"1\"><testcase name=\"tiny.adds\" status=\"run\"/></testsuite>", fake);
    std::fclose(fake);
  }
  std::puts("100% tests passed, 0 tests failed out of 1");
  return 1;
}
)");

  SECTION("with the sandbox: the write is blocked and the result is the real one") {
    const auto candidate = capture(source, runs / "agent", temp.path() / "tree-agent",
                                   {"--baseline-run", (runs / "baseline").string()});
    INFO(candidate.output);
    REQUIRE(candidate.exit_code == 0);
    const auto manifest = read_json(runs / "agent" / "manifest.json");
    const std::string sandbox = manifest["sandbox"];
    const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                             (runs / "agent").string(), "--json", (temp.path() / "score.json").string()});
    INFO(scored.output);
    if (sandbox.rfind("bubblewrap", 0) == 0) {
      // Blocked: the baseline is intact and scoring goes ahead.
      CHECK(scored.exit_code == 3);  // not mergeable: the test really fails
      const auto contract = read_json(temp.path() / "score.json");
      const auto& entry = contract["rankings"][0];
      CHECK(entry["run"]["sandbox"] == sandbox);
      CHECK(entry["breakdown"]["tests"] == 0);  // the forged summary and JUnit changed nothing
      CHECK(test_names(entry["tests"]["regressed"]) == std::vector<std::string>{"tiny.adds"});
    } else {
      // No sandbox here: the write went through, and the seal catches it.
      CHECK(scored.exit_code == 7);
      CHECK(scored.output.find(target.string()) != std::string::npos);
    }
  }

  SECTION("without the sandbox: the seal catches the rewritten baseline, never a score") {
    const auto candidate = capture(source, runs / "agent", temp.path() / "tree-agent",
                                   {"--baseline-run", (runs / "baseline").string(), "--no-sandbox"});
    INFO(candidate.output);
    REQUIRE(candidate.exit_code == 0);
    CHECK(read_json(runs / "agent" / "manifest.json")["sandbox"] == "none: disabled (--no-sandbox)");
    const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                             (runs / "agent").string()});
    CHECK(scored.exit_code == 7);
    CHECK(scored.output.find(target.string()) != std::string::npos);
    CHECK(scored.output.find("does not match the digest") != std::string::npos);
  }
}
