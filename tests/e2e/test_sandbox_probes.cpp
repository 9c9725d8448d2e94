// End to end: what candidate code can reach (docs/threat-model.md, "What
// candidate code can reach"). Real cmake, ctest, git and bubblewrap.
//
// One baseline, whose hydra.toml limits each process of a step to 8 s of CPU
// and each step to 1 GiB of memory; four candidates captured in parallel
// through `capture --ref`:
//  - agent/honest: a real change with its test;
//  - agent/probe: a program that, from the candidate's build (a custom
//    command) and from its test, tries to read an environment secret, a file
//    under $HOME, another candidate's build tree, other runs, the private test
//    patch; to connect to a listener on 127.0.0.1 this test runs; to resolve a
//    host name and see a network interface; to write outside its trees and
//    beside its build tree (in the folder holding it and its worktree);
//  - agent/spinner: a test program that forks four children which call
//    setsid() and spin forever, holding ctest's output pipe open;
//  - agent/hog: two tests, one that allocates memory without bound and one
//    that spins forever itself.
// Every probe is blocked, the spinner's test ends when its program does, the
// hog's tests fail at their limits, and the honest candidate scores exactly
// as it does alone. Then the same
// candidate captured without the sandbox: every report says so first, and
// `[sandbox] require = true` refuses.
#include <catch2/catch.hpp>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include <hydra/capture/sandbox/sandbox.hpp>
#include <hydra/config/config.hpp>
#include <hydra/pipeline/run_dir.hpp>

#include "capture/process_table.hpp"
#include "sandbox_probes.hpp"

using namespace e2e;

namespace {

/// The test step's record of agent's run (the first attempt).
nlohmann::json test_step(const fs::path& run) {
  const auto manifest = read_json(run / "manifest.json");
  for (const auto& step : manifest.at("steps"))
    if (step.at("name") == "test") return step;
  throw std::runtime_error("no test step in " + run.string() + ": " + manifest.at("steps").dump().substr(0, 3000));
}

/// What must be equal between two rankings for one candidate: everything
/// scored (the tests' durations are measurements, not scores).
nlohmann::json scored(const nlohmann::json& entry) {
  nlohmann::json tests = entry.at("tests");
  for (auto& [list, items] : tests.items())
    if (items.is_array())
      for (auto& item : items) item.erase("duration_seconds");
  return {{"total", entry.at("total")}, {"breakdown", entry.at("breakdown")}, {"mergeable", entry.at("mergeable")},
          {"gate_failures", entry.at("gate_failures")}, {"tests", tests}, {"lint", entry.at("lint")}};
}

}  // namespace

