// Tests for step policies and the sandbox (capture/sandbox/step_policy.hpp,
// capture/sandbox/sandbox.hpp): the environment allowlist, what is hidden and what
// stays readable, the bubblewrap command line, and (where bubblewrap works)
// what a sandboxed command can and cannot reach. The end-to-end probes of a
// candidate's build and tests are in tests/e2e/test_sandbox_probes.cpp.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <hydra/capture/sandbox/sandbox.hpp>
#include <hydra/capture/core/tree_step_policy.hpp>
#include <hydra/capture/steps.hpp>
#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "test_paths.hpp"

namespace fs = std::filesystem;
using hydra::capture::Mount;
using hydra::capture::Sandbox;
using hydra::capture::StepPolicy;

namespace {

const fs::path kTool = HYDRA_TOOL_PATH;

std::vector<std::string> keys(const std::map<std::string, std::string>& map) {
  std::vector<std::string> names;
  for (const auto& [name, value] : map) names.push_back(name);
  return names;
}

/// The position of the first `value` in `argv` at or after `from`; argv.size() when absent.
std::size_t position(const std::vector<std::string>& argv, const std::string& value, std::size_t from = 0) {
  return static_cast<std::size_t>(std::find(argv.begin() + from, argv.end(), value) - argv.begin());
}

/// The (source, destination) pairs of `flag` in `argv`, in order.
std::vector<std::pair<std::string, std::string>> pairs_of(const std::vector<std::string>& argv, const std::string& flag) {
  std::vector<std::pair<std::string, std::string>> found;
  for (std::size_t index = 0; index + 2 < argv.size() && argv[index] != "--"; ++index)
    if (argv[index] == flag) found.emplace_back(argv[index + 1], argv[index + 2]);
  return found;
}

Sandbox sandbox_here() {
  return hydra::capture::find_sandbox(true, hydra::config::SandboxSettings{}, kTool);
}

}  // namespace

TEST_CASE("a step's environment is built from an allowlist and the names hydra.toml adds", "[capture][sandbox]") {
  const std::map<std::string, std::string> inherited = {
      {"PATH", "/usr/bin:/bin"}, {"HOME", "/home/me"}, {"LANG", "C.UTF-8"}, {"LC_ALL", "C"},
      {"CMAKE_PREFIX_PATH", "/opt/qt"}, {"CTEST_OUTPUT_ON_FAILURE", "1"}, {"CC", "clang"}, {"TERM", "xterm"},
      {"AWS_SECRET_ACCESS_KEY", "secret"}, {"GITHUB_TOKEN", "ghp_x"}, {"SSH_AUTH_SOCK", "/tmp/ssh-x/agent.1"},
      {"CARGO_REGISTRY_TOKEN", "cio"}, {"npm_config__authToken", "npm"}, {"MAKEFLAGS", "-j8 --jobserver-auth=3,4"},
      {"HYDRA_PROBE_SECRET", "s3cret"}, {"MY_LICENSE", "key"}, {"QT_DIR", "/opt/qt"}, {"QTX", "no"}};
  hydra::config::SandboxSettings settings;
  settings.environment = {"MY_LICENSE", "QT_*"};
  const auto environment = hydra::capture::step_environment(settings, inherited, "/b/.hydra-home", "/b/.hydra-tmp");
  CHECK(keys(environment) == std::vector<std::string>{"CARGO_HOME", "CARGO_NET_OFFLINE", "CC", "CMAKE_PREFIX_PATH",
                                                      "CTEST_OUTPUT_ON_FAILURE", "HOME", "LANG", "LC_ALL",
                                                      "MY_LICENSE", "PATH", "QT_DIR", "TERM", "TMPDIR",
                                                      "npm_config_offline"});
  CHECK(environment.at("HOME") == "/b/.hydra-home");
  CHECK(environment.at("TMPDIR") == "/b/.hydra-tmp");
  CHECK(environment.at("CARGO_HOME") == "/b/.hydra-home/.cargo");
  CHECK(environment.at("PATH") == "/usr/bin:/bin");
  SECTION("with network the tools are not told to stay offline") {
    settings.network = true;
    const auto online = hydra::capture::step_environment(settings, inherited, "/h", "/t");
    CHECK(online.count("CARGO_NET_OFFLINE") == 0);
    CHECK(online.count("npm_config_offline") == 0);
  }
  SECTION("no PATH: the system's") {
    CHECK(hydra::capture::step_environment(settings, {}, "/h", "/t").at("PATH") == "/usr/local/bin:/usr/bin:/bin");
  }
}

