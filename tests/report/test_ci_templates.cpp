// The CI templates under templates/ci/: valid YAML (read back with python3-yaml)
// that captures each candidate and writes and publishes every report.
#include "report/report_fixtures.hpp"

#include <regex>
#include <string>
#include <utility>
#include "test_paths.hpp"

namespace {

std::filesystem::path template_path(const std::string& name) {
  return std::filesystem::path(HYDRA_SOURCE_DIR) / "templates" / "ci" / name;
}

/// Exit status of loading `file` with PyYAML and evaluating `check` (a Python
/// expression over the document `d`); 0 when it holds.
int check_yaml(const std::filesystem::path& file, const std::string& check) {
  const std::string program = "import sys, yaml\nd = yaml.safe_load(open(sys.argv[1]))\nsys.exit(0 if (" + check +
                              ") else 1)\n";
  return report_test::run_shell("/usr/bin/python3 -c " + report_test::shell_quote(program) + " " +
                                report_test::shell_quote(file.string()));
}

bool have_pyyaml() { return report_test::run_shell("/usr/bin/python3 -c 'import yaml' 2>/dev/null") == 0; }

}  // namespace

TEST_CASE("the GitHub Actions template captures, scores and publishes", "[report]") {
  const auto file = template_path("github-actions.yml");
  const std::string text = hydra::util::read_file(file);
  SECTION("valid input") {
    for (const char* expected :
         {"hydra-score capture --source . --out \"run-${{ matrix.agent }}\"", "--agent \"${{ matrix.agent }}\"",
          "hydra-score capture --source . --out run-baseline --agent baseline", "hydra-score score \"$@\"",
          "--json score.json --markdown score.md --sarif score.sarif", "--junit gates.xml --html score.html",
          "$GITHUB_STEP_SUMMARY", "github/codeql-action/upload-sarif", "security-events: write",
          "actions/upload-artifact", "actions/download-artifact"}) {
      CAPTURE(expected);
      CHECK(text.find(expected) != std::string::npos);
    }
  }
  SECTION("parses as YAML with the expected jobs") {
    if (!have_pyyaml()) {
      WARN("python3-yaml is not installed: YAML validity not checked");
      CHECK(text.find("\t") == std::string::npos);  // YAML forbids tabs for indentation
      return;
    }
    CHECK(check_yaml(file, "set(d['jobs']) == {'tool', 'baseline', 'candidate', 'score'}") == 0);
    CHECK(check_yaml(file, "'matrix' in d['jobs']['candidate']['strategy']") == 0);
    CHECK(check_yaml(file, "set(d['jobs']['score']['needs']) == {'baseline', 'candidate'}") == 0);
  }
  SECTION("the jobs that run candidate code get a read-only token kept out of the checkout, no secrets, and a "
          "required sandbox") {
    if (!have_pyyaml()) {
      WARN("python3-yaml is not installed: job permissions not checked");
      return;
    }
    for (const char* job : {"baseline", "candidate"}) {
      CAPTURE(job);
      const std::string at = "d['jobs']['" + std::string(job) + "']";
      CHECK(check_yaml(file, at + "['permissions'] == {'contents': 'read'}") == 0);
      CHECK(check_yaml(file, "'secrets.' not in str(" + at + ") and 'env' not in " + at) == 0);
      CHECK(check_yaml(file, "[s['with'].get('persist-credentials') for s in " + at +
                                 "['steps'] if s.get('uses', '').startswith('actions/checkout')] == [False]") == 0);
      CHECK(check_yaml(file, "any('--require-sandbox' in s.get('run', '') for s in " + at + "['steps'])") == 0);
      // bubblewrap comes as a Recommends of the .deb: installed without --no-install-recommends.
      CHECK(check_yaml(file, "any('apt-get install -y \"$RUNNER_TEMP\"/hydra-score/hydra-score_*.deb' in "
                             "s.get('run', '') for s in " + at + "['steps'])") == 0);
    }
    // The workflow's default token is read-only too; only the score job may write.
    CHECK(check_yaml(file, "d['permissions'] == {'contents': 'read'}") == 0);
    // A candidate is captured with the base ref's hydra.toml, never its own.
    CHECK(text.find("git show \"origin/${BASE_REF}:hydra.toml\"") != std::string::npos);
  }
}

