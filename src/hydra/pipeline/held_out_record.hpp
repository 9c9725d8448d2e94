// The manifest's "held_out" record, as the capture's held-out step writes it
// (capture/held_out.cpp; docs/run-directory.md), read into model::HeldOut.
// The held-out JUnit files are read with the run's other artifacts.
#pragma once

#include <nlohmann/json.hpp>

#include <hydra/model/held_out.hpp>

namespace hydra::pipeline {

/// The held-out record of `manifest`; mode "none" when it has none. Values of
/// the wrong type read as absent (the run was sealed by a capture).
model::HeldOut read_held_out_record(const nlohmann::json& manifest);

}  // namespace hydra::pipeline
