// What measured nothing, as every report says it (docs/reports.md, "Nothing
// measured"): the baseline in which no test ran, a lint step that linted no
// translation unit, and the contract's `nothing_measured` lines.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <hydra/report/contract.hpp>

namespace hydra::report {

/// "NO TEST RAN (...)" when no test of the baseline ran (no results, an
/// empty suite, everything skipped); empty when some test ran.
std::string baseline_no_test_ran(const BaselineView& baseline);

/// "NOTHING LINTED (0 translation units)" when the baseline's lint step
/// linted no translation unit; empty otherwise.
std::string baseline_linted_nothing(const BaselineView& baseline);

/// The Markdown block of `view.nothing_measured` (a quoted warning list);
/// empty when nothing is listed.
std::string nothing_measured_markdown(const ContractView& view);

/// The HTML section of `view.nothing_measured` (an alert box); empty when
/// nothing is listed.
std::string nothing_measured_html(const ContractView& view);

/// SARIF `invocations` carrying `view.nothing_measured` as warning
/// notifications; null when nothing is listed.
nlohmann::json nothing_measured_sarif(const ContractView& view);

}  // namespace hydra::report
