// Helpers the dimension functions share (score.cpp, tests_dimension.cpp,
// lint_dimension.cpp): rounding for display, clamping, and how a dimension is
// switched off. Pure.
// Scores are exact (util::Exact); doubles are for display.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include <hydra/score/score.hpp>

namespace hydra::score {

/// `value` rounded to two decimals (how scores are shown and stored).
inline double round2(double value) { return std::round(value * 100) / 100; }

/// `value` clamped to the 0..100 range of a dimension score.
inline double clamp_score(double value) { return std::clamp(value, 0.0, 100.0); }
inline util::Exact clamp_score(const util::Exact& value) { return util::clamp(value, 0, 100); }

/// Makes `dimension` inactive with `reason`.
inline void deactivate(Dimension& dimension, std::string reason) {
  dimension.active = false;
  dimension.score = 0;
  dimension.inactive_reason = std::move(reason);
}

/// Why the baseline cannot measure `steps` (a step of them that could not
/// finish in its budget: model::Run::incomplete_steps); empty when it can.
std::string baseline_incomplete(const model::Run& baseline, std::initializer_list<const char*> steps);

/// Sets the configured weight; a weight of 0 disables an active dimension.
inline void apply_weight(Dimension& dimension, double weight) {
  dimension.weight = weight;
  if (dimension.active && weight <= 0) {
    deactivate(dimension, "disabled (weight 0 in scoring.weights." + dimension.name + ")");
  }
}

}  // namespace hydra::score
