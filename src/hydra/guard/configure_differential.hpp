// The configure differential judged (docs/threat-model.md, "Configure keyed
// on the capture"; the capture side is capture/configure_differential_step.hpp):
// a candidate's configure that decided its build otherwise in HydraScore's
// capture than in a plain configure of the same tree (another source, define,
// flag, include folder, link fragment, generated file, or a configure that
// fails plain) builds one program for the score and another for its users.
// A difference the baseline's own differential shows too (under the same
// key: a version define from git, a time stamp) is the project's, excused.
// Pure.
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/manifest.hpp>

namespace hydra::guard {

struct ConfigureJudgement {
  bool judged = false;  ///< both runs recorded a differential
  std::vector<model::ConfigureDifference> own;  ///< the candidate's, not the baseline's
  nlohmann::json evidence = nlohmann::json::object();  ///< the contract's anti_gaming.configure_differential
};

/// The candidate's differences whose keys the baseline's differential does
/// not show; judged only when both recorded one.
ConfigureJudgement judge_configure_differential(
    const std::optional<std::vector<model::ConfigureDifference>>& baseline,
    const std::optional<std::vector<model::ConfigureDifference>>& candidate);

}  // namespace hydra::guard