TEST_CASE("the GitLab CI template captures, scores and publishes", "[report]") {
  const auto file = template_path("gitlab-ci.yml");
  const std::string text = hydra::util::read_file(file);
  SECTION("valid input") {
    for (const char* expected :
         {"hydra-score capture --source . --out \"run-${AGENT}\" --agent \"${AGENT}\"",
          "hydra-score capture --source . --out run-baseline --agent baseline", "hydra-score score \"$@\"",
          "--json score.json --markdown score.md --sarif score.sarif", "--junit gates.xml --html score.html",
          "junit: gates.xml"}) {
      CAPTURE(expected);
      CHECK(text.find(expected) != std::string::npos);
    }
  }
  SECTION("parses as YAML with the expected jobs") {
    if (!have_pyyaml()) {
      WARN("python3-yaml is not installed: YAML validity not checked");
      CHECK(text.find("\t") == std::string::npos);
      return;
    }
    CHECK(check_yaml(file, "d['hydra-candidate']['parallel']['matrix'][0]['AGENT']") == 0);
    CHECK(check_yaml(file, "d['hydra-score']['artifacts']['reports']['junit'] == 'gates.xml'") == 0);
    CHECK(check_yaml(file, "[n['job'] for n in d['hydra-score']['needs']] == "
                           "['hydra-score-tool', 'hydra-baseline', 'hydra-candidate']") == 0);
    CHECK(check_yaml(file, "d['default']['image'] == 'debian:bookworm'") == 0);
  }
  SECTION("the capture jobs require the sandbox and take the base ref's configuration") {
    if (!have_pyyaml()) {
      WARN("python3-yaml is not installed: capture jobs not checked");
      return;
    }
    for (const char* job : {"hydra-baseline", "hydra-candidate"}) {
      CAPTURE(job);
      CHECK(check_yaml(file, "any('--require-sandbox' in line for line in d['" + std::string(job) + "']['script'] "
                             "if isinstance(line, str))") == 0);
      CHECK(check_yaml(file, "'variables' not in d['" + std::string(job) + "'] and 'id_tokens' not in d['" +
                                 std::string(job) + "']") == 0);
      // bubblewrap comes as a Recommends of the .deb: installed without --no-install-recommends.
      CHECK(check_yaml(file, "'apt-get install -y ./hydra-score-deb/hydra-score_*.deb' in d['" + std::string(job) +
                             "']['script'][0]") == 0);
    }
    CHECK(text.find("git show \"origin/${HYDRA_BASE_REF}:hydra.toml\"") != std::string::npos);
  }
}

TEST_CASE("the CI templates record every ranking into a kept store and publish its leaderboard", "[report][leaderboard]") {
  if (!have_pyyaml()) {
    WARN("python3-yaml is not installed: the results store steps not checked");
    return;
  }
  SECTION("GitHub Actions: store restored, recorded into, summarised, saved and uploaded") {
    const auto file = template_path("github-actions.yml");
    const std::string steps = "d['jobs']['score']['steps']";
    CHECK(check_yaml(file, "any('--store hydra-results/results.db' in s.get('run', '') and 'hydra-score score' in "
                           "s.get('run', '') for s in " + steps + ")") == 0);
    CHECK(check_yaml(file, "any('hydra-score leaderboard --store hydra-results/results.db' in s.get('run', '') and "
                           "'cat leaderboard.md >> \"$GITHUB_STEP_SUMMARY\"' in s.get('run', '') for s in " + steps + ")") == 0);
    CHECK(check_yaml(file, "[s['uses'] for s in " + steps + " if s.get('uses', '').startswith('actions/cache')] == "
                           "['actions/cache/restore@v4', 'actions/cache/save@v4']") == 0);
    CHECK(check_yaml(file, "any(s.get('with', {}).get('name') == 'hydra-results-store' and 'hydra-results/results.db' "
                           "in s['with']['path'] for s in " + steps + ")") == 0);
  }
  SECTION("GitHub Actions: the leaderboard step runs as written and fills the job summary") {
    // The step's script, run with the built tool on PATH against a store
    // holding the real report contract's ranking.
    hydra::util::TempDir dir("hydra-ci-store");
    const auto script = dir.path() / "step.sh";
    const std::string extract =
        "import sys, yaml\nd = yaml.safe_load(open(sys.argv[1]))\n"
        "open(sys.argv[2], 'w').write(next(s['run'] for s in d['jobs']['score']['steps'] "
        "if 'hydra-score leaderboard' in s.get('run', '')))\n";
    REQUIRE(report_test::run_shell("/usr/bin/python3 -c " + report_test::shell_quote(extract) + " " +
                                   report_test::shell_quote(template_path("github-actions.yml").string()) + " " +
                                   report_test::shell_quote(script.string())) == 0);
    const std::string tool = HYDRA_TOOL_PATH;
    const std::string cd = "cd " + report_test::shell_quote(dir.path().string()) + " && ";
    REQUIRE(report_test::run_shell(cd + report_test::shell_quote(tool) +
                                   " record-results --store hydra-results/results.db " +
                                   report_test::shell_quote((report_test::fixtures_dir() / "contract.json").string()) +
                                   " > record.log 2>&1") == 0);
    const std::string path = std::filesystem::path(tool).parent_path().string();
    REQUIRE(report_test::run_shell(cd + "PATH=" + report_test::shell_quote(path) + ":\"$PATH\" GITHUB_STEP_SUMMARY=" +
                                   report_test::shell_quote((dir.path() / "summary.md").string()) +
                                   " /bin/bash -e step.sh > step.log 2>&1") == 0);
    const std::string summary = hydra::util::read_file(dir.path() / "summary.md");
    CHECK(summary.find("## HydraScore leaderboard") != std::string::npos);
    CHECK(summary.find("| clean-fix | 1 | 1 | 100% [100%, 100%] |") != std::string::npos);
    CHECK(std::filesystem::exists(dir.path() / "leaderboard.html"));
  }
  SECTION("GitLab: store cached, recorded into, printed and kept as an artifact") {
    const auto file = template_path("gitlab-ci.yml");
    CHECK(check_yaml(file, "d['hydra-score']['cache']['paths'] == ['hydra-results/']") == 0);
    CHECK(check_yaml(file, "'hydra-results/results.db' in d['hydra-score']['artifacts']['paths']") == 0);
    CHECK(check_yaml(file, "any('--store hydra-results/results.db' in line and 'hydra-score leaderboard' in line "
                           "for line in d['hydra-score']['script'])") == 0);
  }
}

