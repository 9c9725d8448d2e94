// Tests for telling a step that needed the network (capture/sandbox/network_use.hpp):
// the lines tools print without one, recorded from real runs in a network
// namespace of their own (bwrap --unshare-net), and the packages a
// package.json declares.
#include <catch2/catch.hpp>

#include <hydra/capture/sandbox/network_use.hpp>

using hydra::capture::declared_packages;
using hydra::capture::network_failure_line;

TEST_CASE("a tool's line saying it could not reach the network is found", "[capture][sandbox]") {
  SECTION("what the tools print") {
    // cargo build of a crate with a registry dependency, no network.
    CHECK(network_failure_line("    Updating crates.io index\nerror: failed to get `itoa` as a dependency of package "
                               "`proj v0.1.0`\n\nCaused by:\n  [6] Could not resolve hostname (Could not resolve host: "
                               "index.crates.io)\n") ==
          "[6] Could not resolve hostname (Could not resolve host: index.crates.io)");
    // The same with CARGO_NET_OFFLINE=true, as the steps run cargo: the
    // error the reminder is about is the line shown.
    CHECK(network_failure_line(
              "error: no matching package named `itoa` found\nlocation searched: crates.io index\nrequired by "
              "package `fetches v0.1.0 (/tmp/i26cargo)`\nAs a reminder, you're using offline mode (--offline) which "
              "can sometimes cause surprising resolution failures, if this error is too confusing you may wish to "
              "retry without `--offline`.\n") == "error: no matching package named `itoa` found");
    // The reminder with no error before it is shown itself.
    CHECK(network_failure_line("  As a reminder, you're using offline mode (--offline)\n") ==
          "As a reminder, you're using offline mode (--offline)");
    // CMake's file(DOWNLOAD) status, as a project that checks it prints it.
    CHECK(network_failure_line("CMake Error at CMakeLists.txt:6 (message):\n  download failed: 6;\"Couldn't resolve host "
                               "name\"\n\n\n-- Configuring incomplete, errors occurred!\n") ==
          "download failed: 6;\"Couldn't resolve host name\"");
    // npm install --offline, and npm install, of a package not in the cache.
    CHECK(network_failure_line("npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/left-pad "
                               "failed: cache mode is 'only-if-cached' but no cached response is available.\n") ==
          "npm error code ENOTCACHED");
    CHECK(network_failure_line("npm error code EAI_AGAIN\nnpm error syscall getaddrinfo\nnpm error errno EAI_AGAIN\n"
                               "npm error request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo "
                               "EAI_AGAIN registry.npmjs.org\n") ==
          "npm error request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo EAI_AGAIN "
          "registry.npmjs.org");
    // git clone (FetchContent, ExternalProject).
    CHECK(network_failure_line("Cloning into '/tmp/i26net/y'...\nfatal: unable to access 'https://github.com/x/y.git/': "
                               "Could not resolve host: github.com\n") ==
          "fatal: unable to access 'https://github.com/x/y.git/': Could not resolve host: github.com");
  }
  SECTION("a build that failed for another reason") {
    CHECK(network_failure_line("main.cpp:3:5: error: 'x' was not declared in this scope\nninja: build stopped\n").empty());
    CHECK(network_failure_line("").empty());
  }
}

TEST_CASE("the packages a package.json declares", "[capture][sandbox]") {
  CHECK(declared_packages(R"({"name": "calc", "dependencies": {"left-pad": "1"}, "devDependencies": {"jest": "29",
                              "eslint": "9"}, "peerDependencies": {}, "scripts": {"test": "jest"}})") ==
        std::vector<std::string>{"eslint", "jest", "left-pad"});
  CHECK(declared_packages(R"({"name": "calc", "scripts": {"test": "jest"}})").empty());
  CHECK(declared_packages("{ not json").empty());
  CHECK(declared_packages("[1, 2]").empty());
}
