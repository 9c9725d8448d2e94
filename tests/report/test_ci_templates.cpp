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
