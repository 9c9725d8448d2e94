// Subcommand registration. Each subcommand lives in its own file
// (src/hydra/cli/<name>_command.cpp) and registers itself on the app.
#pragma once

#include <filesystem>
#include <optional>

#include <CLI/CLI.hpp>

#include <hydra/capture/capture.hpp>

namespace hydra::cli {

/// A registration function adds one subcommand to `app`. The subcommand's
/// callback stores the exit code of its result in `exit_code` (see
/// cli::ExitCode) and may throw a hydra::Error, which cli::main maps.
using Register = void (*)(CLI::App& app, int& exit_code);

void register_record(CLI::App& app, int& exit_code);
void register_score(CLI::App& app, int& exit_code);
void register_replay(CLI::App& app, int& exit_code);
void register_capture(CLI::App& app, int& exit_code);
void register_compare(CLI::App& app, int& exit_code);
void register_loop(CLI::App& app, int& exit_code);
void register_apply(CLI::App& app, int& exit_code);
void register_record_results(CLI::App& app, int& exit_code);
void register_leaderboard(CLI::App& app, int& exit_code);

/// Registers every subcommand above on `app` (docs/cli.md lists each one's
/// options).
void register_commands(CLI::App& app, int& exit_code);

/// Adds the options of a capture build tree (--jobs, --generator,
/// --build-config, --initial-cache, --cmake-arg, --exclude) to `command`,
/// reading into `options`. `jobs_help` says what --jobs runs in parallel.
void add_build_tree_options(CLI::App& command, capture::BuildTreeOptions& options, const std::string& jobs_help);

/// The clang-tidy captures lint with: HYDRA_SCORE_CLANG_TIDY when set (the
/// CMake module passes its cache variable this way), else clang-tidy on PATH.
std::optional<std::filesystem::path> clang_tidy_program();

}  // namespace hydra::cli
