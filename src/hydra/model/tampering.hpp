// Plain data: what the anti-gaming detectors found in a candidate's change
// (see hydra::guard and docs/threat-model.md), as scoring consumes it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::model {

struct Tampering {
  bool analyzed = false;                   ///< false: no diff to analyze (nothing is applied)
  std::vector<std::string> config_edits;   ///< protected configuration files the change touches
  std::uint64_t suppressions_added = 0;    ///< lint suppressions the change adds
  std::uint64_t assertions_removed = 0;    ///< assertion lines removed from test files
  std::uint64_t tampered_tests = 0;        ///< distinct tests disabled, newly skipped or modified (not dropped)
  std::vector<std::string> tampered_test_names;  ///< those tests' names, sorted: their verdicts prove nothing
  std::vector<std::string> gate_reasons;   ///< why the anti_gaming gate fails; empty: it passes
  nlohmann::json evidence = nlohmann::json::object();  ///< the detectors' full report
};

}  // namespace hydra::model
