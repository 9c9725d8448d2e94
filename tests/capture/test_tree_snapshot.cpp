// Tests for hydra::capture::snapshot_tree and tree_changes: a source tree a
// step wrote, even one that restored a file's content, is caught.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include <hydra/capture/trees/tree_snapshot.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace fs = std::filesystem;
using hydra::capture::snapshot_tree;
using hydra::capture::tree_changes;

namespace {

void git(const fs::path& directory, const std::vector<std::string>& arguments) {
  hydra::util::ProcessRequest request;
  request.argv = {"git", "-C", directory.string(), "-c", "user.name=t", "-c", "user.email=t@example.invalid"};
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  request.timeout = std::chrono::seconds(60);
  const auto result = hydra::util::run_process(request);
  REQUIRE(result.exit_code == 0);
}

}  // namespace

TEST_CASE("tree_changes names files written, created and deleted", "[capture]") {
  // In git: the change's files; outside git: every file but the excluded trees.
  const bool in_git = GENERATE(true, false);
  CAPTURE(in_git);
  hydra::util::TempDir temp("hydra-snapshot");
  const fs::path tree = temp.path() / "tree";
  fs::create_directories(tree / "tests");
  fs::create_directories(tree / "build");
  hydra::util::write_file_atomic(tree / "tests/test.cpp", "CHECK(1 == 1);\n");
  hydra::util::write_file_atomic(tree / "src.cpp", "int f();\n");
  hydra::util::write_file_atomic(tree / ".gitignore", "ignored.txt\n");
  git(tree, {"init", "--quiet"});
  git(tree, {"add", "--all"});
  git(tree, {"commit", "--quiet", "-m", "base"});
  hydra::util::write_file_atomic(tree / "untracked.cpp", "int g();\n");

  const std::vector<fs::path> excluded = {tree / "build", tree / ".git"};
  {
    const auto before = snapshot_tree(tree, in_git, excluded);
    CHECK(before.files.count("tests/test.cpp") == 1);
    CHECK(before.files.count("untracked.cpp") == 1);
    SECTION("valid input: nothing written, nothing reported (excluded trees change freely)") {
      hydra::util::write_file_atomic(tree / "build/out.o", "x");
      CHECK(tree_changes(before, snapshot_tree(tree, in_git, excluded)).empty());
    }
    SECTION("valid input: a file edited and restored to its content is still written") {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      hydra::util::write_file_atomic(tree / "tests/test.cpp", "CHECK(1 == 2);\n");
      git(tree, {"checkout", "--", "tests/test.cpp"});
      CHECK(hydra::util::read_file(tree / "tests/test.cpp") == "CHECK(1 == 1);\n");
      CHECK(tree_changes(before, snapshot_tree(tree, in_git, excluded)) ==
            std::vector<std::string>{"tests/test.cpp: written"});
    }
    SECTION("valid input: created and deleted files") {
      hydra::util::write_file_atomic(tree / "new.cpp", "");
      fs::remove(tree / "src.cpp");
      CHECK(tree_changes(before, snapshot_tree(tree, in_git, excluded)) ==
            std::vector<std::string>{"new.cpp: created", "src.cpp: deleted"});
    }
  }
}
