// The CI templates under templates/ci/: valid YAML (read back with python3-yaml)
// that captures each candidate and writes and publishes every report.
#include "report/report_fixtures.hpp"

#include <string>
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
      CHECK(check_yaml(file, "any('bubblewrap' in s.get('run', '') for s in " + at + "['steps'])") == 0);
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
    CHECK(check_yaml(file, "[n['job'] for n in d['hydra-score']['needs']] == ['hydra-baseline', 'hydra-candidate']") == 0);
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
