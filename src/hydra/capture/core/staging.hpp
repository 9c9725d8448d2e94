// The run directory being written (staging.cpp): its staging folder, the
// manifest so far, the role of every artifact, and the record of each
// process step (docs/run-directory.md).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hydra/capture/core/plan.hpp>
#include <hydra/capture/core/request.hpp>
#include <hydra/capture/core/staging_directory.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>
#include <hydra/capture/sandbox/step_policy.hpp>
#include <hydra/util/process.hpp>

namespace hydra::capture {

/// What one process step did, as the manifest's "steps" list records it.
struct StepRecord {
  std::string name;
  std::string command;
  bool started = false;
  int exit_code = -1;
  double seconds = 0.0;
  bool timed_out = false;
  double timeout_seconds = 0.0;
  std::string reason;  ///< why it did not pass; empty when it did
  nlohmann::json extra = nlohmann::json::object();  ///< step-specific figures (translation units, ...)

  nlohmann::json to_json() const;
};

/// The record of `result`, which ran `argv` under `timeout_seconds`.
StepRecord step_record(const std::string& name, const std::vector<std::string>& argv,
                       const util::ProcessResult& result, double timeout_seconds);
/// As above, for a step that ran under `policy`: recorded with it ("policy").
StepRecord step_record(const std::string& name, const std::vector<std::string>& argv,
                       const util::ProcessResult& result, double timeout_seconds, const StepPolicy& policy);

/// The run directory being written: its staging folder, the manifest so far
/// and the role of every artifact in it.
struct Staging {
  /// The locked staging directory (staging_directory.hpp): removed with this
  /// object unless published; its lock tells later captures it is not stale.
  std::shared_ptr<StagingDirectory> owner;
  std::filesystem::path directory;
  nlohmann::json manifest = nlohmann::json::object();
  nlohmann::json roles = nlohmann::json::object();

  /// Writes `content` to `relative` (atomically) and records its role.
  void write(const std::string& relative, const std::string& content, const std::string& role);
  /// Records the role of a file a step wrote itself.
  void add(const std::string& relative, const std::string& role) { roles[relative] = role; }
  /// Appends a step to the manifest's "steps".
  void step(const StepRecord& record) { manifest["steps"].push_back(record.to_json()); }
  /// Appends a problem (the run is then not mergeable).
  void problem(const std::string& text) { manifest["problems"].push_back(text); }
  /// A step that could not finish in its budget (`step`: "build", "test",
  /// "lint", or "held-out <step>"): a problem of this run, and recorded as
  /// such in "incomplete_steps", so that a baseline's makes the dimension
  /// unmeasurable for every candidate instead of failing their gates.
  void incomplete(const std::string& step, const std::string& text) {
    problem(text);
    manifest["incomplete_steps"].push_back({{"step", step}, {"reason", text}});
  }
};

/// The staging directory for `plan.out` and the manifest's fixed fields.
Staging start_staging(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox);

/// The first line of `--version` output naming the version, or "unavailable".
std::string tool_version(const std::string& program);
/// The same for a prepared request (Sandbox::request: a program of the tree's).
std::string tool_version(util::ProcessRequest request);

}  // namespace hydra::capture
