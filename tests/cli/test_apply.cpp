// hydra-score capture --ref and hydra-score apply on a small real project:
// candidates are branches of a git repository, captured from temporary
// worktrees with real cmake, ctest and git; the chosen one is applied to the
// working tree only after every check passed.
#include "cli_support.hpp"

#include <memory>

#include <hydra/util/process.hpp>

using namespace cli_test;
using hydra::util::TempDir;

namespace {

std::string git(const fs::path& directory, const std::vector<std::string>& arguments) {
  hydra::util::ProcessRequest request;
  request.argv = {"git", "-C", directory.string(), "-c", "user.name=t", "-c", "user.email=t@example.invalid"};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  request.timeout = std::chrono::minutes(2);
  const auto result = hydra::util::run_process(request);
  INFO("git " << arguments.front() << ": " << result.output);
  REQUIRE(result.exit_code == 0);
  return result.output;
}

const char* kCMakeLists = R"(cmake_minimum_required(VERSION 3.20)
project(tiny LANGUAGES CXX)
enable_testing()
add_library(tiny src/tiny.cpp)
target_include_directories(tiny PUBLIC src)
add_executable(tiny_test src/tiny_test.cpp)
target_link_libraries(tiny_test PRIVATE tiny)
add_test(NAME tiny.twice COMMAND tiny_test)
)";

/// A repository: main (the base: `twice` is wrong), agent/good (fixes it and
/// adds a file), agent/broken (does not compile).
void make_repository(const fs::path& repo) {
  write_bytes(repo / "CMakeLists.txt", kCMakeLists);
  write_bytes(repo / "src" / "tiny.hpp", "#pragma once\nint twice(int x);\n");
  write_bytes(repo / "src" / "tiny.cpp", "#include \"tiny.hpp\"\nint twice(int x) { return x + 2; }\n");
  write_bytes(repo / "src" / "tiny_test.cpp",
              "#include \"tiny.hpp\"\nint main() { return twice(2) == 4 && twice(3) == 6 ? 0 : 1; }\n");
  git(repo, {"init", "--quiet", "--initial-branch=main"});
  git(repo, {"add", "--all"});
  git(repo, {"commit", "--quiet", "-m", "base"});

  git(repo, {"checkout", "--quiet", "-b", "agent/good"});
  write_bytes(repo / "src" / "tiny.cpp", "#include \"tiny.hpp\"\nint twice(int x) { return 2 * x; }\n");
  write_bytes(repo / "NOTES.md", "twice() multiplies.\n");
  git(repo, {"add", "--all"});
  git(repo, {"commit", "--quiet", "-m", "fix twice"});

  git(repo, {"checkout", "--quiet", "-b", "agent/broken", "main"});
  write_bytes(repo / "src" / "tiny.cpp", "#include \"tiny.hpp\"\nint twice(int x) { return 2 * x }\n");
  git(repo, {"commit", "--quiet", "-am", "broken"});
  git(repo, {"checkout", "--quiet", "main"});
}

/// The work tree equals `ref` (tracked and untracked files), checked through
/// a throw-away index so the repository's own index stays as it is.
bool tree_equals(const fs::path& repo, const std::string& ref) {
  TempDir scratch("hydra-apply-test");
  hydra::util::ProcessRequest request;
  request.environment["GIT_INDEX_FILE"] = (scratch.path() / "index").string();
  request.timeout = std::chrono::minutes(1);
  request.argv = {"git", "-C", repo.string(), "read-tree", "HEAD"};
  REQUIRE(hydra::util::run_process(request).exit_code == 0);
  request.argv = {"git", "-C", repo.string(), "add", "--all"};
  REQUIRE(hydra::util::run_process(request).exit_code == 0);
  request.argv = {"git", "-C", repo.string(), "diff", "--cached", "--quiet", ref};
  return hydra::util::run_process(request).exit_code == 0;
}

/// A repository, its baseline captured at main, both branches captured with
/// `capture --ref 'agent/*'` and ranked: made once for the sections below,
/// which reset the repository to the base before they start.
struct Ranked {
  TempDir temp{"hydra-apply"};
  fs::path repo = temp.path() / "repo";
  fs::path hydra = temp.path() / "hydra";
  fs::path score = temp.path() / "score.json";
  std::string base;
  std::string capture_output;
  nlohmann::json contract;
};