namespace {

/// Output and exit status of a shell command.
std::pair<int, std::string> shell_output(const std::string& command, const std::filesystem::path& directory) {
  const auto log = directory / "output.log";
  const int status = report_test::run_shell(command + " > " + report_test::shell_quote(log.string()) + " 2>&1");
  return {status, hydra::util::read_file(log)};
}

/// `text` with `from` replaced by `to` (once), written to `directory/name`.
std::filesystem::path broken_copy(const std::filesystem::path& directory, const std::string& name, std::string text,
                                  const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  hydra::util::write_file_atomic(directory / name, text);
  return directory / name;
}

const std::string kGitLabSchema = "/usr/bin/node " HYDRA_SOURCE_DIR "/tests/ci/validate-gitlab-ci.mjs \"$(npm root --global)/gitlab-ci-local\" ";

}  // namespace

TEST_CASE("the CI templates pass their systems' validators", "[report][ci]") {
  hydra::util::TempDir dir("hydra-ci-validate");
  SECTION("GitHub Actions: action-validator (the workflow schema) accepts the template and rejects a broken copy") {
    if (report_test::run_shell("command -v action-validator > /dev/null") != 0)
      FAIL("action-validator is missing: run scripts/install-deps.sh (npm @action-validator/cli)");
    const auto file = template_path("github-actions.yml");
    const auto [status, output] = shell_output("action-validator " + report_test::shell_quote(file.string()), dir.path());
    INFO(output);
    CHECK(status == 0);
    const auto broken = broken_copy(dir.path(), "broken.yml", hydra::util::read_file(file), "    runs-on: ubuntu-24.04\n",
                                    "    runs_on: ubuntu-24.04\n");
    CHECK(shell_output("action-validator " + report_test::shell_quote(broken.string()), dir.path()).first != 0);
  }
  SECTION("GitLab CI: GitLab's JSON schema of .gitlab-ci.yml accepts the template and rejects a broken copy") {
    if (report_test::run_shell("test -f \"$(npm root --global)/gitlab-ci-local/src/schema/schema.js\"") != 0)
      FAIL("gitlab-ci-local is missing: run scripts/install-deps.sh (npm gitlab-ci-local)");
    const auto file = template_path("gitlab-ci.yml");
    const auto [status, output] = shell_output(kGitLabSchema + report_test::shell_quote(file.string()), dir.path());
    INFO(output);
    CHECK(status == 0);
    CHECK(output.find("valid against https://gitlab.com/.gitlab-ci.yml") != std::string::npos);
    const auto broken = broken_copy(dir.path(), "broken.yml", hydra::util::read_file(file), "  when: always\n",
                                    "  when: sometimes\n");
    const auto [broken_status, broken_output] = shell_output(kGitLabSchema + report_test::shell_quote(broken.string()), dir.path());
    INFO(broken_output);
    CHECK(broken_status == 1);
    CHECK(broken_output.find("broken.yml: /hydra-baseline/artifacts/when") != std::string::npos);
  }
}

