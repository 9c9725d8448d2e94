// build-targets.json: how a capture's build tree builds its targets (the
// CMake File API codemodel read right after configure, capture/cmake/codemodel.cpp;
// docs/run-directory.md). Read by the held-out comparison of test programs
// and by the lint step.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <hydra/model/build_targets.hpp>

namespace hydra::parse {

/// The file's JSON form (every member written, lists in their order).
nlohmann::json to_json(const model::BuildTargets& targets);

/// Parses what to_json wrote. Throws hydra::InputError naming `source_name`
/// (line:column for malformed JSON, the JSON pointer for a wrong type).
model::BuildTargets parse_build_targets(std::string_view text, const std::string& source_name);
model::BuildTargets parse_build_targets_file(const std::filesystem::path& file);

}  // namespace hydra::parse
