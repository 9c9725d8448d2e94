// The state test attempts start from (capture/runners/attempt_state.hpp).
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include <hydra/capture/runners/attempt_state.hpp>
#include <hydra/util/files.hpp>

namespace fs = std::filesystem;
using hydra::capture::record_build_tree;
using hydra::capture::restore_build_tree;

TEST_CASE("attempt state: what an attempt created goes, what it changed in place is named", "[capture][attempts]") {
  hydra::util::TempDir temp("hydra-attempt-state");
  const fs::path root = temp.path();
  for (const char* folder : {"tests", ".hydra/held-out"}) fs::create_directories(root / folder);
  hydra::util::write_file_atomic(root / "tests" / "answer_test", "program");
  hydra::util::write_file_atomic(root / "data.txt", "fresh");
  hydra::util::write_file_atomic(root / "gone.txt", "kept?");
  hydra::util::write_file_atomic(root / ".hydra" / "held-out" / "file", "left alone");
  const auto start = record_build_tree(root, {root / ".hydra"});

  // Nothing happened: nothing to put back.
  CHECK(restore_build_tree(start).empty());

  // An attempt: a marker, a folder with files, a hard link, a file rewritten, one deleted.
  hydra::util::write_file_atomic(root / "tests" / "answer.warm", "");
  fs::create_directories(root / "cache" / "deep");
  hydra::util::write_file_atomic(root / "cache" / "deep" / "state", "1");
  fs::create_hard_link(root / "tests" / "answer_test", root / "tests" / "run-0123");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  hydra::util::write_file_atomic(root / "data.txt", "stale");
  fs::remove(root / "gone.txt");
  hydra::util::write_file_atomic(root / ".hydra" / "held-out" / "new", "not restored");

  const auto lost = restore_build_tree(start);
  CHECK(lost == std::vector<std::string>{"data.txt: written", "gone.txt: deleted"});
  CHECK_FALSE(fs::exists(root / "tests" / "answer.warm"));
  CHECK_FALSE(fs::exists(root / "cache"));
  CHECK_FALSE(fs::exists(root / "tests" / "run-0123"));
  CHECK(fs::exists(root / "tests" / "answer_test"));  // its link count changed, not the file
  CHECK(fs::exists(root / ".hydra" / "held-out" / "new"));  // excluded
}
