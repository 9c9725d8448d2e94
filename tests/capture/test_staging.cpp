// Tests for the capture's staging directory: created next to the run
// directory and locked; stale ones (their capture died) removed by the next
// capture into the same place; live ones and other names never touched.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <hydra/capture/core/staging_directory.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>

namespace fs = std::filesystem;
using hydra::capture::remove_stale_staging;
using hydra::capture::StagingDirectory;

namespace {

/// The names in `directory`, sorted.
std::vector<std::string> names_in(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// A capture that holds a staging directory: a child process that creates
/// one, writes into it and waits to be killed.
struct Holder {
  pid_t pid = -1;
  fs::path staging;
};

Holder start_holder(const fs::path& out) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(ready[0]);
    StagingDirectory staging(out);
    hydra::util::write_file_atomic(staging.path() / "build.log", "half a build\n");
    const std::string path = staging.path().string() + "\n";
    if (::write(ready[1], path.data(), path.size()) < 0) ::_exit(2);
    ::pause();  // until killed
    ::_exit(1);
  }
  ::close(ready[1]);
  std::string path;
  char byte = 0;
  while (::read(ready[0], &byte, 1) == 1 && byte != '\n') path += byte;
  ::close(ready[0]);
  REQUIRE(!path.empty());
  REQUIRE(fs::is_regular_file(fs::path(path) / "build.log"));
  return {child, path};
}

/// Kills the holder by SIGKILL, as a capture may be killed: its staging
/// directory stays behind, no longer locked.
fs::path kill_holder(const Holder& holder) {
  ::kill(holder.pid, SIGKILL);
  int status = 0;
  ::waitpid(holder.pid, &status, 0);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(fs::is_directory(holder.staging));
  return holder.staging;
}

}  // namespace

TEST_CASE("a staging directory is created next to the run directory, locked, and removed after",
          "[capture][staging]") {
  hydra::util::TempDir temp("hydra-staging-test");
  const fs::path out = temp.path() / "run";
  fs::path staged;
  {
    StagingDirectory staging(out);
    staged = staging.path();
    CHECK(staged.parent_path() == temp.path());
    const std::string name = staged.filename().string();
    CHECK(name.rfind(".run.capture-", 0) == 0);
    CHECK(name.size() == std::string(".run.capture-").size() + 6);  // mkdtemp's XXXXXX
    CHECK(fs::is_directory(staged));
    CHECK(staging.locked());
    // While it is held, no capture may take it.
    CHECK(remove_stale_staging(out).empty());
    CHECK(fs::is_directory(staged));
  }
  CHECK_FALSE(fs::exists(staged));
}

TEST_CASE("the next capture removes the staging directories of killed captures", "[capture][staging]") {
  hydra::util::TempDir temp("hydra-staging-test");
  const fs::path out = temp.path() / "run";
  SECTION("valid input: stale ones go, the new one stays") {
    // Two captures at once (neither removes the other's), both killed.
    const Holder first_holder = start_holder(out);
    const Holder second_holder = start_holder(out);
    const fs::path first = kill_holder(first_holder);
    const fs::path second = kill_holder(second_holder);
    CHECK(names_in(temp.path()).size() == 2);
    StagingDirectory staging(out);
    CHECK_FALSE(fs::exists(first));
    CHECK_FALSE(fs::exists(second));
    CHECK(names_in(temp.path()) == std::vector<std::string>{staging.path().filename().string()});
  }
  SECTION("bad input: a live capture's directory and other names are left alone") {
    StagingDirectory live(out);
    // Not staging directories of `run`: another run directory's, a wrong
    // suffix length, and a plain file with the right shape of name.
    fs::create_directory(temp.path() / ".run.capture-x.capture-ABCdef");
    fs::create_directory(temp.path() / ".runner.capture-ABCdef");
    fs::create_directory(temp.path() / ".run.capture-ABCde");
    fs::create_directory(temp.path() / ".run.capture-ABC.ef");
    hydra::util::write_file_atomic(temp.path() / "notes.txt", "mine\n");
    const fs::path stale = kill_holder(start_holder(out));

    const auto removed = remove_stale_staging(out);
    CHECK(removed == std::vector<fs::path>{stale});
    CHECK(fs::is_directory(live.path()));
    std::vector<std::string> kept = {".run.capture-ABC.ef", ".run.capture-ABCde", ".run.capture-x.capture-ABCdef",
                                     ".runner.capture-ABCdef", "notes.txt", live.path().filename().string()};
    std::sort(kept.begin(), kept.end());
    CHECK(names_in(temp.path()) == kept);
  }
}

TEST_CASE("a published staging path is cleared, the run directory kept", "[capture][staging]") {
  hydra::util::TempDir temp("hydra-staging-test");
  const fs::path out = temp.path() / "run";
  {
    StagingDirectory staging(out);
    hydra::util::write_file_atomic(staging.path() / "manifest.json", "{}\n");
    fs::rename(staging.path(), out);  // what publishing does when `out` is new
  }
  CHECK(fs::is_regular_file(out / "manifest.json"));
  CHECK(names_in(temp.path()) == std::vector<std::string>{"run"});
}

TEST_CASE("publishing over an existing run leaves the new run and nothing else", "[capture][staging]") {
  hydra::util::TempDir temp("hydra-staging-test");
  const fs::path out = temp.path() / "run";
  fs::create_directories(out);
  hydra::util::write_file_atomic(out / "manifest.json", "{\"old\": true}\n");
  {
    StagingDirectory staging(out);
    hydra::util::write_file_atomic(staging.path() / "manifest.json", "{\"new\": true}\n");
    hydra::pipeline::publish_run_directory(staging.path(), out);
  }
  CHECK(hydra::util::read_file(out / "manifest.json") == "{\"new\": true}\n");
  CHECK(names_in(temp.path()) == std::vector<std::string>{"run"});
}
