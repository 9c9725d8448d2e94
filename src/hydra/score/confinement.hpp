// What candidate code could reach while it ran (docs/threat-model.md, "What
// candidate code can reach"): every report says in its first lines when a
// run's code ran unconfined (no bubblewrap: it could read the user's files
// and secrets and reach the network) or with network access ([sandbox]
// network = true), and when a differential that would catch code keyed on
// the capture could not judge. Pure.
#pragma once

#include <string>
#include <vector>

#include <hydra/model/run.hpp>
#include <hydra/score/score.hpp>

namespace hydra::score {

/// The alert of one run: "<whose> code ran UNCONFINED (<why>): ..." or
/// "<whose> code ran with network access (...)"; empty when it ran confined
/// without network, or is not known to have run (`sandboxed` nullopt).
std::string sandbox_warning(const std::string& whose, const std::string& sandbox, const std::optional<bool>& sandboxed,
                            bool network);

/// One line per captured run of the ranking whose code ran unconfined or
/// with network, the baseline first, then the candidates in ranking order
/// (the score contract's `alerts`). Recorded runs (HydraScore ran
/// nothing) have none. Empty when every captured run was confined without network.
std::vector<std::string> sandbox_warnings(const model::Run& baseline, const Ranking& ranking);

/// The alert of a configure differential that cannot judge
/// (guard/configure_differential.hpp): the baseline's plain configure
/// failed, so a candidate whose plain configure fails too is not compared;
/// empty when it did not fail or none was recorded.
std::string configure_differential_warning(const model::Run& baseline);

}  // namespace hydra::score
