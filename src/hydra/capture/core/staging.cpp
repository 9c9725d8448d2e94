// The run directory being written: the staging folder next to OUT, the
// manifest's fixed fields, step records and tool versions.
#include <hydra/capture/core/staging.hpp>

#include <cstdlib>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>
#include <hydra/version.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

json StepRecord::to_json() const {
  json step = {{"name", name},         {"command", command},     {"started", started},
               {"exit_code", exit_code}, {"seconds", seconds},     {"timed_out", timed_out},
               {"timeout_seconds", timeout_seconds}};
  if (!reason.empty()) step["reason"] = reason;
  for (const auto& [key, value] : extra.items()) step[key] = value;
  return step;
}

StepRecord step_record(const std::string& name, const std::vector<std::string>& argv,
                       const util::ProcessResult& result, double timeout_seconds) {
  StepRecord record;
  record.name = name;
  for (const auto& argument : argv) record.command += (record.command.empty() ? "" : " ") + argument;
  record.started = result.started;
  record.exit_code = result.exit_code;
  record.seconds = result.seconds;
  record.timed_out = result.timed_out;
  record.timeout_seconds = timeout_seconds;
  if (!result.started) record.reason = result.error;
  else if (result.timed_out)
    record.reason = "timed out after " + std::to_string(int(timeout_seconds)) + " s; process group killed";
  else if (result.memory_limit_reached)
    record.reason = "exit code " + std::to_string(result.exit_code) + "; a process reached the step's memory limit";
  else if (result.exit_code != 0) record.reason = "exit code " + std::to_string(result.exit_code);
  if (!result.limits_enforced.empty()) record.extra["limits_enforced"] = result.limits_enforced;
  if (result.memory_limit_reached) record.extra["memory_limit_reached"] = true;
  return record;
}

StepRecord step_record(const std::string& name, const std::vector<std::string>& argv,
                       const util::ProcessResult& result, double timeout_seconds, const StepPolicy& policy) {
  StepRecord record = step_record(name, argv, result, timeout_seconds);
  record.extra["policy"] = policy.to_json();
  return record;
}

void Staging::write(const std::string& relative, const std::string& content, const std::string& role) {
  util::write_file_atomic(directory / relative, content);
  roles[relative] = role;
}

Staging start_staging(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox) {
  Staging staging;
  fs::create_directories(plan.out.parent_path());
  // Locked while this capture runs; stale ones of killed captures go first.
  staging.owner = std::make_shared<StagingDirectory>(plan.out);
  staging.directory = staging.owner->path();
  staging.manifest = {{"schema", "hydra-score/run/1"},
                      {"engine_version", engine_version},
                      {"agent", request.agent},
                      {"task", request.task},
                      {"source_root", plan.source.string()},
                      {"source_commit", plan.source_commit},
                      {"build_dir", plan.build_dir.string()},
                      {"base_commit", plan.base_commit},
                      {"cache_key", plan.cache_key},
                      {"config_digest", config::digest(plan.config)},
                      {"steps", json::array()},
                      {"problems", json::array()},
                      {"security", {{"ran", false}, {"detail", "not configured"}}},
                      {"capture",
                       {{"generator", plan.generator}, {"build_config", request.build_config}, {"jobs", plan.jobs}}},
                      {"sandbox", sandbox.description},
                      {"confinement", {{"sandboxed", sandbox.confined()}, {"network", sandbox.network}}}};
  if (!plan.checkout_folder.empty()) staging.manifest["capture"]["checkout_folder"] = plan.checkout_folder.string();
  staging.manifest["time_budget"] = plan.budget.to_json(plan.config);
  if (!request.recapture_reason.empty()) staging.manifest["recaptured"] = {{"reason", request.recapture_reason}};
  if (!request.retried_alone.empty()) staging.manifest["retried_alone"] = {{"reason", request.retried_alone}};
  if (request.agent_seconds) staging.manifest["agent_seconds"] = *request.agent_seconds;
  if (plan.config_file) staging.write("hydra.toml", plan.config_text, "config");
  if (request.metrics) staging.write("metrics.json", util::read_file(*request.metrics), "metrics");
  if (plan.tidy_config) staging.write("clang-tidy.yaml", util::read_file(*plan.tidy_config), "clang_tidy_config");
  return staging;
}

std::string tool_version(const std::string& program) {
  util::ProcessRequest request;
  request.argv = {program, "--version"};
  return tool_version(std::move(request));
}

std::string tool_version(util::ProcessRequest request) {
  request.timeout = std::chrono::seconds(20);
  const auto result = util::run_process(request);
  if (!result.started || result.exit_code != 0) return "unavailable";
  // clang-tidy prints a banner line first; keep the line naming the version.
  const std::string& output = result.output;
  std::string best = output.substr(0, output.find('\n'));
  std::size_t start = 0;
  while (start < output.size()) {
    const auto end = output.find('\n', start);
    const std::string line = output.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line.find("version") != std::string::npos) {
      best = line;
      break;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  while (!best.empty() && best.front() == ' ') best.erase(best.begin());
  return best;
}

}  // namespace hydra::capture