TEST_CASE("candidate code reaches no secret, no network, no other tree, a spinning candidate ends with its "
          "programs, an unconfined capture is said first",
          "[e2e][sandbox]") {
  hydra::util::TempDir temp("hydra-sandbox-e2e");
  const OutsideFolder outside;
  const fs::path repository = temp.path() / "project", runs = temp.path() / "runs";
  const fs::path home = outside.path() / "home", patch = outside.path() / "private.patch";
  fs::create_directories(home / ".ssh");
  hydra::util::write_file_atomic(home / ".ssh" / "id_probe", "PRIVATE KEY of the user\n");
  Listener listener;
  const std::string abstract_socket = "hydra-probe-" + std::to_string(::getpid());
  const fs::path agent_socket = temp.path() / "agent.sock";
  UnixListeners unix_listeners(abstract_socket, agent_socket);

  // The baseline: a library, its test in tests/, a private test file the
  // held-out runs add there.
  fs::create_directories(repository / "tests");
  hydra::util::write_file_atomic(repository / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.16)
project(probed LANGUAGES CXX)
enable_testing()
add_library(calc calc.cpp)
target_include_directories(calc PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
add_subdirectory(tests)
)");
  hydra::util::write_file_atomic(repository / "tests" / "CMakeLists.txt", R"(add_executable(calc_test calc_test.cpp)
target_link_libraries(calc_test calc)
add_test(NAME calc.adds COMMAND calc_test)
include(${CMAKE_CURRENT_SOURCE_DIR}/private_tests.cmake OPTIONAL)
)");
  hydra::util::write_file_atomic(repository / "calc.hpp", "int add(int a, int b);\n");
  hydra::util::write_file_atomic(repository / "calc.cpp", "#include \"calc.hpp\"\nint add(int a, int b) { return a + b; }\n");
  hydra::util::write_file_atomic(repository / "tests" / "calc_test.cpp",
                                 "#include \"calc.hpp\"\nint main() { return add(2, 2) == 4 ? 0 : 1; }\n");
  git(repository, {"init", "--quiet", "--initial-branch=main"});
  commit_all(repository, "baseline");
  // The private test patch, as `git diff` prints it.
  hydra::util::write_file_atomic(repository / "tests" / "private_tests.cmake",
                                 "add_executable(private_test private_test.cpp)\ntarget_link_libraries(private_test calc)\n"
                                 "add_test(NAME calc.private COMMAND private_test)\n");
  hydra::util::write_file_atomic(repository / "tests" / "private_test.cpp",
                                 "#include \"calc.hpp\"\nint main() { return add(-1, 1) == 0 ? 0 : 1; }\n");
  git(repository, {"add", "--all"});
  const auto diff = run({"git", "-C", repository.string(), "diff", "--cached", "--binary"});
  REQUIRE(diff.exit_code == 0);
  hydra::util::write_file_atomic(patch, diff.output);
  git(repository, {"reset", "--quiet", "--hard"});
  hydra::util::write_file_atomic(repository / "hydra.toml",
                                 "[anti_gaming]\nprivate_test_patch = " + quoted(patch) +
                                     "\n\n[sandbox]\ncpu_seconds = 8\nmemory_megabytes = 1024\n");
  commit_all(repository, "config");

  // agent/honest: multiply, with its test.
  git(repository, {"checkout", "--quiet", "-b", "agent/honest", "main"});
  hydra::util::write_file_atomic(repository / "calc.hpp", "int add(int a, int b);\nint multiply(int a, int b);\n");
  hydra::util::write_file_atomic(repository / "calc.cpp", "#include \"calc.hpp\"\nint add(int a, int b) { return a + b; }\n"
                                                          "int multiply(int a, int b) { return a * b; }\n");
  hydra::util::write_file_atomic(repository / "tests" / "multiply_test.cpp",
                                 "#include \"calc.hpp\"\nint main() { return multiply(3, 4) == 12 ? 0 : 1; }\n");
  hydra::util::write_file_atomic(repository / "tests" / "CMakeLists.txt",
                                 hydra::util::read_file(repository / "tests" / "CMakeLists.txt") +
                                     "add_executable(multiply_test multiply_test.cpp)\n"
                                     "target_link_libraries(multiply_test calc)\nadd_test(NAME calc.multiplies COMMAND multiply_test)\n");
  commit_all(repository, "multiply");

  // agent/probe: the probes, from a custom command of its build and from its test.
  git(repository, {"checkout", "--quiet", "-b", "agent/probe", "main"});
  const std::vector<std::pair<std::string, fs::path>> files = {
      {"a file under $HOME", home / ".ssh" / "id_probe"},
      {"the private test patch", patch},
      {"another candidate's build tree", runs / "trees" / "agent-honest" / "build" / "CMakeCache.txt"},
      {"another candidate's run", runs / "agent-honest" / "manifest.json"},
      {"the baseline's run", runs / "baseline" / "manifest.json"},
      {"the baseline's build tree", runs / "trees" / "baseline" / "CMakeCache.txt"}};
  // Where it tries to write: outside every tree, and beside its build tree
  // in the folder that holds it and its worktree (only the build tree is
  // writable there).
  const std::vector<std::pair<std::string, fs::path>> folders = {
      {"outside its trees", outside.path()}, {"beside its build tree", runs / "trees" / "agent-probe"}};
  hydra::util::write_file_atomic(repository / "probe.cpp",
                                 probe_source(files, folders, listener.port(), abstract_socket, agent_socket));
  hydra::util::write_file_atomic(repository / "CMakeLists.txt",
                                 hydra::util::read_file(repository / "CMakeLists.txt") +
                                     "add_executable(probe probe.cpp)\n"
                                     "add_custom_command(OUTPUT probe-build.stamp\n"
                                     "  COMMAND probe build ${CMAKE_BINARY_DIR}/probe-build.txt\n"
                                     "  COMMAND ${CMAKE_COMMAND} -E touch probe-build.stamp DEPENDS probe VERBATIM)\n"
                                     "add_custom_target(probe_at_build ALL DEPENDS probe-build.stamp)\n"
                                     "add_test(NAME probe.runs COMMAND probe test ${CMAKE_BINARY_DIR}/probe-test.txt)\n");
  commit_all(repository, "probe");

  // agent/spinner: four children in sessions of their own, spinning forever.
  git(repository, {"checkout", "--quiet", "-b", "agent/spinner", "main"});
  hydra::util::write_file_atomic(repository / "tests" / "spinner_test.cpp", R"(#include <unistd.h>
int main() {
  for (int child = 0; child < 4; ++child) {
    if (::fork() == 0) {
      ::setsid();
      volatile unsigned long spins = 0;
      for (;;) ++spins;
    }
  }
  return 0;
}
)");
  hydra::util::write_file_atomic(repository / "tests" / "CMakeLists.txt",
                                 hydra::util::read_file(repository / "tests" / "CMakeLists.txt") +
                                     "add_executable(spinner_test spinner_test.cpp)\n"
                                     "add_test(NAME spin.leaves_children COMMAND spinner_test)\n");
  commit_all(repository, "spinner");

  // agent/hog: memory without bound, CPU without end.
  git(repository, {"checkout", "--quiet", "-b", "agent/hog", "main"});
  hydra::util::write_file_atomic(repository / "tests" / "hog_test.cpp", R"(#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "allocate") {
    std::vector<char*> blocks;
    volatile char sink = 0;
    for (;;) {
      char* block = static_cast<char*>(std::malloc(1 << 24));
      if (block == nullptr) return 3;
      std::memset(block, 1, 1 << 24);
      sink = sink + block[4096];
      blocks.push_back(block);
    }
  }
  volatile unsigned long spins = 0;
  for (;;) ++spins;
}
)");
  hydra::util::write_file_atomic(repository / "tests" / "CMakeLists.txt",
                                 hydra::util::read_file(repository / "tests" / "CMakeLists.txt") +
                                     "add_executable(hog_test hog_test.cpp)\n"
                                     "add_test(NAME hog.allocates COMMAND hog_test allocate)\n"
                                     "add_test(NAME hog.spins COMMAND hog_test spin)\n");
  commit_all(repository, "hog");
  git(repository, {"checkout", "--quiet", "main"});

  // The capture's environment: a secret, as a CI token would be, and the fake home.
  const std::map<std::string, std::string> environment = {{"HYDRA_PROBE_SECRET", "s3cret-token"},
                                                          {"HOME", home.string()}};
  const auto capture = [&](std::vector<std::string> arguments) {
    std::vector<std::string> argv = {kTool.string(), "capture", "--source", repository.string(), "--generator", "Ninja"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return run(argv, {}, environment);
  };
  const auto score = [&](const std::vector<std::string>& agents, const fs::path& json) {
    std::vector<std::string> argv = {kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--json",
                                     json.string()};
    for (const auto& agent : agents) argv.insert(argv.end(), {"--candidate", (runs / agent).string()});
    return run(argv, {}, environment);
  };
  const auto baseline = capture({"--out", (runs / "baseline").string(), "--build-dir",
                                 (runs / "trees" / "baseline").string(), "--jobs", "2"});
  INFO(baseline.output);
  REQUIRE(baseline.exit_code == 0);
  const std::string sandbox = read_json(runs / "baseline" / "manifest.json").at("sandbox");
  const bool confined = sandbox.rfind("bubblewrap", 0) == 0;

  // The honest candidate alone, then all three in parallel.
  const auto alone = capture({"--ref", "agent/honest", "--out", runs.string(), "--baseline-run",
                              (runs / "baseline").string(), "--jobs", "2"});
  INFO(alone.output);
  REQUIRE(alone.exit_code == 0);
  const auto alone_score = score({"agent-honest"}, temp.path() / "alone.json");
  INFO(alone_score.output);
  REQUIRE(alone_score.exit_code == 0);
  const auto started = std::chrono::steady_clock::now();
  const auto all = capture({"--ref", "agent/*", "--out", runs.string(), "--baseline-run", (runs / "baseline").string(),
                            "--jobs", "3"});
  INFO(all.output);
  REQUIRE(all.exit_code == 0);
  const auto ranked = score({"agent-honest", "agent-probe", "agent-spinner", "agent-hog"}, temp.path() / "all.json");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(ranked.output);
  REQUIRE((ranked.exit_code == 0 || ranked.exit_code == 3));
  WARN("four candidates captured in parallel and ranked in " << seconds << " s (" << sandbox << ")");

  // The honest candidate scores exactly as it does alone.
  const auto contract = read_json(temp.path() / "all.json");
  CHECK(scored(ranking_of(contract, "agent-honest")) ==
        scored(ranking_of(read_json(temp.path() / "alone.json"), "agent-honest")));
  CHECK(ranking_of(contract, "agent-honest").at("mergeable") == true);

  // The spinner's test ended when its program did: passed, not timed out,
  // and none of its children is left.
  const auto spinner_step = test_step(runs / "agent-spinner");
  CHECK(spinner_step.at("timed_out") == false);
  const auto spinner_run = hydra::pipeline::load(runs / "agent-spinner", hydra::config::Config{});
  REQUIRE(spinner_run.tests.has_value());
  bool spinner_passed = false;
  for (const auto& test : *spinner_run.tests)
    spinner_passed = spinner_passed || (test.name == "spin.leaves_children" && test.status == hydra::model::TestStatus::passed);
  CHECK(spinner_passed);
  const auto spinners = process_table::live_processes_where([&](const process_table::Entry& entry) {
    return entry.command.find(temp.path().string()) != std::string::npos;
  });
  for (const auto& left : spinners) ::kill(left.pid, SIGKILL);
  CHECK(process_table::describe(spinners).empty());

  // The hog's tests failed at their limits, its test step did not time out.
  CHECK(test_step(runs / "agent-hog").at("timed_out") == false);
  const auto hog_run = hydra::pipeline::load(runs / "agent-hog", hydra::config::Config{});
  REQUIRE(hog_run.tests.has_value());
  std::map<std::string, hydra::model::TestStatus> hog_tests;
  for (const auto& test : *hog_run.tests) hog_tests[test.name] = test.status;
  CHECK(hog_tests.at("hog.allocates") != hydra::model::TestStatus::passed);
  CHECK(hog_tests.at("hog.spins") != hydra::model::TestStatus::passed);
  WARN("hog: allocates " << hydra::model::to_string(hog_tests.at("hog.allocates")) << ", spins " << hydra::model::to_string(hog_tests.at("hog.spins")));
  CHECK(hog_tests.at("calc.adds") == hydra::model::TestStatus::passed);

  // Every probe, from the build and from the test.
  const fs::path probe_tree = runs / "trees" / "agent-probe" / "build";
  const std::string probes = hydra::util::read_file(probe_tree / "probe-build.txt") +
                             hydra::util::read_file(probe_tree / "probe-test.txt");
  WARN("probes:\n" << probes);
  std::istringstream lines(probes);
  std::string line;
  std::size_t count = 0;
  while (std::getline(lines, line)) {
    ++count;
    CAPTURE(line);
    // The test program runs last in the plain run, whose /tmp is a fresh
    // folder of its own (a user's /tmp, not the judged run's read-only
    // one): a write there succeeds but reaches nothing of the machine,
    // which the checks below read.
    const bool private_tmp = line.rfind("test: write outside its trees: ", 0) == 0 &&
                             hydra::util::is_within(outside.path(), "/tmp");
    if (confined && !private_tmp) CHECK(line.find(": blocked (") != std::string::npos);
  }
  // Each phase: the secret, the files, TCP, the two Unix sockets, resolve, interfaces, the writes.
  CHECK(count == 2 * (files.size() + 6 + folders.size()));
  if (confined) {
    CHECK(listener.connections() == 0);
    CHECK_FALSE(fs::exists(outside.path() / "written-by-candidate-build"));
    CHECK_FALSE(fs::exists(outside.path() / "written-by-candidate-test"));
    CHECK_FALSE(fs::exists(runs / "trees" / "agent-probe" / "written-by-candidate-build"));
    CHECK_FALSE(fs::exists(runs / "trees" / "agent-probe" / "written-by-candidate-test"));
    CHECK(contract.count("alerts") == 0);
    // What each step could reach is on record.
    const auto policy = spinner_step.at("policy");
    CHECK(policy.at("network") == false);
    CHECK(policy.at("environment").dump().find("HYDRA_PROBE_SECRET") == std::string::npos);
  } else {
    WARN("no sandbox here (" << sandbox << "): the probes above are not contained; the reports say so");
    CHECK(contract.at("alerts").size() == 5);
  }

  // Without the sandbox: captured, and every report says so in its first lines.
  // The probe candidate too: the same probes, unconfined, do reach what the
  // sandbox kept from them (so the probes above are live).
  const fs::path loose = runs / "unconfined";
  const auto unconfined = capture({"--ref", "agent/honest", "--ref", "agent/probe", "--out", loose.string(),
                                   "--baseline-run", (runs / "baseline").string(), "--jobs", "2", "--no-sandbox"});
  INFO(unconfined.output);
  REQUIRE(unconfined.exit_code == 0);
  const std::string loose_probes = hydra::util::read_file(loose / "trees" / "agent-probe" / "build" / "probe-test.txt");
  for (const char* leak : {"test: read a file under $HOME: LEAKED", "test: read the private test patch: LEAKED",
                           "test: read another candidate's build tree: LEAKED",
                           "test: read another candidate's run: LEAKED", "test: read the baseline's run: LEAKED",
                           "test: read the baseline's build tree: LEAKED",
                           "test: connect to the listener on 127.0.0.1:", "test: connect to an abstract Unix socket: LEAKED",
                           "test: connect to a Unix socket in /tmp, as an SSH agent's: LEAKED",
                           "test: write outside its trees: LEAKED", "test: write beside its build tree: LEAKED"}) {
    CAPTURE(leak, loose_probes);
    CHECK(loose_probes.find(leak) != std::string::npos);
  }
  CHECK(listener.connections() > 0);
  // The environment is the allowlist's with or without bubblewrap.
  CHECK(loose_probes.find("test: environment secret: blocked (HYDRA_PROBE_SECRET unset)") != std::string::npos);
  const fs::path json = temp.path() / "loose.json", markdown = temp.path() / "loose.md", html = temp.path() / "loose.html",
                 sarif = temp.path() / "loose.sarif", junit = temp.path() / "loose.xml";
  const auto loose_score = run({kTool.string(), "score", "--baseline", (runs / "baseline").string(), "--candidate",
                                (loose / "agent-honest").string(), "--candidate", (loose / "agent-probe").string(),
                                "--json", json.string(), "--markdown",
                                markdown.string(), "--html", html.string(), "--sarif", sarif.string(), "--junit",
                                junit.string()});
  INFO(loose_score.output);
  REQUIRE(loose_score.exit_code == 0);  // the top candidate, agent-honest, is mergeable
  const std::string alert =
      "candidate agent-honest's code ran UNCONFINED (disabled (--no-sandbox)): it could read the user's files and "
      "secrets, reach the network and write outside its trees";
  const auto loose_contract = read_json(json);
  // The baseline's line when it ran unconfined too, then the candidates in ranking order.
  const auto& alerts = loose_contract.at("alerts");
  REQUIRE(alerts.size() == (confined ? 2u : 3u));
  CHECK(alerts[alerts.size() - 2] == alert);
  CHECK(alerts.back().get<std::string>().rfind("candidate agent-probe's code ran UNCONFINED", 0) == 0);
  CHECK(ranking_of(loose_contract, "agent-honest").at("run").at("unconfined") == true);
  CHECK(loose_contract.begin().key() == "alerts");  // the first key of the JSON
  // The terminal: right under the title.
  std::istringstream terminal(loose_score.output);
  std::string title, first;
  std::getline(terminal, title);
  std::getline(terminal, first);
  CHECK(title.rfind("HydraScore ranking", 0) == 0);
  CHECK(first.rfind("WARNING:", 0) == 0);
  CHECK(first.find("UNCONFINED") != std::string::npos);
  // Markdown: the block right under the heading; HTML: under the title.
  const std::string markdown_text = hydra::util::read_file(markdown);
  CHECK(markdown_text.rfind("## HydraScore ranking\n\n> [!WARNING]\n> **Candidate code was not confined**", 0) == 0);
  const std::string html_text = hydra::util::read_file(html);
  CHECK(html_text.find("<h1>HydraScore report</h1>\n<section class=\"alert\" id=\"alerts\">") != std::string::npos);
  CHECK((html_text.find("agent-honest&#39;s code ran UNCONFINED") != std::string::npos ||
         html_text.find("agent-honest's code ran UNCONFINED") != std::string::npos));
  // SARIF: the top-level properties (before the runs) and each run's notifications.
  const auto sarif_json = read_json(sarif);
  CHECK(sarif_json.at("properties").at("hydraAlerts") == alerts);
  CHECK(sarif_json.at("runs").at(0).at("invocations").at(0).at("toolExecutionNotifications").at(0).at("level") ==
        "error");
  CHECK(hydra::util::read_file(junit).find("name=\"alert\"") != std::string::npos);

  // `[sandbox] require = true`: refused, exit 8, nothing captured.
  hydra::util::write_file_atomic(temp.path() / "strict.toml", "[sandbox]\nrequire = true\n");
  const auto refused = capture({"--ref", "agent/honest", "--out", (runs / "strict").string(), "--baseline-run",
                                (runs / "baseline").string(), "--config", (temp.path() / "strict.toml").string(),
                                "--no-sandbox"});
  CHECK(refused.exit_code == 8);
  CHECK(refused.output.find("[sandbox] require = true, but candidate code cannot be confined here") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(runs / "strict" / "agent-honest" / "manifest.json"));
}

