// The lint cache's pure parts and its entry files: command splitting, the
// preprocessing command, path placeholders, verified entries, corrupt
// entries as misses, and trimming to the size bound. The keys themselves
// are exercised with real compilers and clang-tidy in
// tests/e2e/test_incremental_capture.cpp.
#include <catch2/catch.hpp>

#include <thread>

#include <hydra/capture/cmake/compiler_cache.hpp>
#include <hydra/capture/lint/cache.hpp>
#include <hydra/util/files.hpp>

using namespace hydra::capture;
namespace fs = std::filesystem;

TEST_CASE("split_command splits like a POSIX shell", "[capture][lint_cache]") {
  CHECK(split_command("/usr/bin/c++  -DX=1 -I/a\\ b -o f.o -c /src/f.cpp") ==
        std::vector<std::string>{"/usr/bin/c++", "-DX=1", "-I/a b", "-o", "f.o", "-c", "/src/f.cpp"});
  CHECK(split_command(R"(cc "-DNAME=\"v 1\"" '-DQ=a b' "")") ==
        std::vector<std::string>{"cc", "-DNAME=\"v 1\"", "-DQ=a b", ""});
}

TEST_CASE("preprocess_arguments keeps the unit's flags and asks for comments", "[capture][lint_cache]") {
  CompileCommand command;
  command.arguments = {"/usr/bin/c++", "-DX", "-Iinc", "-MD",  "-MT", "f.o", "-MF", "f.o.d",
                       "-o",           "f.o", "-c",    "f.cpp"};
  CHECK(preprocess_arguments(command) ==
        std::vector<std::string>{"/usr/bin/c++", "-E", "-C", "-DX", "-Iinc", "f.cpp", "-o", "-"});
}

TEST_CASE("compile_commands_by_file reads arguments and command forms", "[capture][lint_cache]") {
  const auto database = nlohmann::json::parse(R"([
    {"directory": "/b", "file": "../s/a.cpp", "command": "c++ -c ../s/a.cpp -o a.o"},
    {"directory": "/b", "file": "/s/b.cpp", "arguments": ["c++", "-c", "/s/b.cpp"]},
    {"directory": "/b", "file": 3},
    {"directory": "/b", "file": "/s/b.cpp", "arguments": ["c++", "-DKERNEL", "-c", "/s/b.cpp"]}
  ])");
  const auto commands = compile_commands_by_file(database);
  REQUIRE(commands.size() == 2);
  CHECK(commands.at("/s/a.cpp").arguments == std::vector<std::string>{"c++", "-c", "../s/a.cpp", "-o", "a.o"});
  CHECK_FALSE(commands.at("/s/a.cpp").several);
  CHECK(commands.at("/s/b.cpp").directory == "/b");
  // Two commands for one file: no cache key made from one of them covers it.
  CHECK(commands.at("/s/b.cpp").several);
}

TEST_CASE("path placeholders make trees at different paths write the same text", "[capture][lint_cache]") {
  const PathRoots first({"/runs/src", "/runs/src/build/one"});
  const PathRoots second({"/other/src", "/other/src/build/two"});
  const std::string one = "/runs/src/a.cpp:1:2: warning: x\n/runs/src/build/one/gen.h:3:4: warning: y\n";
  const std::string two = "/other/src/a.cpp:1:2: warning: x\n/other/src/build/two/gen.h:3:4: warning: y\n";
  CHECK(first.normalize(one) == second.normalize(two));
  CHECK(first.normalize(one).find("/runs") == std::string::npos);
  CHECK(second.restore(first.normalize(one)) == two);
  CHECK(first.restore(first.normalize(one)) == one);
}

TEST_CASE("lint cache entries verify their payload, a corrupt entry is a miss", "[capture][lint_cache]") {
  hydra::util::TempDir temp("hydra-lint-cache");
  const LintCache cache(temp.path() / "lint", 1 << 20);
  const std::string key(64, 'a');
  CHECK_FALSE(cache.load(key));
  REQUIRE(cache.store(key, {1, "a.cpp:1:1: warning: w [check]\n"}));
  auto entry = cache.load(key);
  REQUIRE(entry);
  CHECK(entry->exit_code == 1);
  CHECK(entry->output == "a.cpp:1:1: warning: w [check]\n");

  // One flipped byte of the payload: the digest no longer matches.
  const fs::path file = temp.path() / "lint" / "aa" / key;
  std::string bytes = hydra::util::read_file(file);
  bytes.back() = 'X';
  hydra::util::write_file_atomic(file, bytes);
  CHECK_FALSE(cache.load(key));
  CHECK_FALSE(fs::exists(file));  // removed, so the next store replaces it

  // A truncated entry (as a killed writer without rename would leave) and garbage.
  CHECK_FALSE(LintCache::decode(LintCache::encode({0, "out"}).substr(0, 40)));
  CHECK_FALSE(LintCache::decode("hydra-lint-cache/1 zz\n0\n"));
  CHECK(LintCache::decode(LintCache::encode({0, ""}))->output.empty());
}

