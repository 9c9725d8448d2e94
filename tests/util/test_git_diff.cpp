// util::diff_against: the change of a work tree, without the build trees and
// HydraScore output kept inside the repository.
#include <catch2/catch.hpp>

#include <hydra/util/files.hpp>
#include <hydra/util/git.hpp>

namespace fs = std::filesystem;
using hydra::util::checked_git;

namespace {

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  hydra::util::write_file_atomic(file, text);
}

}  // namespace

TEST_CASE("diff_against leaves out build trees, run directories, staging folders and their locks", "[util][git]") {
  hydra::util::TempDir temp("hydra-diff");
  const fs::path repo = temp.path();
  checked_git(repo, {"init", "--quiet", "--initial-branch=main"});
  write(repo / "src" / "lib.rs", "fn a() {}\n");
  checked_git(repo, {"add", "--all"});
  checked_git(repo, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "base"});
  const std::string base = hydra::util::trim(checked_git(repo, {"rev-parse", "HEAD"}).output);

  // The change: an edited file, a new file, and a note beside the runs.
  write(repo / "src" / "lib.rs", "fn a() { b() }\n");
  write(repo / "src" / "new.rs", "fn b() {}\n");
  write(repo / "runs" / "notes.txt", "kept\n");
  // What captures left inside the repository.
  write(repo / "runs" / "baseline" / "manifest.json", "{\n  \"schema\": \"hydra-score/run/1\"\n}\n");
  write(repo / "runs" / "baseline" / "signals.json", "{}\n");
  write(repo / "runs" / ".baseline.lock", "");
  write(repo / "runs" / "baseline.build" / hydra::util::kBuildTreeMarker, "");
  write(repo / "runs" / "baseline.build" / "tree" / "src" / "lib.rs", "fn a() {}\n");
  write(repo / "runs" / ".agent.capture-Ab12Cd" / "junit" / "0.xml", "<testsuites/>\n");
  write(repo / "cmake-debug" / "CMakeCache.txt", "CMAKE_HOME_DIRECTORY:INTERNAL=/x\n");
  // Not output: a manifest of some other tool, and a lock with no run beside it.
  write(repo / "data" / "manifest.json", "{\"schema\": \"other\"}\n");
  write(repo / "runs" / ".other.lock", "");

  const std::string diff = hydra::util::diff_against(repo, base, {});
  std::vector<std::string> files;
  for (std::size_t at = diff.find("diff --git a/"); at != std::string::npos; at = diff.find("diff --git a/", at + 1))
    files.push_back(diff.substr(at + 13, diff.find(' ', at + 13) - at - 13));
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"data/manifest.json", "runs/.other.lock", "runs/notes.txt", "src/lib.rs",
                                          "src/new.rs"});
}
