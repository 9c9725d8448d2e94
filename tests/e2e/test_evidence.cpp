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
  commit_repository(source, "tiny");
}

hydra::util::ProcessResult capture(const fs::path& source, const fs::path& out, const fs::path& tree,
                                      std::vector<std::string> extra = {}) {
  std::vector<std::string> options = {"--build-dir", tree.string(), "--generator", "Ninja", "--jobs", "2"};
  options.insert(options.end(), extra.begin(), extra.end());
  return run(capture_command(source, out, options));
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
      // No sandbox here: the write went through; the candidate is caught
      // (below) and the baseline captured again.
      CHECK(scored.exit_code == 3);
      CHECK(scored.output.find(target.string()) != std::string::npos);
    }
  }

  SECTION("without the sandbox: the seal catches the rewrite, the candidate is not mergeable, the baseline "
          "is captured again") {
    const std::string baseline_junit = hydra::util::read_file(target);
    const auto candidate = capture(source, runs / "agent", temp.path() / "tree-agent",
                                   {"--baseline-run", (runs / "baseline").string(), "--no-sandbox"});
    INFO(candidate.output);
    REQUIRE(candidate.exit_code == 0);
    const auto manifest = read_json(runs / "agent" / "manifest.json");
    CHECK(manifest["sandbox"] == "none: disabled (--no-sandbox)");
    // The candidate's own manifest names what its code did.
    REQUIRE(manifest["problems"].size() == 1);
    const std::string problem = manifest["problems"][0];
    CHECK(problem.find("modified while this candidate's code ran") != std::string::npos);
    CHECK(problem.find(target.string()) != std::string::npos);
    // The rewritten baseline is kept for review; the new one is sealed and
    // has the real result again.
    CHECK(fs::exists(runs / "baseline.tampered" / "junit" / "0.xml"));
    CHECK(hydra::util::read_file(runs / "baseline.tampered" / "junit" / "0.xml") != baseline_junit);
    CHECK(read_json(runs / "baseline" / "manifest.json")["recaptured"]["reason"].get<std::string>().find(
              target.string()) != std::string::npos);
    const fs::path json_out = temp.path() / "score.json", markdown = temp.path() / "score.md";
    const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                             (runs / "agent").string(), "--json", json_out.string(), "--markdown",
                             markdown.string()});
    INFO(scored.output);
    CHECK(scored.exit_code == 3);  // scored, and not mergeable
    const auto contract = read_json(json_out);
    const auto& entry = contract["rankings"][0];
    CHECK(failed_gates(entry) == std::vector<std::string>{"integrity", "max_test_regression_percent"});
    CHECK(contract["baseline"]["summary"]["tests"]["passed"] == 1);  // the real baseline, not the forged one
    CHECK(contract["baseline"]["recaptured"].get<std::string>().find(target.string()) != std::string::npos);
    CHECK(hydra::util::read_file(markdown).find("The baseline was captured again") != std::string::npos);
  }
}

TEST_CASE("a baseline found corrupted is captured again from its commit and diff, not left blocking",
          "[e2e][anti_gaming]") {
  hydra::util::TempDir temp("hydra-recapture");
  const fs::path source = temp.path() / "tiny";
  const fs::path runs = temp.path() / "runs";
  make_tiny_repository(source, "int main() { return 0; }\n");
  // The baseline is the work tree with an uncommitted change (a second,
  // failing test), so only its recorded diff can reproduce it.
  hydra::util::write_file_atomic(source / "CMakeLists.txt",
                                 hydra::util::read_file(source / "CMakeLists.txt") +
                                     "add_executable(tiny_fails tiny_fails.cpp)\n"
                                     "add_test(NAME tiny.fails COMMAND tiny_fails)\n");
  hydra::util::write_file_atomic(source / "tiny_fails.cpp", "int main() { return 1; }\n");
  const auto baseline = capture(source, runs / "baseline", temp.path() / "tree-baseline");
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  const std::string recorded_diff = hydra::util::read_file(runs / "baseline" / "diff.patch");
  REQUIRE(recorded_diff.find("tiny_fails.cpp") != std::string::npos);
  // Its signals but the build's duration, which differs from run to run.
  const auto signals_of = [&] {
    auto signals = read_json(runs / "baseline" / "signals.json");
    signals["build"].erase("seconds");
    return signals;
  };
  const auto original = signals_of();

  // The candidate fixes the failing test.
  hydra::util::write_file_atomic(source / "tiny_fails.cpp", "int main() { return 0; }\n");

  SECTION("a changed result file: captured again, and the score says so") {
    const fs::path junit = runs / "baseline" / "junit" / "0.xml";
    hydra::util::write_file_atomic(junit, "<testsuite name=\"forged\" tests=\"0\"/>");
    const auto candidate = capture(source, runs / "agent", temp.path() / "tree-agent",
                                   {"--baseline-run", (runs / "baseline").string(), "--no-sandbox"});
    INFO(candidate.output);
    REQUIRE(candidate.exit_code == 0);
    CHECK(candidate.output.find("capturing it again") != std::string::npos);
    // Reproduced: same diff, same signals (tiny.fails fails again).
    CHECK(hydra::util::read_file(runs / "baseline" / "diff.patch") == recorded_diff);
    CHECK(signals_of() == original);
    CHECK(read_json(runs / "agent" / "manifest.json")["problems"].empty());
    const fs::path json_out = temp.path() / "score.json";
    const auto scored = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                             (runs / "agent").string(), "--json", json_out.string()});
    INFO(scored.output);
    CHECK(scored.exit_code == 0);
    const auto contract = read_json(json_out);
    CHECK(contract["baseline"]["recaptured"].get<std::string>().find(junit.string()) != std::string::npos);
    // The reproduced baseline: tiny.adds passes, tiny.fails fails.
    CHECK(contract["baseline"]["summary"]["tests"]["total"] == 2);
    CHECK(contract["baseline"]["summary"]["tests"]["passed"] == 1);
    CHECK(failed_gates(contract["rankings"][0]).empty());
  }

  SECTION("a changed diff cannot be reproduced: exit 7 naming the file, the run left in place") {
    const fs::path diff = runs / "baseline" / "diff.patch";
    hydra::util::write_file_atomic(diff, "");
    const auto candidate = capture(source, runs / "agent", temp.path() / "tree-agent",
                                   {"--baseline-run", (runs / "baseline").string(), "--no-sandbox"});
    CHECK(candidate.exit_code == 7);
    CHECK(candidate.output.find(diff.string()) != std::string::npos);
    CHECK(candidate.output.find("cannot be captured again") != std::string::npos);
    CHECK(fs::exists(runs / "baseline" / "manifest.json"));
    CHECK_FALSE(fs::exists(runs / "agent"));
  }
}
