#include <catch2/catch.hpp>

#include <fstream>
#include <map>

#include "e2e/e2e_support.hpp"

#include <hydra/error.hpp>
#include <hydra/loop/snapshot.hpp>

namespace {

namespace fs = std::filesystem;
using hydra::loop::SnapshotScope;
using hydra::loop::SnapshotStore;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

/// Every file under `root` (but .git) with its content and whether it is executable.
std::map<std::string, std::string> files_of(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".git") {
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

std::string git_output(const fs::path& repository, std::vector<std::string> arguments) {
  std::vector<std::string> argv = {"git", "-C", repository.string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return e2e::run(argv).output;
}

}  // namespace

TEST_CASE("SnapshotStore restores a tree exactly from git objects", "[loop]") {
  hydra::util::TempDir scratch("hydra-loop-snapshot");
  const fs::path repository = scratch.path() / "repo";
  write(repository / ".gitignore", "/build/\n*.log\n");
  write(repository / "src" / "a.cpp", "int a = 1;\n");
  write(repository / "src" / "b.cpp", "int b = 2;\n");
  write(repository / "README.md", "readme\n");
  e2e::git(repository, {"init", "--quiet", "--initial-branch=main"});
  e2e::git(repository, {"add", "--all"});
  e2e::git(repository, {"commit", "--quiet", "-m", "start"});
  write(repository / "untracked.txt", "part of the start state\n");  // untracked, not ignored
  write(repository / "build" / "object.o", "build output\n");       // ignored build tree
  write(repository / "run.log", "ignored log\n");
  write(repository / "out" / "state.json", "{}\n");                 // excluded: the loop's output

  SnapshotScope scope;
  scope.source = repository;
  scope.excluded = {repository / "out"};
  SnapshotStore store(scope, "test");

  SECTION("valid input") {
    const auto start = files_of(repository);
    const std::string tree = store.capture_tree();
    CHECK(tree.size() == 40);
    CHECK(store.capture_tree() == tree);  // same content, same tree
    const std::string commit = store.keep(tree, 0);
    CHECK(git_output(repository, {"rev-parse", "refs/hydra/loop/test/0"}).substr(0, 40) == commit);
    CHECK(git_output(repository, {"rev-parse", "refs/hydra/loop/test/best"}).substr(0, 40) == commit);
    CHECK(git_output(repository, {"status", "--porcelain"}) == "?? out/\n?? untracked.txt\n");  // the user's index is untouched

    // A failed experiment: edits, deletions, stray files and folders, a mode change.
    write(repository / "src" / "a.cpp", "int a = 42;\n");
    fs::remove(repository / "src" / "b.cpp");
    fs::remove(repository / "untracked.txt");
    write(repository / "src" / "new" / "deep" / "c.cpp", "int c;\n");
    write(repository / "notes.txt", "stray\n");
    fs::permissions(repository / "README.md", fs::perms::owner_exec, fs::perm_options::add);
    write(repository / "build" / "object.o", "rebuilt\n");  // ignored: must stay as it is now
    write(repository / "out" / "state.json", "{\"iteration\": 1}\n");  // excluded: must stay
    CHECK(store.capture_tree() != tree);

    CHECK(store.restore(tree) > 0);
    auto expected = start;
    expected["build/object.o"] = "-:rebuilt\n";
    expected["out/state.json"] = "-:{\"iteration\": 1}\n";
    CHECK(files_of(repository) == expected);
    CHECK_FALSE(fs::exists(repository / "src" / "new"));  // emptied folders removed
    CHECK(store.capture_tree() == tree);
    CHECK(store.restore(tree) == 0);  // nothing to do
  }

  SECTION("valid input: a scope limited to paths leaves the rest alone") {
    SnapshotScope limited = scope;
    limited.paths = {"src"};
    SnapshotStore src_only(limited, "limited");
    const std::string tree = src_only.capture_tree();
    write(repository / "src" / "stray.cpp", "stray\n");
    write(repository / "README.md", "edited outside the scope\n");
    src_only.restore(tree);
    CHECK_FALSE(fs::exists(repository / "src" / "stray.cpp"));
    CHECK(hydra::util::read_file(repository / "README.md") == "edited outside the scope\n");
  }

  SECTION("bad input") {
    CHECK_THROWS_AS(SnapshotStore(scope, "bad..name"), hydra::Error);
    SnapshotScope outside;
    outside.source = scratch.path() / "not-a-repo";
    fs::create_directories(outside.source);
    CHECK_THROWS_AS(SnapshotStore(outside, "x"), hydra::Error);
  }
}
