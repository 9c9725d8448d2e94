// `ctest --show-only=json-v1`: each test's command, labels and properties.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <hydra/model/test.hpp>

namespace hydra::parse {

/// Throws hydra::InputError (file, line, column) for malformed JSON or a
/// document that is not json-v1.
std::vector<model::TestDefinition> parse_ctest_json(std::string_view json_text,
                                                    const std::string& source_name);
std::vector<model::TestDefinition> parse_ctest_json_file(const std::filesystem::path& file);

/// Copies labels from `definitions` onto `tests` whose name matches (CMake
/// 3.25's JUnit carries no labels).
void apply_labels(std::vector<model::TestCase>& tests,
                  const std::vector<model::TestDefinition>& definitions);

}  // namespace hydra::parse
