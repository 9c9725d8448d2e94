#include <hydra/pipeline/artifacts.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/parse/libtest.hpp>
#include <hydra/parse/lint_formats.hpp>
#include <hydra/parse/lint_log.hpp>

namespace hydra::pipeline {

bool is_test_role(const std::string& role) { return role == "junit" || role == "libtest_log"; }

bool is_lint_role(const std::string& role) {
  return role == "lint_log" || role == "clippy_json" || role == "eslint_json" || role == "flake8_log" ||
         role == "ruff_log";
}

TestArtifact parse_test_artifact(const std::string& role, const std::filesystem::path& file) {
  TestArtifact artifact;
  if (role == "junit") {
    artifact.tests = parse::parse_junit_file(file, &artifact.replaced_bytes);
  } else if (role == "libtest_log") {
    parse::LibtestResult result = parse::parse_libtest_file(file);
    artifact.tests = std::move(result.tests);
    for (auto& problem : result.problems) artifact.problems.push_back(file.filename().string() + ": " + problem);
  } else {
    throw Error("no test parser for artifact role \"" + role + "\"");
  }
  return artifact;
}

LintArtifact parse_lint_artifact(const std::string& role, const std::filesystem::path& file) {
  LintArtifact artifact;
  if (role == "lint_log") artifact.findings = parse::parse_clang_tidy_file(file);
  else if (role == "clippy_json") artifact.findings = parse::parse_cargo_diagnostics_file(file, &artifact.stopped_early);
  else if (role == "eslint_json") artifact.findings = parse::parse_eslint_json_file(file);
  else if (role == "flake8_log") artifact.findings = parse::parse_flake8_file(file, "flake8");
  else if (role == "ruff_log") artifact.findings = parse::parse_flake8_file(file, "ruff");
  else throw Error("no lint parser for artifact role \"" + role + "\"");
  return artifact;
}

}  // namespace hydra::pipeline
