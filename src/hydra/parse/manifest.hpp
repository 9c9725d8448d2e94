// manifest.json of a run directory -> model::RunManifest, every key checked
// for its type. A run directory is sealed, but a seal proves only that the
// files match the manifest, not who wrote it: a hand-made manifest with a
// number where a string belongs is an input error naming the key, never an
// internal error or a silently wrong score.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <hydra/model/manifest.hpp>

namespace hydra::parse {

/// Reads the keys of `document` (a parsed manifest). Keys this version does
/// not know are ignored; a known key of the wrong type throws
/// hydra::InputError naming `source_name` and the key's JSON pointer. Absent
/// keys keep the defaults of model::RunManifest (a staging manifest has not
/// all of them yet).
model::RunManifest parse_manifest(const nlohmann::json& document, const std::string& source_name);

}  // namespace hydra::parse
