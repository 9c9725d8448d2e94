// What every report says first (docs/reports.md, "Alerts"): the contract's
// `alerts`, one line per run whose code ran unconfined (no sandbox: it could
// read the user's files and secrets and reach the network) or with network
// access. Each renderer puts them before anything else (the terminal's in
// terminal.cpp); the improvement loop's reports say the same of its iterations.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/report/contract.hpp>

namespace hydra::report {

/// The Markdown block of `alerts` (a quoted warning list); empty without any.
std::string alerts_markdown(const std::vector<std::string>& alerts);
/// The HTML section of `alerts` (an alert box); empty without any.
std::string alerts_html(const std::vector<std::string>& alerts);
/// SARIF tool execution notifications (level "error"), one per alert.
nlohmann::json alerts_sarif_notifications(const std::vector<std::string>& alerts);

}  // namespace hydra::report
