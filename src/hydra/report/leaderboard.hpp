// The leaderboard's renderers: the JSON contract (schema
// "hydra-score/leaderboard/1", docs/leaderboard.md), a terminal table,
// Markdown (pull requests, $GITHUB_STEP_SUMMARY) and a self-contained HTML
// page with the Pareto frontier and per-agent trends as inline SVG. Pure and
// deterministic; agent and task names are escaped for each format.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <hydra/leaderboard/leaderboard.hpp>
#include <hydra/store/store.hpp>

namespace hydra::report {

/// The schema string of the leaderboard JSON.
inline constexpr const char* leaderboard_schema = "hydra-score/leaderboard/1";

/// The leaderboard JSON contract; `filter` is echoed as "filters".
nlohmann::json to_json(const leaderboard::Leaderboard& board, const store::RowFilter& filter);

/// An aligned text table per agent, then the pairwise tests.
std::string render_table(const leaderboard::Leaderboard& board);

/// GitHub-flavoured Markdown: the table per agent, pass@k, the frontier and the pairwise tests.
std::string render_markdown(const leaderboard::Leaderboard& board);

/// One self-contained HTML page (inline CSS and SVG, no script, nothing fetched).
std::string render_html(const leaderboard::Leaderboard& board);

}  // namespace hydra::report
