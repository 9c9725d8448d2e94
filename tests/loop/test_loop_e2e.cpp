// End-to-end runs of `hydra-score loop` on copies of example-project with the
// scripted improvers of tests/fixtures/loop/improvers/ (real cmake, ctest and git).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include <cstdlib>

#include <hydra/capture/sandbox/sandbox.hpp>

#include "e2e/e2e_support.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kImprovers = fs::path(HYDRA_FIXTURES_DIR) / "loop" / "improvers";

/// Every file of the work tree but .git and the ignored build/ folder, with
/// its content and whether it is executable.
std::map<std::string, std::string> tree_files(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it.depth() == 0 && (name == ".git" || name == "build")) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    const bool executable = (it->status().permissions() & fs::perms::owner_exec) != fs::perms::none;
    files[it->path().lexically_relative(root).generic_string()] =
        (executable ? "x:" : "-:") + hydra::util::read_file(it->path());
  }
  return files;
}

/// A copy of example-project in a fresh repository, with an ignored build/
/// folder the loop must leave alone.
class LoopProject {
 public:
  /// `break_tie_order`: also break frequency.ties_in_alphabetical_order in the
  /// committed start tree, so that two tests fail.
  explicit LoopProject(bool break_tie_order) : scratch_("hydra-loop-e2e") {
    e2e::make_example_repository(repository());
    if (break_tie_order) {
      const fs::path file = repository() / "src" / "frequency.cpp";
      std::string text = hydra::util::read_file(file);
      const std::string fixed = "return left.word < right.word;";
      REQUIRE(text.find(fixed) != std::string::npos);
      text.replace(text.find(fixed), fixed.size(), "return left.word > right.word;");
      std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
      e2e::git(repository(), {"commit", "--quiet", "--all", "-m", "break the tie order"});
    }
    fs::create_directories(repository() / "build");
    std::ofstream(repository() / "build" / "keep-me.txt") << "an ignored file the loop must not touch\n";
  }

  fs::path repository() const { return scratch_.path() / "textstats"; }
  /// The loop's output, kept outside the repository (the tree must end
  /// byte-identical, and the ignored build/ folder untouched).
  fs::path out() const { return scratch_.path() / "loop"; }

  hydra::util::ProcessResult loop(const std::string& improver, std::vector<std::string> arguments,
                                     std::map<std::string, std::string> environment = {}) const {
    std::vector<std::string> argv = {e2e::kTool.string(), "loop", "--source", repository().string(),
                                     "--out", out().string(), "--improver", "'" + (kImprovers / improver).string() + "'",
                                     "--jobs", "2", "--generator", "Ninja"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return e2e::run(argv, repository(), std::move(environment));
  }

  /// results.tsv as rows of fields, header first.
  std::vector<std::vector<std::string>> rows() const {
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(hydra::util::read_file(out() / "results.tsv"));
    for (std::string line; std::getline(lines, line);) {
      std::vector<std::string> fields;
      std::istringstream cells(line);
      for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
      rows.push_back(fields);
    }
    return rows;
  }

  json report() const { return e2e::read_json(out() / "loop.json"); }

  std::string git_status() const {
    return e2e::run({"git", "-C", repository().string(), "status", "--porcelain"}).output;
  }

 private:
  hydra::util::TempDir scratch_;
};

void check_row(const std::vector<std::string>& row, const std::string& iteration, const std::string& score,
               const std::string& best, const std::string& action) {
  REQUIRE(row.size() >= 5);
  CHECK(row[0] == iteration);
  CHECK(row[1].size() == 20);  // 2024-01-01T00:00:00Z
  CHECK(row[2] == score);
  CHECK(row[3] == best);
  CHECK(row[4] == action);
}

// Scores of example-project (eval cases = CTest labels edge, parsing, unit):
//   both tests failing (count.lines_without_trailing_newline [unit, edge] and
//   frequency.ties_in_alphabetical_order [unit]):
//     (edge 3/4 + parsing 3/3 + unit 5/7) / 3 = (0.75 + 1 + 0.714286) / 3 = 0.821429
//   only frequency.ties_in_alphabetical_order failing:
//     (edge 4/4 + parsing 3/3 + unit 6/7) / 3 = (1 + 1 + 0.857143) / 3 = 0.952381
//   example-project as shipped (only count.lines_without_trailing_newline failing):
//     (edge 3/4 + parsing 3/3 + unit 6/7) / 3 = (0.75 + 1 + 0.857143) / 3 = 0.869048
//   frequency order reversed as well (most_frequent_first [unit] and
//   limit_larger_than_vocabulary [unit, edge] fail too):
//     (edge 2/4 + parsing 3/3 + unit 4/7) / 3 = (0.5 + 1 + 0.571429) / 3 = 0.690476

}  // namespace

