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
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/model/manifest.hpp>

namespace hydra::guard {

/// The key of the difference a plain configure that failed records
/// (capture/configure_differential_step.cpp).
inline constexpr const char* kFailedConfigureKey = "configure";

struct ConfigureJudgement {
  bool judged = false;  ///< both runs recorded a differential, and it could tell them apart
  /// Why a recorded differential could not judge (the baseline's plain
  /// configure failed, and the candidate's too); empty otherwise.
  std::string not_judged;
  std::vector<model::ConfigureDifference> own;  ///< the candidate's, not the baseline's
  nlohmann::json evidence = nlohmann::json::object();  ///< the contract's anti_gaming.configure_differential
};

/// The detail of the failed plain configure among `differences`; nullopt
/// when it did not fail (or none was recorded).
std::optional<std::string> failed_plain_configure(
    const std::optional<std::vector<model::ConfigureDifference>>& differences);

/// The candidate's differences whose keys the baseline's differential does
/// not show; judged only when both recorded one, and not when both plain
/// configures failed (`not_judged` says so: the differential is off for
/// that candidate, which is not blamed for the baseline's failure).
ConfigureJudgement judge_configure_differential(
    const std::optional<std::vector<model::ConfigureDifference>>& baseline,
    const std::optional<std::vector<model::ConfigureDifference>>& candidate);

}  // namespace hydra::guard