TEST_CASE("the user's home, temporary and runtime folders are hidden, the tools in them stay readable",
          "[capture][sandbox]") {
  hydra::util::TempDir temp("hydra-sandbox");
  const fs::path home = temp.path() / "home";
  for (const char* folder : {".cargo/bin", ".cargo/registry/cache", ".rustup/toolchains", ".local/bin", ".local/lib",
                             ".local/share/keyrings", ".ssh", "sdk", "Qt"})
    fs::create_directories(home / folder);
  hydra::util::write_file_atomic(home / ".cargo" / "credentials.toml", "token = \"secret\"\n");
  hydra::util::write_file_atomic(home / ".cargo" / "config.toml", "[net]\n");
  const std::map<std::string, std::string> inherited = {
      {"HOME", home.string()},
      {"PATH", (home / ".cargo/bin").string() + ":" + (home / ".local/bin").string() + ":/usr/bin"},
      {"CMAKE_PREFIX_PATH", (home / "Qt").string()}};
  hydra::config::SandboxSettings settings;
  settings.hidden = {temp.path() / "extra"};
  fs::create_directories(temp.path() / "extra");
  settings.read_only = {home / "sdk"};

  const auto hidden = hydra::capture::hidden_system_paths(settings, inherited);
  CHECK(hidden.front() == home);
  CHECK(std::find(hidden.begin(), hidden.end(), temp.path() / "extra") != hidden.end());
  // Other programs' files and sockets (an SSH agent's, a container engine's, D-Bus's).
  for (const char* folder : {"/tmp", "/run"}) {
    CAPTURE(folder);
    if (fs::is_directory(folder)) CHECK(std::find(hidden.begin(), hidden.end(), fs::path(folder)) != hidden.end());
  }
  CHECK(std::find(hidden.begin(), hidden.end(), fs::path("/")) == hidden.end());

  const fs::path step_home = "/build/.hydra-home";
  const auto mounts = hydra::capture::tool_mounts(settings, inherited, step_home, {home}, {});
  std::vector<std::string> described;
  for (const auto& mount : mounts) {
    REQUIRE(mount.access == Mount::Access::read_only);
    described.push_back(mount.path.string() + (mount.source.empty() ? "" : " <- " + mount.source.string()));
  }
  CHECK(described == std::vector<std::string>{
                         (home / "Qt").string(),  // CMAKE_PREFIX_PATH
                         (home / ".cargo/bin").string(),
                         (home / ".local/bin").string(),
                         (home / ".local/lib").string(),  // beside a bin on PATH
                         (home / ".rustup").string(),
                         "/build/.hydra-home/.cargo/registry <- " + (home / ".cargo/registry").string(),
                         "/build/.hydra-home/.cargo/config.toml <- " + (home / ".cargo/config.toml").string(),
                         (home / "sdk").string()});
  // Never cargo's credentials, the keyrings or the SSH keys.
  for (const auto& line : described) {
    CHECK(line.find("credentials") == std::string::npos);
    CHECK(line.find("keyrings") == std::string::npos);
    CHECK(line.find(".ssh") == std::string::npos);
  }
}