TEST_CASE("loop converges when the improver fixes failing tests one by one", "[loop][e2e]") {
  LoopProject project(/*break_tie_order=*/true);
  SECTION("valid input") {
    const auto result = project.loop("fix-one-by-one.sh", {"--max-iterations", "5"});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const auto rows = project.rows();
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == std::vector<std::string>{"iteration", "timestamp", "score", "best_score", "action", "changelog"});
    check_row(rows[1], "0", "0.821429", "0.821429", "baseline");
    check_row(rows[2], "1", "0.952381", "0.952381", "keep");
    CHECK(rows[2][5] == "count_lines counts an unterminated last line");
    check_row(rows[3], "2", "1.000000", "1.000000", "keep");
    const json report = project.report();
    CHECK(report["classification"] == "converged");
    CHECK(report["kept"] == 2);
    CHECK(report["reverted"] == 0);
    CHECK(report["best_iteration"] == 2);
    for (const auto& eval_case : report["cases"]) CHECK(eval_case["pass_rate"] == 1.0);
    CHECK(report["cases"].size() == 3);
    CHECK(fs::is_regular_file(project.out() / "loop.md"));
    CHECK(fs::is_regular_file(project.out() / "loop.html"));
    // The tree is the last kept state; its snapshots are refs in the repository.
    CHECK(project.git_status() == " M src/count.cpp\n M src/frequency.cpp\n");
    const auto refs = e2e::run({"git", "-C", project.repository().string(), "for-each-ref", "--format=%(refname)",
                                "refs/hydra/loop/"}).output;
    CHECK(refs == "refs/hydra/loop/loop/0\nrefs/hydra/loop/loop/1\nrefs/hydra/loop/loop/2\nrefs/hydra/loop/loop/best\n");
    CHECK(result.output.find("Loop: converged, best score 1.000") != std::string::npos);
  }
}

TEST_CASE("loop reverts a change that deletes the failing test, whatever its pass rate", "[loop][e2e]") {
  LoopProject project(/*break_tie_order=*/false);
  SECTION("bad input: the improver deletes tests") {
    const auto result = project.loop("delete-failing-test.sh", {"--max-iterations", "1"});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const auto rows = project.rows();
    REQUIRE(rows.size() == 3);
    check_row(rows[1], "0", "0.869048", "0.869048", "baseline");
    // Without the two deleted tests every case passes: (edge 2/2 + parsing 3/3
    // + unit 5/5) / 3 = 1.000000. The change is judged on the one evaluation
    // path, as `hydra-score score` judges it, and the dropped tests fail the
    // anti_gaming gate: reverted, not kept.
    check_row(rows[2], "1", "1.000000", "0.869048", "revert");
    CHECK(rows[2][5].rfind("rejected: anti_gaming: ", 0) == 0);
    CHECK(rows[2][5].find("dropped") != std::string::npos);
    const json report = project.report();
    CHECK(report["classification"] == "plateau");
    CHECK(report["kept"] == 0);
    CHECK(report.count("alerts") == (hydra::capture::find_sandbox(true, {}, std::nullopt).confined() ? 0u : 1u));
    CHECK(project.git_status().empty());
    // The judgement is kept beside the iteration, as `score` writes it.
    const json judged = e2e::read_json(project.out() / "iterations" / "1" / "score.json");
    CHECK(judged["rankings"][0]["mergeable"] == false);
  }
}

TEST_CASE("loop gets stuck and restores the tree exactly when every change is worse", "[loop][e2e]") {
  LoopProject project(/*break_tie_order=*/false);
  const auto start = tree_files(project.repository());
  SECTION("valid input") {
    const auto result = project.loop("make-worse.sh", {"--max-iterations", "6", "--improver-timeout", "3"});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const auto rows = project.rows();
    REQUIRE(rows.size() == 5);
    check_row(rows[1], "0", "0.869048", "0.869048", "baseline");
    check_row(rows[2], "1", "0.690476", "0.869048", "revert");
    CHECK(rows[2][5] == "rank rare words first");
    check_row(rows[3], "2", "0.000000", "0.869048", "revert");  // a crash is never captured
    CHECK(rows[3][5] == "improver failed with exit code 1; removed the tokenizer");
    check_row(rows[4], "3", "0.000000", "0.869048", "revert");
    CHECK(rows[4][5].rfind("improver timed out after 3 s", 0) == 0);
    const json report = project.report();
    CHECK(report["classification"] == "stuck");
    CHECK(report["kept"] == 0);
    CHECK(report["reverted"] == 3);
    CHECK(report["best_score"] == Approx(0.869048).margin(1e-6));
    // Byte-identical to the start (contents and modes), no stray files, the
    // ignored build folder untouched.
    CHECK(tree_files(project.repository()) == start);
    CHECK(project.git_status().empty());
    CHECK_FALSE(fs::exists(project.repository() / "notes"));
    CHECK_FALSE(fs::exists(project.repository() / "stray-before-hang.txt"));
    CHECK(hydra::util::read_file(project.repository() / "build" / "keep-me.txt") ==
          "an ignored file the loop must not touch\n");
  }
}

