// End to end: captures on separate "runners" (their own clones at their own
// paths, their own run and cache folders) share a real Redis server through
// `HYDRA_SCORE_CACHE_REMOTE` (docs/caches.md):
//  - a baseline sends its lint entries and ccache's results; a candidate on
//    another runner takes them (lint and compiler hits from the shared cache)
//    and its signals are those of the same candidate without the cache;
//  - faults change nothing but time: a corrupted entry, a wrong address, a
//    full cache, a server killed in the middle of a capture;
//  - a candidate cannot poison what others read: its build forges, by every
//    route open to it, the cached object of src/answer.cpp (ccache run again
//    with a prefix command compiling a fixed copy, entries written into the
//    cache folders and into its own outbox, the Redis socket); a capture of
//    the unchanged base after it still builds the bug. The same tree
//    captured as a trusted base (which is allowed to write) does poison
//    it: the route is real, and the reader role is what closes it.
#include <catch2/catch.hpp>

#include <thread>

#include "e2e_support.hpp"
#include "remote/redis_server.hpp"

#include <hydra/util/text.hpp>

using namespace e2e;

namespace {

using hydra::util::write_file_atomic;

void create(const fs::path& file, const std::string& text, bool executable = false) {
  fs::create_directories(file.parent_path());
  write_file_atomic(file, text);
  if (executable) fs::permissions(file, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

const char* const kCMake =
    "cmake_minimum_required(VERSION 3.16)\n"
    "project(answer_demo CXX)\n"
    "set(CMAKE_CXX_STANDARD 17)\n"
    "enable_testing()\n"
    "add_library(answer src/answer.cpp src/extra.cpp)\n"
    "target_include_directories(answer PUBLIC src)\n"
    "add_executable(answer_test tests/answer_test.cpp)\n"
    "target_link_libraries(answer_test PRIVATE answer)\n"
    "add_test(NAME answer.fixed COMMAND answer_test)\n";

void make_repository(const fs::path& source) {
  create(source / "CMakeLists.txt", kCMake);
  create(source / ".clang-tidy", "Checks: '-*,readability-braces-around-statements,bugprone-*'\n");
  create(source / "src/answer.hpp", "#pragma once\nint answer();\nint extra(int x);\n");
  create(source / "src/answer.cpp", "#include \"answer.hpp\"\nint answer() { return 41; }  // the bug: 42\n");
  create(source / "src/extra.cpp",
         "#include \"answer.hpp\"\nint extra(int x) {\n  if (x > 0) return x;\n  return -x;\n}\n");
  create(source / "tests/answer_test.cpp", "#include \"answer.hpp\"\nint main() { return answer() == 42 ? 0 : 1; }\n");
  commit_repository(source);
  git(source, {"checkout", "--quiet", "-b", "fix"});
  create(source / "src/answer.cpp", "#include \"answer.hpp\"\nint answer() { return 42; }\n");
  git(source, {"commit", "--quiet", "-am", "fix"});
  git(source, {"checkout", "--quiet", "main"});
}

/// The poisoning build: a target that runs before the library's own
/// compilations are looked up by anyone else, and forges the entry of
/// src/answer.cpp's object by every route the build has.
void add_poison(const fs::path& tree, const fs::path& redis_socket) {
  create(tree / "forged/answer.cpp", "#include \"answer.hpp\"\nint answer() { return 42; }\n");
  // ccache's prefix command is not part of its key: the compiler it calls
  // compiles the forged copy into the object of the real source.
  create(tree / "forged/compile.sh",
         "#!/bin/sh\nout=\"\"\nfor a in \"$@\"; do\n"
         "  case \"$a\" in */src/answer.cpp) out=\"$out $FORGED\";; *) out=\"$out $a\";; esac\ndone\n"
         "exec $out\n",
         true);
  create(tree / "forged/poison.sh",
         "#!/bin/sh\n# $1: the build tree. Recompiles src/answer.cpp's object through ccache, forged.\n"
         "cd \"$1\" || exit 0\n"
         "command=$(ninja -C \"$1\" -t commands CMakeFiles/answer.dir/src/answer.cpp.o | tail -1)\n"
         "src=$(dirname \"$0\")/..\n"
         "export FORGED=\"$(cd \"$src\" && pwd)/forged/answer.cpp\" CCACHE_PREFIX=\"$(cd \"$src\" && pwd)/forged/compile.sh\"\n"
         "export CCACHE_RECACHE=1 CCACHE_NOREADONLY=1\n"
         "unset CCACHE_READONLY\n"
         "case \"$command\" in *ccache*) ;; *) command=\"ccache $command\";; esac\n"
         "sh -c \"$command\" || true\n"
         "# Straight into every cache folder it can name, and its own outbox.\n"
         "for d in \"$CCACHE_DIR\" \"$CCACHE_DIR/../ccache-shared\" \"$CCACHE_DIR/../lint\" \"$1/.hydra-ccache-outbox\"; do\n"
         "  mkdir -p \"$d\" 2>/dev/null && echo forged > \"$d/forged-entry\" 2>/dev/null\n"
         "done\n"
         "# And the service itself.\n"
         "redis-cli -s '" + redis_socket.string() + "' SET hydra/forged forged > /dev/null 2>&1\n"
         "redis-cli -h 127.0.0.1 SET hydra/forged forged > /dev/null 2>&1\n"
         "exit 0\n",
         true);
  std::string cmake = kCMake;
  cmake += "add_custom_target(poison ALL COMMAND sh ${CMAKE_SOURCE_DIR}/forged/poison.sh ${CMAKE_BINARY_DIR}\n"
           "  DEPENDS answer VERBATIM)\n"
           "add_dependencies(answer_test poison)\n";
  create(tree / "CMakeLists.txt", cmake);
}

struct Runner {
  fs::path folder;
  fs::path tree;
};

/// A runner of its own: a clone of `origin` at `branch` in `folder`.
Runner make_runner(const fs::path& origin, const fs::path& folder, const std::string& branch) {
  Runner runner{folder, folder / "checkout"};
  fs::create_directories(folder);
  const auto cloned = run({"git", "clone", "--quiet", "--branch", branch, origin.string(), runner.tree.string()});
  if (cloned.exit_code != 0) throw std::runtime_error("git clone failed: " + cloned.output);
  return runner;
}

/// Captures `runner`'s tree as `name` (a baseline when `baseline` is empty)
/// with the shared cache at `remote` (none when empty); the run directory.
fs::path capture(const Runner& runner, const std::string& name, const fs::path& baseline, const std::string& remote,
                 const std::vector<std::string>& more = {}) {
  const fs::path out = runner.folder / "runs" / name;
  std::vector<std::string> argv =
      capture_command(runner.tree, out,
                      {"--build-dir", (runner.folder / "build" / name).string(), "--agent", name, "--generator",
                       "Ninja", "--jobs", "2", "--quiet"});
  if (!baseline.empty()) argv.insert(argv.end(), {"--baseline-run", baseline.string()});
  argv.insert(argv.end(), more.begin(), more.end());
  std::map<std::string, std::string> environment;
  environment["HYDRA_SCORE_CACHE_REMOTE"] = remote;
  hydra::util::ProcessRequest request;
  request.argv = argv;
  request.environment = environment;
  request.environment["NO_COLOR"] = "1";
  request.timeout = std::chrono::minutes(20);
  const auto result = hydra::util::run_process(request);
  INFO(name << ": " << result.output);
  REQUIRE(fs::is_regular_file(out / "manifest.json"));
  return out;
}

/// What a capture measured, without what only says how it went (times,
/// caches, paths): the signals every score is computed from.
nlohmann::json measured(const fs::path& run) {
  nlohmann::json signals = read_json(run / "signals.json");
  nlohmann::json kept;
  kept["build"] = signals["build"]["passed"];
  kept["tests"] = signals["tests"];
  if (kept["tests"].is_object()) kept["tests"].erase("seconds");
  kept["lint"] = signals["lint"];
  return kept;
}

bool test_passed(const fs::path& run) {
  const auto signals = read_json(run / "signals.json");
  if (!signals["tests"].is_object()) return false;
  return signals["tests"].value("passed", 0) == 1 && signals["tests"].value("failed", 0) == 0;
}

}  // namespace

TEST_CASE("shared cache e2e: runners share lint and compiler results through Redis, faults change nothing, "
          "a candidate cannot poison them",
          "[e2e][shared_cache]") {
  hydra::util::TempDir temp("hydra-e2e-shared-cache");
  const fs::path root = temp.path();
  const fs::path origin = root / "origin";
  make_repository(origin);
  remote_test::RedisServer server;
  const std::string url = server.url();

  // The baseline's runner sends what it built and linted.
  const Runner base_runner = make_runner(origin, root / "runner-base", "main");
  const fs::path baseline = capture(base_runner, "baseline", {}, url);
  const auto base_manifest = read_json(baseline / "manifest.json");
  INFO(base_manifest["caches"].dump(1));
  CHECK(base_manifest["caches"]["shared"]["role"] == "writer");
  CHECK(base_manifest["caches"]["shared"]["writes"].get<int>() > 0);
  CHECK(base_manifest["caches"]["compiler"]["shared"]["sent"].get<int>() > 0);
  CHECK_FALSE(test_passed(baseline));

  // A candidate on a runner of its own reads them, and measures what it
  // measures without them.
  const Runner shared_runner = make_runner(origin, root / "runner-shared", "fix");
  const fs::path shared = capture(shared_runner, "fix", baseline, url);
  const auto shared_manifest = read_json(shared / "manifest.json");
  INFO(shared_manifest["caches"].dump(1));
  CHECK(shared_manifest["caches"]["shared"]["role"] == "reader");
  CHECK(shared_manifest["caches"]["shared"]["hits"].get<int>() > 0);
  CHECK(shared_manifest["caches"]["shared"]["writes"] == 0);
  CHECK(shared_manifest["caches"]["compiler"]["shared"]["fetched"].get<int>() > 0);
  CHECK(shared_manifest["caches"]["compiler"]["shared"]["remote_hits"].get<int>() > 0);
  const Runner alone_runner = make_runner(origin, root / "runner-alone", "fix");
  const fs::path alone = capture(alone_runner, "fix", baseline, "");
  CHECK_FALSE(read_json(alone / "manifest.json")["caches"].contains("shared"));
  CHECK(measured(shared) == measured(alone));
  CHECK(test_passed(shared));
  // The report says how many lookups went to the shared cache and how many hit.
  const auto scored = run({kTool.string(), "score", "--baseline", baseline.string(), "--candidate", shared.string(),
                           "--json", (root / "score.json").string()});
  INFO(scored.output);
  const auto contract = read_json(root / "score.json");
  const std::string caches = ranking_of(contract, "fix")["run"].value("caches", "");
  CHECK(caches.find("shared cache (reader): ") != std::string::npos);
  CHECK(caches.find(" lookups hit") != std::string::npos);

  // A candidate's build forges src/answer.cpp's cached object by every
  // route it has; the unchanged base captured after it still fails.
  const Runner attacker = make_runner(origin, root / "runner-attacker", "main");
  git(attacker.tree, {"checkout", "--quiet", "-b", "poison"});
  add_poison(attacker.tree, server.socket());
  git(attacker.tree, {"add", "--all"});
  git(attacker.tree, {"-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "commit", "--quiet", "-m",
                      "poison"});
  git(origin, {"fetch", "--quiet", attacker.tree.string(), "poison:poison"});
  capture(attacker, "poison", baseline, url);
  CHECK(server.cli({"EXISTS", "hydra/forged"}).find('0') != std::string::npos);
  // The same candidate as a CI job captures it: its own runner, no
  // baseline run, a base ref to diff against. Still a reader.
  const Runner ci_attacker = make_runner(origin, root / "runner-ci-attacker", "poison");
  capture(ci_attacker, "poison-ci", {}, url, {"--base-ref", "origin/main"});
  CHECK(read_json(ci_attacker.folder / "runs/poison-ci/manifest.json")["caches"]["shared"]["role"] == "reader");
  const Runner next_runner = make_runner(origin, root / "runner-next", "main");
  const fs::path next = capture(next_runner, "noop", baseline, url);
  CHECK(read_json(next / "manifest.json")["caches"]["compiler"]["shared"]["remote_hits"].get<int>() > 0);
  CHECK_FALSE(test_passed(next));

  // Faults: a corrupted entry, a wrong address, each a plain miss.
  const std::string keys = server.cli({"--scan", "--pattern", "hydra/lint/*"});
  int corrupted = 0;
  for (const auto key : hydra::util::split(keys, '\n')) {
    if (key.empty()) continue;
    server.cli({"SET", std::string(key), "not an entry"});
    ++corrupted;
  }
  CHECK(corrupted > 0);
  const Runner corrupt_runner = make_runner(origin, root / "runner-corrupt", "fix");
  const fs::path corrupt = capture(corrupt_runner, "fix", baseline, url);
  CHECK(read_json(corrupt / "manifest.json")["caches"]["shared"]["corrupt"].get<int>() > 0);
  CHECK(measured(corrupt) == measured(alone));
  const Runner wrong_runner = make_runner(origin, root / "runner-wrong", "fix");
  const fs::path wrong = capture(wrong_runner, "fix", baseline, "redis+unix:" + (root / "no.sock").string());
  CHECK(read_json(wrong / "manifest.json")["caches"]["shared"].contains("unavailable"));
  CHECK(measured(wrong) == measured(alone));

  // The server killed in the middle of a capture.
  const Runner killed_runner = make_runner(origin, root / "runner-killed", "fix");
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::seconds(4));
    server.stop();
  });
  const fs::path killed = capture(killed_runner, "fix", baseline, url);
  killer.join();
  CHECK(measured(killed) == measured(alone));

  // A full cache: a baseline whose writes are refused completes as one
  // without the cache.
  remote_test::RedisServer full({"maxmemory 1", "maxmemory-policy noeviction"});
  const Runner full_runner = make_runner(origin, root / "runner-full", "main");
  const fs::path full_baseline = capture(full_runner, "baseline", {}, full.url());
  const auto full_manifest = read_json(full_baseline / "manifest.json");
  CHECK(full_manifest["caches"]["shared"].contains("unavailable"));
  CHECK(measured(full_baseline) == measured(baseline));

  // The same poisoning tree captured as a trusted base (a capture with
  // neither a baseline run nor a base ref writes): the forged object reaches the next capture.
  remote_test::RedisServer open_server;
  const Runner trusted = make_runner(origin, root / "runner-trusted", "main");
  add_poison(trusted.tree, open_server.socket());  // uncommitted: the tree is still at the base commit
  capture(trusted, "trusted", {}, open_server.url());
  const Runner victim = make_runner(origin, root / "runner-victim", "main");
  const fs::path poisoned = capture(victim, "noop", baseline, open_server.url());
  // The forged object reaches it: the cache served the object compiled from
  // forged/answer.cpp, whose dependencies name that file. (The capture then
  // names the file as read outside the change, and its relink check builds
  // the program afresh: the poisoned run is not believed either way.)
  const auto victim_manifest = read_json(poisoned / "manifest.json");
  INFO(victim_manifest.dump(1));
  CHECK(victim_manifest["problems"].dump().find("forged/answer.cpp") != std::string::npos);
}