TEST_CASE("a step policy hides the evidence and what the plan hides, with the step's own trees visible inside",
          "[capture][sandbox]") {
  hydra::util::TempDir temp("hydra-sandbox");
  const fs::path runs = temp.path() / "runs", source = runs / "worktrees" / "agent", build = runs / "trees" / "agent",
                 patch = temp.path() / "private.patch";
  for (const auto& folder : {source, build, runs / "baseline", build / ".hydra"}) fs::create_directories(folder);
  hydra::util::write_file_atomic(patch, "diff\n");
  hydra::capture::Plan plan;
  plan.evidence = {runs, runs / "baseline"};
  plan.hidden = {patch, build / ".hydra"};
  const StepPolicy policy = hydra::capture::tree_step_policy(plan, "build", {source, build}, build / ".hydra-tmp");
  CHECK(policy.step == "build");
  CHECK(policy.home == build / ".hydra-home");
  CHECK(fs::is_directory(policy.home));
  CHECK(policy.environment.at("HOME") == policy.home.string());
  CHECK_FALSE(policy.network);
  CHECK(policy.reaped);
  REQUIRE(policy.limits.cpu_seconds);
  CHECK(*policy.limits.cpu_seconds == 3600);
  REQUIRE(policy.limits.memory_bytes);  // half of this machine's memory
  const auto access_of = [&](const fs::path& path) {
    std::string found = "none";
    for (const auto& mount : policy.mounts)
      if (mount.path == path) found = mount.access == Mount::Access::hidden      ? "hidden"
                                      : mount.access == Mount::Access::read_only ? "read-only"
                                                                                 : "read-write";
    return found;
  };
  CHECK(access_of(source) == "read-write");
  CHECK(access_of(build) == "read-write");
  CHECK(access_of(runs) == "hidden");
  CHECK(access_of(runs / "baseline") == "hidden");
  CHECK(access_of(patch) == "hidden");
  CHECK(access_of(build / ".hydra") == "hidden");
  CHECK(access_of("/tmp") == "hidden");

  SECTION("bubblewrap's command line: shallowest first, hidden folders empty and read-only, no network") {
    Sandbox sandbox;
    sandbox.bwrap = "/usr/bin/bwrap";
    sandbox.pid_namespace = true;
    sandbox.step_runner = kTool;
    const auto argv = sandbox.wrap(policy, {"cmake", "--build", build.string()});
    CHECK(argv.front() == "/usr/bin/bwrap");
    CHECK(position(argv, "--unshare-net") < position(argv, "--"));
    CHECK(position(argv, "--unshare-pid") < position(argv, "--"));
    // The runs folder is hidden before the trees inside it are mounted again.
    const std::size_t hidden_runs = position(argv, runs.string());
    CHECK(argv[hidden_runs - 1] == "--tmpfs");
    CHECK(position(argv, source.string()) > hidden_runs);
    CHECK(position(argv, build.string()) > hidden_runs);
    CHECK(position(argv, "--remount-ro") > position(argv, (build / ".hydra").string()));
    // A hidden file: an empty one in its place.
    const auto read_only = pairs_of(argv, "--ro-bind");
    CHECK(std::find(read_only.begin(), read_only.end(), std::make_pair(std::string("/dev/null"), patch.string())) !=
          read_only.end());
    // The command runs under the reaper.
    const std::size_t end = position(argv, "--");
    REQUIRE(end + 4 < argv.size());
    CHECK(std::vector<std::string>(argv.begin() + end + 1, argv.begin() + end + 5) ==
          std::vector<std::string>{kTool.string(), "run-step", "--", "cmake"});
  }
  SECTION("the reaper stays runnable inside a hidden folder") {
    Sandbox sandbox;
    sandbox.bwrap = "/usr/bin/bwrap";
    const fs::path runner = runs / "hydra-score";
    hydra::util::write_file_atomic(runner, "");
    sandbox.step_runner = runner;
    const auto argv = sandbox.wrap(policy, {"true"});
    const auto read_only = pairs_of(argv, "--ro-bind");
    CHECK(std::find(read_only.begin(), read_only.end(), std::make_pair(runner.string(), runner.string())) !=
          read_only.end());
    CHECK(position(argv, runner.string()) > position(argv, runs.string()));
  }
  SECTION("the reaper stays runnable inside a folder shown from elsewhere (a plain run's /tmp)") {
    Sandbox sandbox;
    sandbox.bwrap = "/usr/bin/bwrap";
    const fs::path shown = temp.path() / "shown", origin = temp.path() / "origin";
    fs::create_directories(shown);
    fs::create_directories(origin);
    const fs::path runner = shown / "hydra-score";
    hydra::util::write_file_atomic(runner, "");
    sandbox.step_runner = runner;
    StepPolicy over = policy;
    over.add(Mount::Access::read_write, shown, origin);
    const auto argv = sandbox.wrap(over, {"true"});
    const auto read_only = pairs_of(argv, "--ro-bind");
    CHECK(std::find(read_only.begin(), read_only.end(), std::make_pair(runner.string(), runner.string())) !=
          read_only.end());
  }
  SECTION("with network allowed, no network namespace") {
    StepPolicy online = policy;
    online.network = true;
    Sandbox sandbox;
    sandbox.bwrap = "/usr/bin/bwrap";
    const auto argv = sandbox.wrap(online, {"true"});
    CHECK(position(argv, "--unshare-net") == argv.size());
  }
  SECTION("without bubblewrap: the command under the reaper, in the policy's environment") {
    Sandbox sandbox;
    sandbox.step_runner = kTool;
    const auto request = sandbox.request(policy, {"true"});
    CHECK(request.argv == std::vector<std::string>{kTool.string(), "run-step", "--", "true"});
    CHECK_FALSE(request.inherit_environment);
    CHECK(request.environment == policy.environment);
    CHECK(request.limits.memory_bytes == policy.limits.memory_bytes);
  }
  SECTION("the manifest's record names the environment, never its values") {
    StepPolicy with_secret = policy;
    with_secret.environment["MY_LICENSE"] = "key-value-not-recorded";
    const auto record = with_secret.to_json();
    CHECK(record.dump().find("key-value-not-recorded") == std::string::npos);
    CHECK(record["environment"].dump().find("MY_LICENSE") != std::string::npos);
    CHECK(record["network"] == false);
    CHECK(record["home"] == policy.home.string());
  }
}

