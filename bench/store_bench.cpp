// The results store and the leaderboard at a team's scale: records N
// generated candidates (agents x tasks x attempts, a few per ranking, one
// transaction per ranking as `score --store` writes them), then reads them
// back and computes and renders the leaderboard as `hydra-score leaderboard`
// does. Prints recording throughput, leaderboard time and peak memory.
//
// Build and run (see bench/README.md, "Results store and leaderboard"):
//   cmake --build build --target hydra_store_bench
//   build/bench/hydra_store_bench [--rows N] [--agents A] [--per-ranking R] [--keep FILE]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <hydra/leaderboard/leaderboard.hpp>
#include <hydra/report/leaderboard.hpp>
#include <hydra/store/store.hpp>
#include <hydra/util/files.hpp>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

long peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t rows = 100000, agents = 10, per_ranking = 5;
  std::string keep;
  for (int index = 1; index + 1 < argc; index += 2) {
    const std::string option = argv[index];
    const std::string value = argv[index + 1];
    if (option == "--rows") rows = std::stoul(value);
    else if (option == "--agents") agents = std::stoul(value);
    else if (option == "--per-ranking") per_ranking = std::stoul(value);
    else if (option == "--keep") keep = value;
    else {
      std::fprintf(stderr, "unknown option %s\n", option.c_str());
      return 2;
    }
  }
  hydra::util::TempDir dir("hydra-store-bench");
  const std::filesystem::path file = keep.empty() ? dir.path() / "results.db" : std::filesystem::path(keep);
  std::filesystem::remove(file);

  // Candidates: agent a of ranking r attempts task r / 2 (two rankings per
  // task: attempts 1 and 2); outcomes and costs vary with a cheap hash.
  const std::size_t rankings = (rows + per_ranking - 1) / per_ranking;
  const auto start = std::chrono::steady_clock::now();
  std::size_t written = 0;
  {
    hydra::store::Store store(file, hydra::store::Store::Mode::create);
    std::vector<hydra::store::CandidateRow> batch;
    for (std::size_t ranking = 0; ranking < rankings && written < rows; ++ranking) {
      batch.clear();
      for (std::size_t slot = 0; slot < per_ranking && written + batch.size() < rows; ++slot) {
        const std::size_t agent = (ranking * per_ranking + slot) % agents;
        const std::uint64_t hash = (ranking * 2654435761u + agent * 40503u) % 1000;
        hydra::store::CandidateRow row;
        row.run_id = "run-" + std::to_string(ranking);
        row.task = "task-" + std::to_string(ranking / 2);
        row.agent = "agent-" + std::to_string(agent);
        row.attempt = static_cast<std::int64_t>(ranking % 2 + 1);
        row.recorded_at = 1767225600 + static_cast<std::int64_t>(ranking) * 60;  // from 2026-01-01, a ranking a minute
        row.engine_version = "0.1.0";
        row.config_digest = "c0ffee";
        row.baseline_digest = "base-" + std::to_string(ranking / 2);
        row.run_digest = row.run_id + row.agent;
        row.rank = static_cast<std::int64_t>(slot + 1);
        row.total = 50 + static_cast<double>(hash % 500) / 10.0;
        row.mergeable = hash % 100 < 40 + agent * 5;
        row.build_passed = true;
        row.checks_passed = 9;
        row.checks_total = 10;
        row.metrics.cost_usd = 0.05 + static_cast<double>(agent) * 0.03;
        row.metrics.tokens = 20000 + static_cast<double>(hash) * 10;
        row.dimensions_json = R"({"build":{"active":true,"score":100,"evidence":{"passed":true}}})";
        row.gates_json = R"([{"gate":"integrity","passed":true,"detail":"no integrity problems"}])";
        batch.push_back(std::move(row));
      }
      written += store.record(batch);
    }
  }
  const double record_seconds = seconds_since(start);
  const long record_mb = peak_rss_mb();

  const auto read_start = std::chrono::steady_clock::now();
  const hydra::store::Store store(file, hydra::store::Store::Mode::existing);
  const auto selected = store.rows({}, hydra::store::Store::Columns::leaderboard);
  const double read_seconds = seconds_since(read_start);
  const auto compute_start = std::chrono::steady_clock::now();
  const auto board = hydra::leaderboard::compute(selected, {});
  const std::string json = hydra::report::to_json(board, {}).dump(2);
  const std::string html = hydra::report::render_html(board);
  const double compute_seconds = seconds_since(compute_start);

  std::printf("rows recorded        %zu in %zu rankings of %zu (one transaction each)\n", written, rankings, per_ranking);
  std::printf("recording            %.2f s  (%.0f rows/s, %.0f rankings/s), peak RSS %ld MB\n", record_seconds,
              static_cast<double>(written) / record_seconds, static_cast<double>(rankings) / record_seconds, record_mb);
  std::printf("store size           %.1f MB\n", static_cast<double>(std::filesystem::file_size(file)) / 1e6);
  std::printf("leaderboard          %.3f s  (read %.3f s + compute and render %.3f s; %zu agents, %zu tasks, "
              "%zu resamples)\n",
              read_seconds + compute_seconds, read_seconds, compute_seconds, board.agents.size(), board.tasks,
              board.settings.resamples);
  std::printf("peak RSS             %ld MB\n", peak_rss_mb());
  std::printf("outputs              %zu bytes JSON, %zu bytes HTML\n", json.size(), html.size());
  return 0;
}
