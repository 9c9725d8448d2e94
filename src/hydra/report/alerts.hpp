// What every report says first (docs/reports.md, "Alerts"): the contract's
// `alerts`, one line per run whose code ran unconfined (no sandbox: it could
// read the user's files and secrets and reach the network) or with network
// access. Each renderer puts them before anything else (the terminal's in
// terminal.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <hydra/report/contract.hpp>

namespace hydra::report {

/// The Markdown block (a quoted warning list); empty without alerts.
std::string alerts_markdown(const ContractView& view);
/// The HTML section (an alert box); empty without alerts.
std::string alerts_html(const ContractView& view);
/// SARIF tool execution notifications (level "error"), one per alert.
nlohmann::json alerts_sarif_notifications(const ContractView& view);

}  // namespace hydra::report