TEST_CASE("inside bubblewrap a step reaches only what its policy gives it", "[capture][sandbox]") {
  const Sandbox sandbox = sandbox_here();
  if (!sandbox.confined()) {
    WARN("no sandbox here: " << sandbox.description);
    return;
  }
  hydra::util::TempDir temp("hydra-sandbox");
  const fs::path tree = temp.path() / "tree", secret = temp.path() / "secret.txt", home = tree / ".hydra-home";
  fs::create_directories(home);
  hydra::util::write_file_atomic(secret, "the private tests\n");
  StepPolicy policy;
  policy.step = "test";
  policy.add(Mount::Access::read_write, tree);
  policy.add(Mount::Access::hidden, secret);
  policy.home = home;
  policy.temporary = tree;
  ::setenv("HYDRA_PROBE_SECRET", "s3cret", 1);
  policy.environment =
      hydra::capture::step_environment({}, hydra::capture::current_environment(), policy.home, policy.temporary);
  ::unsetenv("HYDRA_PROBE_SECRET");
  const auto run = [&](const StepPolicy& used, const std::string& command) {
    auto request = sandbox.request(used, {"/bin/sh", "-c", command});
    request.timeout = std::chrono::seconds(120);
    return hydra::util::run_process(request);
  };

  SECTION("no secret from the environment, an empty home, a hidden file empty") {
    const auto result = run(policy, "echo \"secret=${HYDRA_PROBE_SECRET-absent}\"; echo \"home=$HOME\"; ls -A \"$HOME\" | wc -l; "
                                    "cat " + secret.string() + " 2>/dev/null | wc -c; cat " + secret.string() + " >/dev/null 2>&1 || echo unreadable");
    INFO(result.output);
    CHECK(result.output == "secret=absent\nhome=" + home.string() + "\n0\n0\nunreadable\n");
  }
  SECTION("no capability, root or not: what hides a folder cannot be unmounted, / cannot be made writable") {
    StepPolicy hiding = policy;
    hiding.add(Mount::Access::hidden, temp.path() / "hidden");
    fs::create_directories(temp.path() / "hidden");
    hydra::util::write_file_atomic(temp.path() / "hidden" / "key", "secret\n");
    const auto result = run(hiding, "grep CapEff /proc/self/status; (umount " + (temp.path() / "hidden").string() +
                                        ") 2>/dev/null || echo umount-refused; (mount -o remount,rw /) 2>/dev/null || "
                                        "echo remount-refused; cat " + (temp.path() / "hidden" / "key").string() +
                                        " 2>/dev/null || echo hidden");
    CHECK(result.output == "CapEff:\t0000000000000000\numount-refused\nremount-refused\nhidden\n");
  }
  SECTION("writes reach the tree only") {
    const auto result = run(policy, "echo x > " + (tree / "made").string() + " && echo tree-ok; (echo x > " +
                                        (temp.path() / "outside").string() + ") 2>/dev/null || echo outside-refused");
    CHECK(result.output == "tree-ok\noutside-refused\n");
    CHECK(fs::exists(tree / "made"));
    CHECK_FALSE(fs::exists(temp.path() / "outside"));
  }
  SECTION("no network: a listener on this machine's loopback cannot be reached, unless network is allowed") {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener, 4) == 0);
    socklen_t length = sizeof address;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
    const std::string port = std::to_string(ntohs(address.sin_port));
    const std::string connect = "exec python3 -c \"import socket; s = socket.socket(); s.settimeout(10); "
                                "print('connected' if s.connect_ex(('127.0.0.1', " + port + ")) == 0 else 'refused')\"";
    CHECK(run(policy, connect).output == "refused\n");
    StepPolicy online = policy;
    online.network = true;
    CHECK(run(online, connect).output == "connected\n");
    ::close(listener);
  }
  SECTION("a folder hidden first and mounted from elsewhere later is that folder, writable") {
    StepPolicy over = policy;
    const fs::path place = temp.path() / "place", elsewhere = temp.path() / "elsewhere";
    fs::create_directories(place);
    fs::create_directories(elsewhere);
    hydra::util::write_file_atomic(place / "kept", "hidden\n");
    over.add(Mount::Access::hidden, place);
    over.add(Mount::Access::read_write, place, elsewhere);
    const auto result = run(over, "ls -A " + place.string() + "; echo x > " + (place / "made").string() +
                                      " && echo written");
    INFO(result.output);
    CHECK(result.output == "written\n");
    CHECK(fs::exists(elsewhere / "made"));
    CHECK_FALSE(fs::exists(place / "made"));
  }
  SECTION("in the PID namespace too, an orphan is killed, so the step ends") {
    if (!sandbox.pid_namespace) WARN("no PID namespace here");
    const auto result = run(policy, "out=$( (setsid sh -c 'exec sleep 300' &) ; echo done ); echo \"got $out\"");
    CHECK_FALSE(result.timed_out);
    CHECK(result.output == "got done\n");
  }
  SECTION("PID 1 of the namespace is the reaper named init, not bubblewrap or HydraScore") {
    if (!sandbox.pid_namespace || !sandbox.step_runner) {
      WARN("no PID namespace or step runner here");
      return;
    }
    const auto result = run(policy, "cat /proc/1/comm; tr '\\0' '\\n' < /proc/1/cmdline | grep -v '^$'");
    INFO(result.output);
    CHECK(result.output == "init\ninit\n");
  }
}