const Ranked& ranked() {
  static const std::unique_ptr<Ranked> made = [] {
    auto owner = std::make_unique<Ranked>();
    Ranked& r = *owner;
    make_repository(r.repo);
    r.base = git(r.repo, {"rev-parse", "main"}).substr(0, 40);
    const fs::path metrics = r.temp.path() / "metrics";
    write_bytes(metrics / "agent-good.json", "{\"duration_seconds\": 120, \"tokens\": 5000}\n");
    write_bytes(metrics / "agent-broken.json", "{\"duration_seconds\": 60}\n");
    const auto baseline = run_tool({"capture", "--source", r.repo.string(), "--out", (r.hydra / "baseline").string(),
                                    "--build-dir", (r.hydra / "trees" / "baseline").string(), "--agent", "baseline",
                                    "--checkout", "HEAD", "--quiet", "--no-sandbox"},
                                   r.temp.path());
    INFO(baseline.output);
    REQUIRE(baseline.exit_code == 0);
    // The summary line: build, tests and lint with the translation units linted.
    CHECK_THAT(baseline.output, Catch::Matches("(.|\n)*baseline: build passed; tests [0-9]+/[0-9]+ passed[^;]*; lint [0-9]+ "
                                               "errors?, [0-9]+ warnings? \\([1-9][0-9]* units?\\)\n(.|\n)*"));
    const auto captured = run_tool({"capture", "--source", r.repo.string(), "--ref", "agent/*", "--out",
                                    r.hydra.string(), "--baseline-run", (r.hydra / "baseline").string(),
                                    "--metrics-dir", metrics.string(), "--list", (r.temp.path() / "refs.list").string(),
                                    "--jobs", "2", "--quiet", "--no-sandbox"},
                                   r.temp.path());
    r.capture_output = captured.output;
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
    const auto scored = run_tool({"score", "--baseline", (r.hydra / "baseline").string(), "--candidate-list",
                                  (r.temp.path() / "refs.list").string(), "--json", r.score.string(), "--quiet"},
                                 r.temp.path());
    INFO(scored.output);
    REQUIRE(scored.exit_code == 0);
    r.contract = nlohmann::json::parse(read_bytes(r.score));
    return owner;
  }();
  return *made;
}

}  // namespace

TEST_CASE("capture --ref: a pattern that matches nothing, a worktree that cannot be made", "[cli][apply]") {
  TempDir temp("hydra-ref");
  const fs::path repo = temp.path() / "repo";
  const fs::path hydra = temp.path() / "hydra";
  make_repository(repo);

  const auto nothing = run_tool({"capture", "--source", repo.string(), "--ref", "nobody/*", "--out", hydra.string(),
                                 "--quiet"},
                                temp.path());
  CHECK(nothing.exit_code == 2);
  CHECK(nothing.output.find("no ref or commit matches \"nobody/*\"") != std::string::npos);

  // A file where agent/broken's checkout folder goes (its worktree cannot be
  // made inside it): reported, never skipped silently; agent/good is
  // captured all the same. (Whatever sits where a worktree goes is not the
  // repository's registered worktree: it is removed and the worktree made
  // afresh, tests/util/test_git_diff.cpp.)
  write_bytes(hydra / "trees" / "agent-broken", "in the way\n");
  const auto result = run_tool({"capture", "--source", repo.string(), "--ref", "agent/*", "--out", hydra.string(),
                                "--list", (temp.path() / "list").string(), "--quiet", "--no-sandbox"},
                               temp.path());
  INFO(result.output);
  CHECK(result.exit_code == 8);
  CHECK(result.output.find("ref agent/broken (agent agent-broken) could not be captured") != std::string::npos);
  CHECK(fs::exists(hydra / "agent-good" / "manifest.json"));
  CHECK(read_bytes(temp.path() / "list") == (hydra / "agent-good").string() + "\n");
  // Without a baseline run the base is the repository's HEAD (main).
  const auto manifest = nlohmann::json::parse(read_bytes(hydra / "agent-good" / "manifest.json"));
  CHECK(manifest["base_commit"] == git(repo, {"rev-parse", "main"}).substr(0, 40));
  CHECK(read_bytes(hydra / "agent-good" / "diff.patch").find("+++ b/NOTES.md") != std::string::npos);
}