TEST_CASE("the lint cache is trimmed oldest first to 90% of its bound", "[capture][lint_cache]") {
  hydra::util::TempDir temp("hydra-lint-trim");
  // Every entry: header (18 + 1 + 64 + 1) + "0\n" + 914 bytes of output = 1000 bytes.
  const std::string output(1000 - 84 - 2, 'x');
  REQUIRE(LintCache::encode({0, output}).size() == 1000);
  const LintCache cache(temp.path(), 5000);
  std::vector<std::string> keys;
  for (char c = 'a'; c <= 'h'; ++c) {
    keys.emplace_back(64, c);
    REQUIRE(cache.store(keys.back(), {0, output}));
    fs::last_write_time(temp.path() / keys.back().substr(0, 2) / keys.back(),
                        fs::file_time_type::clock::now() - std::chrono::hours(100 - (c - 'a')));
  }
  // 8000 bytes > 5000: remove oldest until at most 4500 remain, i.e. 4 kept.
  CHECK(cache.trim() == 4);
  for (std::size_t i = 0; i < keys.size(); ++i) CHECK(cache.load(keys[i]).has_value() == (i >= 4));
  CHECK(cache.trim() == 0);
}

TEST_CASE("ccache stats logs are counted per compilation", "[capture][compiler_cache]") {
  // Recorded from ccache 4.7 (CCACHE_STATSLOG): one miss, then one direct hit.
  const std::string log =
      "# a.cpp\ncache_miss\ndirect_cache_miss\nlocal_storage_miss\nlocal_storage_read_miss\n"
      "local_storage_read_miss\nlocal_storage_write\nlocal_storage_write\npreprocessed_cache_miss\n"
      "# a.cpp\ndirect_cache_hit\nlocal_storage_hit\nlocal_storage_read_hit\nlocal_storage_read_hit\n";
  const CompilerCacheStats stats = parse_stats_log(log);
  CHECK(stats.calls == 2);
  CHECK(stats.hits == 1);
  CHECK(stats.misses == 1);
}

TEST_CASE("held lint cache stores are seen by their holders and written only when released to be kept",
          "[capture][lint_cache]") {
  hydra::util::TempDir temp("hydra-lint-held");
  const LintCache cache(temp.path() / "lint", 1 << 20);
  const LintCache other(temp.path() / "lint", 1 << 20);  // another capture's
  const std::string kept(64, 'b'), dropped(64, 'c'), direct(64, 'd');
  // Held: the holder sees the entry, the cache folder does not have it.
  cache.hold_stores();
  REQUIRE(cache.store(kept, {0, "kept\n"}));
  REQUIRE(cache.load(kept));
  CHECK(cache.load(kept)->output == "kept\n");
  CHECK_FALSE(other.load(kept));
  cache.release_stores(true);
  REQUIRE(other.load(kept));
  CHECK(other.load(kept)->output == "kept\n");
  // Released to be dropped: never written.
  cache.hold_stores();
  REQUIRE(cache.store(dropped, {1, "dropped\n"}));
  cache.release_stores(false);
  CHECK_FALSE(cache.load(dropped));
  CHECK_FALSE(other.load(dropped));
  // After a release, stores go straight to the cache again.
  REQUIRE(cache.store(direct, {0, "direct\n"}));
  CHECK(other.load(direct));
}

TEST_CASE("two cache objects holding into one pool see each other's entries", "[capture][lint_cache]") {
  hydra::util::TempDir temp("hydra-lint-pool");
  // As the build's warm-up and the lint step after it share theirs.
  const LintCache warm(temp.path() / "lint", 1 << 20), lint(temp.path() / "lint", 1 << 20);
  const auto pool = std::make_shared<LintCache::HeldStores>();
  warm.hold_stores(pool);
  const std::string key(64, 'e');
  REQUIRE(warm.store(key, {0, "warm\n"}));
  lint.hold_stores(pool);
  REQUIRE(lint.load(key));
  CHECK(lint.load(key)->output == "warm\n");
  // Emptied (the warm-up's reads were written since): a miss.
  {
    std::lock_guard lock(pool->mutex);
    pool->entries.clear();
  }
  CHECK_FALSE(lint.load(key));
  lint.release_stores(true);
  CHECK_FALSE(fs::exists(temp.path() / "lint" / "ee" / key));
  CHECK_FALSE(warm.load(key));
}