TEST_CASE("without bubblewrap, or where it cannot work, a sandbox can be required", "[capture][sandbox]") {
  hydra::config::SandboxSettings settings;
  SECTION("not required: the steps run unconfined, and the description says why") {
    const Sandbox none = hydra::capture::find_sandbox(false, settings, kTool);
    CHECK_FALSE(none.confined());
    CHECK(none.description == "none: disabled (--no-sandbox)");
    CHECK(none.step_runner == kTool);
  }
  SECTION("bubblewrap that cannot make its namespaces here (a container): unconfined, saying what it said") {
    hydra::util::TempDir temp("hydra-sandbox");
    hydra::util::write_file_atomic(temp.path() / "bwrap",
                                   "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
    fs::permissions(temp.path() / "bwrap", fs::perms::owner_all);
    const std::string path = std::getenv("PATH");
    ::setenv("PATH", (temp.path().string() + ":" + path).c_str(), 1);
    const Sandbox none = hydra::capture::find_sandbox(true, settings, kTool);
    ::setenv("PATH", path.c_str(), 1);
    CHECK_FALSE(none.confined());
    CHECK(none.description ==
          "none: bubblewrap cannot create its namespaces here (bwrap: No permissions to create new namespace)");
  }
  SECTION("required: refused with exit 8") {
    settings.require = true;
    try {
      hydra::capture::find_sandbox(false, settings, kTool);
      FAIL("expected hydra::StepFailed");
    } catch (const hydra::StepFailed& error) {
      CHECK(std::string(error.what()).find("[sandbox] require = true") != std::string::npos);
    }
  }
}

TEST_CASE("what the user's cache entries point at stays readable to the steps", "[capture][sandbox]") {
  hydra::util::TempDir temp("hydra-sandbox");
  for (const char* folder : {"qt/lib/cmake/Qt6", "prefix-a", "prefix b", "toolchains"}) fs::create_directories(temp.path() / folder);
  hydra::util::write_file_atomic(temp.path() / "toolchains" / "arm.cmake", "");
  const std::string root = temp.path().string();
  // As cmake/HydraScore.cmake writes it (the values escaped for CMake).
  const std::string script = "# Generated by HydraScore\n"
                             "set(Qt6_DIR \"" + root + "/qt/lib/cmake/Qt6\" CACHE PATH \"\" FORCE)\n"
                             "set(CMAKE_PREFIX_PATH \"" + root + "/prefix-a;" + root + "/prefix b\" CACHE STRING \"\" FORCE)\n"
                             "set(CMAKE_TOOLCHAIN_FILE \"" + root + "/toolchains/arm.cmake\" CACHE FILEPATH \"\" FORCE)\n"
                             "set(CMAKE_BUILD_TYPE \"" + root + "/prefix-a\" CACHE STRING \"\" FORCE)\n"
                             "set(MISSING_DIR \"" + root + "/nowhere\" CACHE PATH \"\" FORCE)\n"
                             "set(RELATIVE_DIR \"qt\" CACHE PATH \"\" FORCE)\n";
  CHECK(hydra::capture::initial_cache_paths(hydra::parse::parse_initial_cache(script)) ==
        std::vector<fs::path>{temp.path() / "qt/lib/cmake/Qt6", temp.path() / "prefix-a", temp.path() / "prefix b",
                              temp.path() / "toolchains/arm.cmake"});
  CHECK(hydra::capture::initial_cache_paths({}).empty());
}