TEST_CASE("capture --ref ranks branches from temporary worktrees, apply checks, refuses and applies",
          "[cli][apply]") {
  const Ranked& r = ranked();
  const fs::path& repo = r.repo;
  const fs::path& hydra = r.hydra;
  const fs::path& score = r.score;
  const fs::path here = r.temp.path();
  // Every section starts from the base, clean.
  git(repo, {"checkout", "--quiet", "--force", "main"});
  git(repo, {"reset", "--quiet", "--hard", r.base});
  git(repo, {"clean", "-fdq"});

  SECTION("each ref's run stays, its worktree goes, the user's tree is untouched") {
    CHECK(read_bytes(here / "refs.list") ==
          (hydra / "agent-broken").string() + "\n" + (hydra / "agent-good").string() + "\n");
    CHECK_FALSE(fs::exists(hydra / "trees" / "agent-good" / "source"));
    CHECK_FALSE(fs::exists(hydra / "trees" / "agent-broken" / "source"));
    CHECK(fs::exists(hydra / "trees" / "agent-good" / "build" / "CMakeCache.txt"));  // kept for the next capture
    CHECK(git(repo, {"worktree", "list", "--porcelain"}).find("agent-") == std::string::npos);
    // The stored change is the branch against the base, its new file included.
    const std::string diff = read_bytes(hydra / "agent-good" / "diff.patch");
    CHECK(diff.find("+++ b/NOTES.md") != std::string::npos);
    CHECK(diff.find("+int twice(int x) { return 2 * x; }") != std::string::npos);
    const auto manifest = nlohmann::json::parse(read_bytes(hydra / "agent-good" / "manifest.json"));
    CHECK(manifest["base_commit"] == r.base);
    CHECK(manifest["agent"] == "agent-good");

    const auto& rankings = r.contract["rankings"];
    REQUIRE(rankings.size() == 2);
    CHECK(rankings[0]["agent"] == "agent-good");
    CHECK(rankings[0]["mergeable"] == true);
    CHECK(rankings[1]["agent"] == "agent-broken");
    CHECK(rankings[1]["mergeable"] == false);
    // Durations from --metrics-dir: agent-good is the only successful agent,
    // so it sets the reference, 120 / 120 * 100 = 100.
    CHECK(rankings[0]["dimensions"]["speed"]["active"] == true);
    CHECK(rankings[0]["dimensions"]["speed"]["evidence"]["duration_seconds"] == 120);
    CHECK(rankings[0]["breakdown"]["speed"] == 100);
    CHECK(rankings[1]["dimensions"]["speed"]["evidence"]["duration_seconds"] == 60);
    CHECK(rankings[1]["dimensions"]["speed"]["evidence"]["fastest_successful_seconds"] == 120);
  }

  SECTION("a score file that is missing or malformed is named") {
    auto result = run_tool({"apply", "--score", "missing.json", "--source", repo.string()}, here);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("missing.json: no such file") != std::string::npos);
    write_bytes(here / "bad.json", "{\"rankings\": [");
    result = run_tool({"apply", "--score", "bad.json", "--source", repo.string()}, here);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("bad.json: not a score JSON") != std::string::npos);
    write_bytes(here / "other.json", "{\"rankings\": []}");
    result = run_tool({"apply", "--score", "other.json", "--source", repo.string()}, here);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("other.json: not a score JSON written by `hydra-score score --json`") !=
          std::string::npos);
    result = run_tool({"apply", "--score", score.string(), "--agent", "nobody", "--source", repo.string()}, here);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("ranks no agent \"nobody\" (it ranks: agent-good, agent-broken)") != std::string::npos);
    // A value of the wrong type is an input error naming the file, not an internal error.
    write_bytes(here / "typed.json",
                R"({"schema": "hydra-score/score/1", "rankings": [{"agent": "x", "mergeable": "yes"}]})");
    result = run_tool({"apply", "--score", "typed.json", "--source", repo.string()}, here);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("typed.json: unexpected content in a ranking entry") != std::string::npos);
    CHECK(result.output.find("internal error") == std::string::npos);
  }

  SECTION("a non-mergeable candidate is refused without --force") {
    const auto result = run_tool(
        {"apply", "--score", score.string(), "--agent", "agent-broken", "--source", repo.string(), "--confirm"}, here);
    CHECK(result.exit_code == 3);
    CHECK(result.output.find("agent \"agent-broken\" is not mergeable") != std::string::npos);
    CHECK(result.output.find("require_build_pass") != std::string::npos);
    CHECK(tree_equals(repo, "main"));
    const auto forced = run_tool({"apply", "--score", score.string(), "--agent", "agent-broken", "--source",
                                  repo.string(), "--confirm", "--force"},
                                 here);
    INFO(forced.output);
    CHECK(forced.exit_code == 0);
    CHECK(forced.output.find("NOT mergeable, forced") != std::string::npos);
    CHECK(tree_equals(repo, "agent/broken"));
  }

  SECTION("a dirty tree is refused, naming the changes") {
    write_bytes(repo / "src" / "tiny.hpp", "#pragma once\nint twice(int);\n");
    write_bytes(repo / "scratch.txt", "mine\n");
    const auto result = run_tool({"apply", "--score", score.string(), "--source", repo.string(), "--confirm"}, here);
    CHECK(result.exit_code == 9);
    CHECK(result.output.find("has changes; commit or stash them") != std::string::npos);
    CHECK(result.output.find(" M src/tiny.hpp") != std::string::npos);
    CHECK(result.output.find("?? scratch.txt") != std::string::npos);
    CHECK(read_bytes(repo / "src" / "tiny.cpp").find("x + 2") != std::string::npos);
  }

  SECTION("a base that moved since the capture is refused") {
    write_bytes(repo / "README.md", "later\n");
    git(repo, {"add", "README.md"});
    git(repo, {"commit", "--quiet", "-m", "later"});
    const auto result = run_tool({"apply", "--score", score.string(), "--source", repo.string(), "--confirm"}, here);
    CHECK(result.exit_code == 9);
    CHECK(result.output.find("the base moved: agent \"agent-good\" was captured against " + r.base) !=
          std::string::npos);
    CHECK(tree_equals(repo, "HEAD"));
  }

  SECTION("a run changed after scoring is refused") {
    const fs::path patch = hydra / "agent-good" / "diff.patch";
    const std::string original = read_bytes(patch);
    fs::permissions(patch, fs::perms::owner_write, fs::perm_options::add);
    write_bytes(patch, original + "\n");
    const auto result = run_tool({"apply", "--score", score.string(), "--source", repo.string()}, here);
    write_bytes(patch, original);
    CHECK(result.exit_code == 7);
    CHECK(result.output.find("diff.patch") != std::string::npos);
  }

  SECTION("the top-ranked candidate: a dry run writes nothing, --confirm writes it") {
    const auto dry = run_tool({"apply", "--score", score.string(), "--source", repo.string()}, here);
    INFO(dry.output);
    CHECK(dry.exit_code == 0);
    CHECK(dry.output.find("Would apply agent \"agent-good\" (rank 1, mergeable)") != std::string::npos);
    CHECK(dry.output.find("  M  src/tiny.cpp") != std::string::npos);
    CHECK(dry.output.find("  A  NOTES.md") != std::string::npos);
    CHECK(dry.output.find("dry run: nothing written") != std::string::npos);
    CHECK(tree_equals(repo, "main"));
    CHECK_FALSE(fs::exists(repo / "NOTES.md"));

    const auto applied =
        run_tool({"apply", "--score", score.string(), "--source", (repo / "src").string(), "--confirm"}, here);
    INFO(applied.output);
    CHECK(applied.exit_code == 0);
    CHECK(applied.output.find("Applied agent \"agent-good\"") != std::string::npos);
    CHECK(tree_equals(repo, "agent/good"));
    // A second apply finds the tree changed and refuses.
    const auto again = run_tool({"apply", "--score", score.string(), "--source", repo.string()}, here);
    CHECK(again.exit_code == 9);
  }
}
