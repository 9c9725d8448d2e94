// The improvement loop's settings: the [loop] table of hydra.toml, overridden
// by command-line flags. Reference: docs/loop.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <hydra/config/table_reader.hpp>

namespace hydra::loop {

/// What the loop scores an iteration by.
enum class Metric {
  pass_rate,  ///< mean pass rate over eval cases (seeds/convergence-loop.md)
  composite,  ///< the ranking composite against iteration 0, divided by 100
};

/// "pass_rate" or "composite".
std::string_view to_string(Metric metric) noexcept;

struct LoopSettings {
  int max_iterations = 10;  ///< improvement iterations after iteration 0
  int stuck_after = 3;      ///< consecutive reverts that stop the loop as "stuck"
  Metric metric = Metric::pass_rate;
  std::string improver;                      ///< shell command run in the source tree each iteration
  double improver_timeout_seconds = 1800.0;  ///< a timed-out improver counts as a revert
  /// Paths (relative to the source tree) the loop snapshots and restores.
  /// Empty: the whole source tree, except build trees and ignored files.
  std::vector<std::string> paths;
};

/// Reads the [loop] table itself (max_iterations, stuck_after, metric,
/// improver, improver_timeout_seconds, paths) over the defaults. Throws
/// hydra::InputError naming the file, "loop.<key>" and its line:column
/// for unknown keys, wrong types and out-of-range values (max_iterations or
/// stuck_after below 1, a timeout that is not a positive finite number, a
/// metric other than "pass_rate"/"composite", an absolute path or one that
/// leaves the source tree with "..").
LoopSettings read_loop(config::TableReader& table);

/// Parses hydra.toml text `toml_text` and reads its [loop] table (defaults
/// when there is none); every other table is left to the config validator.
/// Throws hydra::InputError for TOML syntax errors and as read_loop.
LoopSettings parse_loop_settings(std::string_view toml_text, const std::string& source_name);

}  // namespace hydra::loop