TEST_CASE("a build that must fetch fails naming the opt-in, and a capture with network says so",
          "[e2e][sandbox]") {
  hydra::util::TempDir temp("hydra-sandbox-fetch");
  const fs::path project = temp.path() / "fetches";
  fs::create_directories(project);
  // A configure step that downloads a dependency, as FetchContent would.
  const std::string download = R"(file(DOWNLOAD https://example.com/dependency.tar.gz ${CMAKE_BINARY_DIR}/dependency.tar.gz STATUS status)
list(GET status 0 code)
if(code)
  message(FATAL_ERROR "download failed: ${status}")
endif()
)";
  const std::string header = "cmake_minimum_required(VERSION 3.16)\nproject(fetches NONE)\n";
  hydra::util::write_file_atomic(project / "CMakeLists.txt", header + download);
  const auto capture = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> options = {"--build-dir", (temp.path() / (name + ".build")).string()};
    options.insert(options.end(), extra.begin(), extra.end());
    return run(capture_command(project, temp.path() / name, options));
  };
  const auto score = [&](const std::string& baseline, const std::string& candidate, const fs::path& json) {
    return run({kTool.string(), "score", "--baseline", (temp.path() / baseline).string(), "--candidate",
                (temp.path() / candidate).string(), "--json", json.string()});
  };
  const bool confined =
      hydra::capture::find_sandbox(true, hydra::config::SandboxSettings{}, kTool).confined();
  if (!confined) {
    WARN("no sandbox here: the network is not cut, nothing to refuse");
    return;
  }
  SECTION("no network: the baseline's capture stops with exit 8 and says what to do") {
    const auto refused = capture("baseline", {});
    INFO(refused.output);
    CHECK(refused.exit_code == 8);
    CHECK(refused.output.find("the build needs the network (configure.log: download failed: 6;\"Couldn't resolve host "
                              "name\")") != std::string::npos);
    CHECK(refused.output.find("set `[sandbox] network = true` in hydra.toml") != std::string::npos);
    CHECK_FALSE(fs::exists(temp.path() / "baseline" / "manifest.json"));
  }
  SECTION("a candidate whose build starts to download: captured, not mergeable, the problem names the opt-in") {
    // The baseline builds offline: one test, no download.
    hydra::util::write_file_atomic(project / "CMakeLists.txt",
                                   header + "enable_testing()\nadd_test(NAME fetches.runs COMMAND ${CMAKE_COMMAND} -E "
                                            "compare_files ${CMAKE_CURRENT_LIST_FILE} ${CMAKE_CURRENT_LIST_FILE})\n");
    commit_repository(project);
    const auto baseline = capture("baseline", {});
    INFO(baseline.output);
    REQUIRE(baseline.exit_code == 0);
    hydra::util::write_file_atomic(project / "CMakeLists.txt",
                                   hydra::util::read_file(project / "CMakeLists.txt") + download);
    const auto candidate = capture("fetching", {"--baseline-run", (temp.path() / "baseline").string()});
    INFO(candidate.output);
    REQUIRE(candidate.exit_code == 0);
    const fs::path json = temp.path() / "fetching.json";
    const auto scored = score("baseline", "fetching", json);
    INFO(scored.output);
    CHECK(scored.exit_code == 3);  // not mergeable
    const auto entry = ranking_of(read_json(json), "fetching");
    CHECK(entry.at("mergeable") == false);
    std::string integrity;
    for (const auto& gate : entry.at("gate_failures"))
      if (gate.at("gate") == "integrity") integrity = gate.dump();
    CAPTURE(integrity);
    CHECK(integrity.find("the build needs the network (configure.log: download failed: 6;") != std::string::npos);
    CHECK(integrity.find("set `[sandbox] network = true` in hydra.toml") != std::string::npos);
  }
  SECTION("npm with packages to fetch and no node_modules: said before npm runs") {
    const fs::path node_project = temp.path() / "node";
    fs::create_directories(node_project);
    hydra::util::write_file_atomic(node_project / "package.json",
                                   R"({"name": "calc", "version": "1.0.0", "scripts": {"test": "jest"},
 "devDependencies": {"jest": "29.7.0", "jest-junit": "16.0.0"}, "dependencies": {"left-pad": "1.3.0"}})");
    const auto refused = run(capture_command(node_project, temp.path() / "node-run", {"--profile", "js-node"}));
    INFO(refused.output);
    CHECK(refused.exit_code == 8);
    CHECK(refused.output.find("package.json needs the network (3 package(s) (jest, jest-junit, left-pad) and no "
                              "node_modules to take them from; run `npm ci` in the tree first)") != std::string::npos);
    CHECK(refused.output.find("`[sandbox] network = true`") != std::string::npos);
  }
  SECTION("cargo with a registry dependency its cache does not hold: the capture names the opt-in") {
    const char* cargo_home = std::getenv("CARGO_HOME");
    const char* user_home = std::getenv("HOME");
    const fs::path registry = cargo_home ? fs::path(cargo_home) / "registry"
                                         : fs::path(user_home ? user_home : "/nonexistent") / ".cargo" / "registry";
    const auto cached = run({"sh", "-c", "ls -d \"$0\"/cache/*/itoa-* 2>/dev/null", registry.string()});
    if (!hydra::util::find_program("cargo") || !cached.output.empty()) {
      WARN("cargo is not installed, or its registry cache holds itoa: nothing to fetch");
      return;
    }
    const fs::path crate = temp.path() / "crate";
    fs::create_directories(crate / "src");
    hydra::util::write_file_atomic(crate / "Cargo.toml", "[package]\nname = \"fetches\"\nversion = \"0.1.0\"\n"
                                                         "edition = \"2021\"\n\n[dependencies]\nitoa = \"1\"\n");
    hydra::util::write_file_atomic(crate / "src" / "lib.rs",
                                   "pub fn digits(n: u32) -> usize { itoa::Buffer::new().format(n).len() }\n");
    const auto refused = run(capture_command(crate, temp.path() / "crate-run", {"--profile", "rust"}));
    INFO(refused.output);
    CHECK(refused.exit_code == 8);
    CHECK(refused.output.find("the build needs the network (build.log: error: no matching package named `itoa` "
                              "found)") != std::string::npos);
    CHECK(refused.output.find("set `[sandbox] network = true` in hydra.toml") != std::string::npos);
  }
  SECTION("network = true: captured, the run and its steps say the code had network, and so does the report") {
    hydra::util::write_file_atomic(project / "hydra.toml", "[sandbox]\nnetwork = true\n");
    const auto captured = capture("networked", {});
    INFO(captured.output);
    REQUIRE(captured.exit_code == 0);
    const auto manifest = read_json(temp.path() / "networked" / "manifest.json");
    CHECK(manifest.at("confinement") == nlohmann::json({{"sandboxed", true}, {"network", true}}));
    CHECK(manifest.at("sandbox").get<std::string>().find("network allowed ([sandbox] network = true)") !=
          std::string::npos);
    for (const auto& step : manifest.at("steps")) {
      CAPTURE(step.at("name"));
      if (step.contains("policy")) CHECK(step.at("policy").at("network") == true);
    }
    const auto loaded = hydra::pipeline::load(temp.path() / "networked", hydra::config::Config{});
    CHECK(loaded.network);
    CHECK(loaded.sandboxed == std::optional<bool>(true));
    // A candidate captured against it takes its [sandbox]: the report says
    // first that both ran with network.
    const auto candidate = capture("candidate", {"--baseline-run", (temp.path() / "networked").string()});
    INFO(candidate.output);
    REQUIRE(candidate.exit_code == 0);
    const fs::path json = temp.path() / "networked.json";
    const auto scored = score("networked", "candidate", json);
    INFO(scored.output);
    const auto contract = read_json(json);
    CHECK(contract.begin().key() == "alerts");
    CHECK(contract.at("alerts") ==
          nlohmann::json({"the baseline's (networked) code ran with network access ([sandbox] network = true)",
                          "candidate candidate's code ran with network access ([sandbox] network = true)"}));
    std::istringstream terminal(scored.output);
    std::string title, first;
    std::getline(terminal, title);
    std::getline(terminal, first);
    CHECK(first.rfind("WARNING:", 0) == 0);
    CHECK(first.find("with network access") != std::string::npos);
  }
}