TEST_CASE("loop reports a plateau when improvements stop before max_iterations", "[loop][e2e]") {
  LoopProject project(/*break_tie_order=*/true);
  SECTION("valid input") {
    // Where bubblewrap cannot make its namespaces (a bwrap that says so
    // first on PATH), the iterations are captured unconfined, and the loop's
    // reports say so first.
    const fs::path fake_bin = project.out().parent_path() / "fake-bin";
    fs::create_directories(fake_bin);
    hydra::util::write_file_atomic(fake_bin / "bwrap", "#!/bin/sh\necho 'bwrap: no namespaces here' >&2\nexit 1\n");
    fs::permissions(fake_bin / "bwrap", fs::perms::owner_all);
    const auto result = project.loop("improve-then-stall.sh", {"--max-iterations", "2"},
                                     {{"PATH", fake_bin.string() + ":" + std::getenv("PATH")}});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const auto rows = project.rows();
    REQUIRE(rows.size() == 4);
    check_row(rows[1], "0", "0.821429", "0.821429", "baseline");
    check_row(rows[2], "1", "0.952381", "0.952381", "keep");
    check_row(rows[3], "2", "0.952381", "0.952381", "revert");  // a tie is a revert
    CHECK(rows[3][5] == "reworded the README (iteration 2)");
    const json report = project.report();
    CHECK(report["classification"] == "plateau");
    CHECK(report["kept"] == 1);
    CHECK(report["reverted"] == 1);
    // Best state: count fixed; the README edit of the tie was undone.
    CHECK(project.git_status() == " M src/count.cpp\n");
    const std::string alert =
        "iterations 0, 1, 2: the tree's code ran UNCONFINED (bubblewrap cannot create its namespaces here (bwrap: no "
        "namespaces here)): it could read the user's files and secrets, reach the network and write outside its trees";
    CHECK(report["alerts"] == json::array({alert}));
    CHECK(hydra::util::read_file(project.out() / "loop.md")
              .rfind("## HydraScore improvement loop\n\n> [!WARNING]\n> **Candidate code was not confined**", 0) == 0);
  }
}

TEST_CASE("loop resumes after being killed and rolls back the interrupted iteration", "[loop][e2e]") {
  LoopProject project(/*break_tie_order=*/true);
  SECTION("valid input") {
    const std::map<std::string, std::string> environment = {
        {"HYDRA_TEST_KILL_MARKER", (project.out().parent_path() / "kill-marker").string()}};
    const auto killed = project.loop("fix-one-by-one.sh", {"--max-iterations", "5"}, environment);
    INFO(killed.output);
    REQUIRE(killed.exit_code == 128 + 9);  // SIGKILL in iteration 2
    REQUIRE(project.rows().size() == 3);     // header, iterations 0 and 1
    CHECK(fs::exists(project.repository() / "scratch" / "half-done.txt"));
    CHECK(e2e::read_json(project.out() / "state.json")["in_progress"] == 2);

    const auto resumed = project.loop("fix-one-by-one.sh", {"--max-iterations", "5"}, environment);
    INFO(resumed.output);
    REQUIRE(resumed.exit_code == 0);
    CHECK(resumed.output.find("rolled back interrupted iteration 2") != std::string::npos);
    const auto rows = project.rows();
    REQUIRE(rows.size() == 4);
    check_row(rows[1], "0", "0.821429", "0.821429", "baseline");
    check_row(rows[2], "1", "0.952381", "0.952381", "keep");
    check_row(rows[3], "2", "1.000000", "1.000000", "keep");
    CHECK(project.report()["classification"] == "converged");
    CHECK_FALSE(fs::exists(project.repository() / "scratch"));
    CHECK(hydra::util::read_file(project.repository() / "src" / "tokenize.cpp").find("half-done") == std::string::npos);
    CHECK(project.git_status() == " M src/count.cpp\n M src/frequency.cpp\n");
  }
}
