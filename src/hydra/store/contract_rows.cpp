#include <hydra/store/contract_rows.hpp>

#include <cmath>

#include <hydra/error.hpp>
#include <hydra/score/contract.hpp>
#include <hydra/version.hpp>

namespace hydra::store {
namespace {

using nlohmann::json;

/// "major.minor" of a version string ("0.1.0" -> "0.1"); the whole string
/// when it has fewer than two dots' worth of parts.
std::string major_minor(const std::string& version) {
  const auto first = version.find('.');
  if (first == std::string::npos) return version;
  const auto second = version.find('.', first + 1);
  return second == std::string::npos ? version : version.substr(0, second);
}

/// The value at `key` of `object`, which must have `type`; else an InputError naming `where`.
const json& member(const json& object, const char* key, json::value_t type, const std::string& source,
                   const std::string& where) {
  const auto found = object.find(key);
  const bool matches = found != object.end() &&
                       (found->type() == type ||
                        (type == json::value_t::number_float && found->is_number()));
  if (!matches)
    throw InputError(source, "not a score contract of this hydra-score: " + where + "." + key +
                                 " is missing or not " + (type == json::value_t::string ? "a string"
                                                          : type == json::value_t::boolean ? "a boolean"
                                                          : type == json::value_t::object ? "an object"
                                                          : type == json::value_t::array ? "an array"
                                                                                         : "a number"));
  return *found;
}

std::optional<double> number_at(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

/// The run's agent metrics; each present key must be a finite number >= 0.
model::AgentMetrics metrics_of(const json& run, const std::string& source, const std::string& where) {
  model::AgentMetrics metrics;
  const auto found = run.find("metrics");
  if (found == run.end()) return metrics;
  if (!found->is_object()) throw InputError(source, where + ".metrics must be an object");
  const auto read = [&](const char* key, std::optional<double>& field) {
    const auto value = found->find(key);
    if (value == found->end()) return;
    if (!value->is_number())
      throw InputError(source, where + ".metrics." + key + " must be a number, not " + value->type_name());
    const double number = value->get<double>();
    if (!std::isfinite(number) || number < 0)
      throw InputError(source, where + ".metrics." + key + " must be a finite number >= 0, not " + value->dump());
    field = number;
  };
  read("tokens", metrics.tokens);
  read("input_tokens", metrics.input_tokens);
  read("output_tokens", metrics.output_tokens);
  read("cost_usd", metrics.cost_usd);
  read("tool_calls", metrics.tool_calls);
  read("steps", metrics.steps);
  read("wall_clock_ms", metrics.wall_clock_ms);
  read("duration_seconds", metrics.duration_seconds);
  return metrics;
}

/// The tests dimension's candidate counts (evidence A_pass / A_total), when it measured them.
void checks_of(const json& dimensions, CandidateRow& row) {
  const auto tests = dimensions.find("tests");
  if (tests == dimensions.end() || !tests->is_object()) return;
  const auto evidence = tests->find("evidence");
  if (evidence == tests->end() || !evidence->is_object()) return;
  if (!evidence->value("candidate_tests_recorded", false)) return;
  const auto passed = number_at(*evidence, "A_pass");
  const auto total = number_at(*evidence, "A_total");
  if (passed && total) {
    row.checks_passed = static_cast<std::int64_t>(*passed);
    row.checks_total = static_cast<std::int64_t>(*total);
  }
}

}  // namespace

bool compatible_engine_version(const std::string& version) {
  return major_minor(version) == major_minor(engine_version);
}

std::string default_task(const json& contract) {
  const json baseline = contract.value("baseline", json::object());
  if (const std::string task = baseline.value("task", ""); !task.empty()) return task;
  const std::string commit = baseline.value("commit", "");
  if (!commit.empty()) {
    const std::string project = baseline.value("project", "");
    return (project.empty() ? std::string() : project + "@") + commit.substr(0, 12);
  }
  return "baseline-" + baseline.value("digest", std::string("unknown")).substr(0, 12);
}

std::vector<CandidateRow> rows_from_contract(const json& contract, const std::string& source_name,
                                             const RowNaming& naming) {
  if (!contract.is_object()) throw InputError(source_name, "not a score contract: the document is not a JSON object");
  const std::string schema = contract.value("schema", "");
  if (schema != score::contract_schema)
    throw InputError(source_name, "not a score contract this hydra-score reads: schema \"" + schema +
                                      "\" (expected \"" + score::contract_schema + "\")");
  const std::string version = member(contract, "engine_version", json::value_t::string, source_name, "").get<std::string>();
  if (!compatible_engine_version(version))
    throw InputError(source_name, "written by hydra-score " + version + ", another tool version than this one (" +
                                      engine_version + "): score its runs again with this version");
  const std::string run_id = member(contract, "run_id", json::value_t::string, source_name, "").get<std::string>();
  const std::string config_digest =
      member(contract, "config_digest", json::value_t::string, source_name, "").get<std::string>();
  const json& baseline = member(contract, "baseline", json::value_t::object, source_name, "");
  const std::string baseline_digest = member(baseline, "digest", json::value_t::string, source_name, "baseline").get<std::string>();
  const json& rankings = member(contract, "rankings", json::value_t::array, source_name, "");

  const std::string task = naming.task.empty() ? default_task(contract) : naming.task;
  std::vector<CandidateRow> rows;
  for (std::size_t index = 0; index < rankings.size(); ++index) {
    const json& entry = rankings[index];
    const std::string where = "rankings[" + std::to_string(index) + "]";
    if (!entry.is_object()) throw InputError(source_name, "not a score contract: " + where + " is not an object");
    CandidateRow row;
    row.run_id = run_id;
    row.agent = member(entry, "agent", json::value_t::string, source_name, where).get<std::string>();
    const json& run = member(entry, "run", json::value_t::object, source_name, where);
    const std::string run_task = run.value("task", "");
    row.task = naming.task.empty() && !run_task.empty() ? run_task : task;
    row.attempt = naming.attempt;
    row.recorded_at = naming.recorded_at;
    row.engine_version = version;
    row.config_digest = config_digest;
    row.baseline_digest = baseline_digest;
    row.run_digest = member(run, "digest", json::value_t::string, source_name, where + ".run").get<std::string>();
    row.rank = member(entry, "rank", json::value_t::number_float, source_name, where).get<std::int64_t>();
    row.total = member(entry, "total", json::value_t::number_float, source_name, where).get<double>();
    row.mergeable = member(entry, "mergeable", json::value_t::boolean, source_name, where).get<bool>();
    if (const auto resolution = entry.find("resolution"); resolution != entry.end() && resolution->is_object())
      row.resolved = resolution->value("resolved", false);
    const json& dimensions = member(entry, "dimensions", json::value_t::object, source_name, where);
    const json& gates = member(entry, "gates", json::value_t::array, source_name, where);
    const json build = dimensions.value("build", json::object());
    row.build_passed = build.is_object() && build.value("evidence", json::object()).value("passed", false);
    checks_of(dimensions, row);
    row.metrics = metrics_of(run, source_name, where + ".run");
    row.tools_json = run.value("tools", json::object()).dump();
    row.dimensions_json = dimensions.dump();
    row.gates_json = gates.dump();
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace hydra::store