TEST_CASE("the packages come from scripts/packages and cover CMakeLists.txt's requirements", "[report][ci]") {
  const std::filesystem::path source = HYDRA_SOURCE_DIR;
  const std::string check = "/usr/bin/python3 " + report_test::shell_quote((source / "tests/ci/check_packages.py").string()) +
                            " build " + report_test::shell_quote((source / "CMakeLists.txt").string()) + " " +
                            report_test::shell_quote(std::string(HYDRA_BINARY_DIR) + "/CMakeCache.txt") + " ";
  hydra::util::TempDir dir("hydra-packages");
  SECTION("every find_package and pkg_check_modules resolves to a package of build.txt") {
    const auto [status, output] = shell_output(check + report_test::shell_quote((source / "scripts/packages/build.txt").string()), dir.path());
    INFO(output);
    CHECK(status == 0);
    CHECK(output.find("ok   pkg_check_modules(re2): libre2-dev") != std::string::npos);
    CHECK(output.find("ok   find_package(OpenSSL): libssl-dev") != std::string::npos);
  }
  SECTION("a list without a required package is reported by name") {
    const auto broken = broken_copy(dir.path(), "build.txt", hydra::util::read_file(source / "scripts/packages/build.txt"),
                                    "libre2-dev", "");
    const auto [status, output] = shell_output(check + report_test::shell_quote(broken.string()), dir.path());
    INFO(output);
    CHECK(status == 1);
    CHECK(output.find("FAIL pkg_check_modules(re2): files of libre2-dev") != std::string::npos);
  }
  SECTION("the templates name no library package: the tool job installs build.txt, the .deb brings the rest") {
    for (const char* name : {"github-actions.yml", "gitlab-ci.yml"}) {
      CAPTURE(name);
      const std::string text = hydra::util::read_file(template_path(name));
      CHECK(text.find("install-deps.sh build") != std::string::npos);
      CHECK_FALSE(std::regex_search(text, std::regex(R"(apt-get install[^\n]*-dev\b)")));
    }
  }
}

TEST_CASE("the simulated runner's apt-get installs only what a runner could get", "[report][ci]") {
  hydra::util::TempDir dir("hydra-ci-apt");
  const auto root = dir.path();
  for (const char* sub : {"bin", "sysroot", "pkg/DEBIAN", "pkg/usr/bin"}) std::filesystem::create_directories(root / sub);
  hydra::util::write_file_atomic(root / "pkg/usr/bin/tool", "#!/bin/sh\necho tool\n");
  std::filesystem::permissions(root / "pkg/usr/bin/tool", std::filesystem::perms::owner_all);
  const auto make_deb = [&](const std::string& name, const std::string& depends) {
    hydra::util::write_file_atomic(root / "pkg/DEBIAN/control",
                                   "Package: tool\nVersion: 1\nArchitecture: all\nMaintainer: t <t@localhost>\n"
                                   "Depends: " + depends + "\nRecommends: no-such-package-hydra-recommended\n"
                                   "Description: t\n");
    REQUIRE(report_test::run_shell("dpkg-deb --build " + report_test::shell_quote((root / "pkg").string()) + " " +
                                   report_test::shell_quote((root / name).string()) + " > /dev/null") == 0);
  };
  const std::string apt = "cd " + report_test::shell_quote(root.string()) + " && SIM_LOG=log SIM_BIN=" +
                          report_test::shell_quote((root / "bin").string()) + " SIM_SYSROOT=" +
                          report_test::shell_quote((root / "sysroot").string()) + " /usr/bin/python3 " +
                          report_test::shell_quote(std::string(HYDRA_SOURCE_DIR) + "/tests/ci/simulate_runner.py") +
                          " fake-apt-get install -y ";
  SECTION("a package this machine has stands for the runner's; one it lacks is refused by name") {
    CHECK(shell_output(apt + "libc6", root).first == 0);
    const auto [status, output] = shell_output(apt + "no-such-package-hydra", root);
    CHECK(status == 100);
    CHECK(output.find("no package no-such-package-hydra") != std::string::npos);
  }
  SECTION("a .deb installs when its Depends hold, and its Recommends count unless --no-install-recommends") {
    make_deb("good.deb", "libc6");
    CHECK(shell_output(apt + "--no-install-recommends ./good.deb", root).first == 0);
    CHECK(std::filesystem::exists(root / "bin" / "tool"));
    const auto [status, output] = shell_output(apt + "./good.deb", root);
    CHECK(status == 100);
    CHECK(output.find("no-such-package-hydra-recommended") != std::string::npos);
  }
  SECTION("a .deb whose Depends this machine lacks is refused") {
    make_deb("bad.deb", "libc6, no-such-library-hydra (>= 1)");
    const auto [status, output] = shell_output(apt + "--no-install-recommends ./bad.deb", root);
    CHECK(status == 100);
    CHECK(output.find("needs no-such-library-hydra (>= 1)") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(root / "bin" / "tool"));
  }
}
