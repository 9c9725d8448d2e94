// Where the anti-gaming tests find their recorded fixtures
// (tests/fixtures/guard/, recorded by tests/fixtures/guard/record.sh from real
// git diffs, ctest --show-only=json-v1 and ctest --output-junit runs).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <hydra/model/test.hpp>
#include <hydra/parse/ctest_json.hpp>
#include <hydra/parse/diff_lines.hpp>
#include <hydra/parse/junit.hpp>
#include <hydra/util/files.hpp>
#include "test_paths.hpp"

namespace hydra::test {

inline std::filesystem::path guard_fixture(const std::string& name) {
  return std::filesystem::path(HYDRA_FIXTURES_DIR) / "guard" / name;
}

/// `<scenario>.diff`: the scenario's change against the baseline.
inline parse::DiffLines scenario_diff(const std::string& scenario) {
  const auto file = guard_fixture(scenario + ".diff");
  return parse::parse_diff_lines(util::read_file(file), file.string());
}

/// `<scenario>.ctest.json` ("baseline" for the baseline's).
inline std::vector<model::TestDefinition> scenario_definitions(const std::string& scenario) {
  return parse::parse_ctest_json_file(guard_fixture(scenario + ".ctest.json"));
}

/// `<scenario>.junit.xml` (recorded for "baseline" and "test-properties").
inline std::vector<model::TestCase> scenario_results(const std::string& scenario) {
  return parse::parse_junit_file(guard_fixture(scenario + ".junit.xml"));
}

}  // namespace hydra::test
