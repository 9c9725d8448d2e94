#include <hydra/compare/store_tasks.hpp>

#include <map>
#include <tuple>

#include <hydra/error.hpp>

namespace hydra::compare {

eval::TaskSet load_store_side(const std::filesystem::path& store_file, const StoreSide& side,
                              const store::RowFilter& filter) {
  store::RowFilter selected = filter;
  if (!side.agent.empty()) selected.agents = {side.agent};
  if (!side.config_digest.empty()) selected.config_digests = {side.config_digest};
  const store::Store store(store_file, store::Store::Mode::existing);
  const auto rows = store.rows(selected, store::Store::Columns::no_details);

  std::map<std::string, const store::CandidateRow*> latest;
  for (const auto& row : rows) {
    auto& kept = latest[row.task];
    if (!kept || std::tie(row.attempt, row.recorded_at, row.run_id) > std::tie(kept->attempt, kept->recorded_at, kept->run_id))
      kept = &row;
  }
  const std::string described = store_file.string() + " (" +
                                (side.agent.empty() ? "" : "agent " + side.agent) +
                                (!side.agent.empty() && !side.config_digest.empty() ? ", " : "") +
                                (side.config_digest.empty() ? "" : "config " + side.config_digest.substr(0, 12)) + ")";
  if (latest.empty()) throw UsageError("the results store " + described + " holds no recorded candidate for this side");

  eval::TaskSet set;
  set.source = described;
  for (const auto& [task, row] : latest) {
    eval::TaskResult result;
    result.id = task;
    result.source = store_file.string() + ": " + row->agent + " attempt " + std::to_string(row->attempt) +
                    " of ranking " + row->run_id;
    result.checks.build_failed = !row->build_passed;
    if (row->checks_passed) result.checks.passed = static_cast<std::uint64_t>(*row->checks_passed);
    if (row->checks_total) result.checks.total = static_cast<std::uint64_t>(*row->checks_total);
    result.cost = row->metrics;
    set.tasks.push_back(std::move(result));
  }
  return set;
}

}  // namespace hydra::compare
