// Shared storage (src/hydra/remote/): addresses, entry framing, the folder
// backend, and the Redis backend against a real redis-server with the faults
// a fleet meets: a server killed mid-use, a corrupted entry, a full cache, a
// wrong address. Every fault leaves a lookup a plain miss.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <hydra/error.hpp>
#include <hydra/remote/shared_cache.hpp>
#include <hydra/remote/storage.hpp>

#include "remote/http_server.hpp"
#include "remote/redis_server.hpp"

namespace fs = std::filesystem;
using hydra::remote::Address;
using hydra::remote::Role;
using hydra::remote::SharedCache;

namespace {

fs::path scratch(const std::string& name) {
  const auto folder = fs::temp_directory_path() / ("hydra-remote-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

hydra::remote::Limits quick() {
  hydra::remote::Limits limits;
  limits.connect = std::chrono::milliseconds(500);
  limits.operation = std::chrono::milliseconds(1000);
  return limits;
}

}  // namespace

TEST_CASE("storage addresses are ccache's remote-storage URLs") {
  const auto redis = hydra::remote::parse_address("redis://reader:s3cret@cache.example:6380/2");
  CHECK(redis.kind == Address::Kind::redis);
  CHECK(redis.host == "cache.example");
  CHECK(redis.port == 6380);
  CHECK(redis.database == 2);
  CHECK(redis.user == "reader");
  CHECK(redis.password == "s3cret");
  CHECK(redis.url == "redis://***@cache.example:6380/2");  // messages never show the password

  const auto plain = hydra::remote::parse_address("redis://localhost");
  CHECK(plain.port == 6379);
  CHECK(plain.database == 0);
  CHECK(plain.password.empty());

  const auto unix_socket = hydra::remote::parse_address("redis+unix:/run/redis/redis.sock?db=3");
  CHECK(unix_socket.kind == Address::Kind::redis_unix);
  CHECK(unix_socket.path == "/run/redis/redis.sock");
  CHECK(unix_socket.database == 3);

  const auto folder = hydra::remote::parse_address("file:///var/cache/hydra");
  CHECK(folder.kind == Address::Kind::file);
  CHECK(folder.path == "/var/cache/hydra");

  const auto http = hydra::remote::parse_address("http://cache:8080/hydra");
  CHECK(http.kind == Address::Kind::http);
  CHECK(http.port == 8080);
  CHECK(http.prefix == "http://cache:8080/hydra/");

  CHECK_THROWS_WITH(hydra::remote::parse_address("ftp://x"), Catch::Contains("'ftp://x'") && Catch::Contains("expected"));
  CHECK_THROWS_WITH(hydra::remote::parse_address("redis://h:99999"), Catch::Contains("port '99999'"));
  CHECK_THROWS_WITH(hydra::remote::parse_address("file:relative"), Catch::Contains("absolute"));
}

TEST_CASE("an entry verifies only with the payload it was written with") {
  const auto entry = hydra::remote::frame_entry("object code");
  CHECK(hydra::remote::unframe_entry(entry) == std::optional<std::string>("object code"));
  auto flipped = entry;
  flipped.back() = 'E';
  CHECK_FALSE(hydra::remote::unframe_entry(flipped));
  CHECK_FALSE(hydra::remote::unframe_entry(entry.substr(0, entry.size() - 1)));
  CHECK_FALSE(hydra::remote::unframe_entry("object code"));
  CHECK(hydra::remote::unframe_entry(hydra::remote::frame_entry("")) == std::optional<std::string>(""));
}

TEST_CASE("a folder storage keeps entries as files and refuses keys that leave it") {
  const auto folder = scratch("folder");
  SharedCache writer(hydra::remote::parse_address("file:" + folder.string()), quick(), "base", Role::writer);
  CHECK(writer.put("lint/abc", "findings"));
  CHECK(fs::is_regular_file(folder / "base" / "lint" / "abc"));
  SharedCache reader(hydra::remote::parse_address("file:" + folder.string()), quick(), "base", Role::reader);
  CHECK(reader.get("lint/abc") == std::optional<std::string>("findings"));
  CHECK_FALSE(reader.get("lint/absent"));
  CHECK_FALSE(reader.put("lint/abc", "forged"));  // a reader never writes
  CHECK(reader.get("lint/abc") == std::optional<std::string>("findings"));
  CHECK(reader.stats().lookups == 3);  // abc, absent, abc again
  CHECK(reader.stats().hits == 2);

  auto storage = hydra::remote::open_storage(hydra::remote::parse_address("file:" + folder.string()), quick());
  CHECK_THROWS_WITH(storage->get("../outside"), Catch::Contains("invalid key"));
  CHECK_THROWS_WITH(storage->put("a//b", "x"), Catch::Contains("invalid key"));
}

TEST_CASE("Redis: entries round-trip, a reader writes nothing, a corrupted entry is a miss") {
  remote_test::RedisServer server;
  const auto address = hydra::remote::parse_address(server.url());
  SharedCache writer(address, quick(), "base", Role::writer);
  std::string binary("\0\x01\xff payload", 11);
  CHECK(writer.put("ccache/k1", binary));
  CHECK(writer.stats().writes == 1);

  SharedCache reader(address, quick(), "base", Role::reader);
  CHECK(reader.get("ccache/k1") == std::optional<std::string>(binary));
  CHECK_FALSE(reader.put("ccache/k2", "forged"));
  CHECK(server.cli({"EXISTS", "base/ccache/k2"}).find('0') != std::string::npos);

  // A corrupted entry (someone wrote the key with other bytes) is a miss.
  server.cli({"SET", "base/ccache/k1", "not a framed entry"});
  CHECK_FALSE(reader.get("ccache/k1"));
  const auto stats = reader.stats();
  CHECK(stats.lookups == 2);
  CHECK(stats.hits == 1);
  CHECK(stats.corrupt == 1);
  CHECK(stats.unavailable.empty());

  // Another namespace is another set of keys.
  SharedCache other(address, quick(), "candidate-a", Role::reader);
  CHECK_FALSE(other.get("ccache/k1"));
}

TEST_CASE("Redis: a server killed mid-use, a full cache and a wrong address leave plain misses") {
  SECTION("killed") {
    remote_test::RedisServer server;
    SharedCache cache(hydra::remote::parse_address(server.url()), quick(), "base", Role::writer);
    CHECK(cache.put("a", "1"));
    server.stop();
    CHECK_FALSE(cache.get("a"));
    CHECK_FALSE(cache.stats().unavailable.empty());
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) CHECK_FALSE(cache.get("a"));  // given up: no new attempts
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
    CHECK(cache.stats().lookups == 1);
  }
  SECTION("full") {
    remote_test::RedisServer server({"maxmemory 1mb", "maxmemory-policy noeviction"});
    SharedCache cache(hydra::remote::parse_address(server.url()), quick(), "base", Role::writer);
    const std::string big(300 * 1024, 'x');
    int written = 0;
    for (int i = 0; i < 20 && cache.put("big" + std::to_string(i), big); ++i) ++written;
    CHECK(written < 20);
    CHECK_THAT(cache.stats().unavailable, Catch::Contains("maxmemory") || Catch::Contains("OOM"));
    CHECK_FALSE(cache.get("big0"));  // the service is no longer used: a miss
  }
  SECTION("wrong address") {
    const auto folder = scratch("nowhere");
    SharedCache cache(hydra::remote::parse_address("redis+unix:" + (folder / "absent.sock").string()), quick(),
                      "base", Role::reader);
    CHECK_FALSE(cache.get("a"));
    CHECK_THAT(cache.stats().unavailable, Catch::Contains("cannot connect"));
    SharedCache tcp(hydra::remote::parse_address("redis://127.0.0.1:1"), quick(), "base", Role::reader);
    CHECK_FALSE(tcp.get("a"));
    CHECK_FALSE(tcp.stats().unavailable.empty());
  }
}

TEST_CASE("a folder moves through the cache by an index, and only verified files arrive") {
  remote_test::RedisServer server;
  const auto address = hydra::remote::parse_address(server.url());
  const auto source = scratch("publish");
  fs::create_directories(source / "a");
  std::ofstream(source / "a" / "one") << "first";
  std::ofstream(source / "two") << "second";
  SharedCache writer(address, quick(), "base", Role::writer);
  const auto sent = hydra::remote::publish_folder(writer, source, "ccache");
  CHECK(sent.files == 2);

  // A reader publishes nothing.
  SharedCache reader(address, quick(), "base", Role::reader);
  CHECK(hydra::remote::publish_folder(reader, source, "forged").files == 0);
  CHECK(server.cli({"EXISTS", "base/index/forged"}).find('0') != std::string::npos);

  // An entry replaced by a writer with other bytes does not match the index.
  SharedCache intruder(address, quick(), "base", Role::writer);
  intruder.put("files/two", "tampered");
  const auto target = scratch("fetch");
  const auto fetched = hydra::remote::fetch_folder(reader, "ccache", target);
  CHECK(fetched.files == 2);
  CHECK(fetched.fetched == 1);
  CHECK(fetched.missing == 1);
  CHECK(fs::is_regular_file(target / "a" / "one"));
  CHECK_FALSE(fs::exists(target / "two"));
  const auto again = hydra::remote::fetch_folder(reader, "ccache", target);
  CHECK(again.present == 1);
}

TEST_CASE("HTTP: entries round-trip through GET and PUT, a missing one is a 404 miss, a stopped server a miss") {
  {
    remote_test::HttpServer server;
    const auto address = hydra::remote::parse_address(server.url());
    SharedCache writer(address, quick(), "base", Role::writer);
    const std::string payload("\0binary\xff", 8);
    REQUIRE(writer.put("lint/unit1", payload));
    CHECK(fs::is_regular_file(server.www() / "cache" / "base" / "lint" / "unit1"));
    SharedCache reader(address, quick(), "base", Role::reader);
    CHECK(reader.get("lint/unit1") == std::optional<std::string>(payload));
    CHECK_FALSE(reader.get("lint/absent"));
    CHECK(reader.stats().unavailable.empty());
    CHECK_FALSE(reader.put("lint/unit2", "forged"));
    CHECK_FALSE(fs::exists(server.www() / "cache" / "base" / "lint" / "unit2"));
  }
  // The server is gone: a lookup is a miss, the reason is kept.
  SharedCache cache(hydra::remote::parse_address("http://127.0.0.1:1/cache"), quick(), "base", Role::reader);
  CHECK_FALSE(cache.get("lint/unit1"));
  CHECK_THAT(cache.stats().unavailable, Catch::Contains("GET failed"));
}
