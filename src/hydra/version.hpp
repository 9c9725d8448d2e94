// The engine version stamped into manifests and score output.
#pragma once

namespace hydra {

/// Version of the scoring engine (the project version).
inline constexpr const char* engine_version = HYDRA_SCORE_VERSION;

}  // namespace hydra
