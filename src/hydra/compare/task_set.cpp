#include <hydra/compare/task_set.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/json_error.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/util/files.hpp>

namespace hydra::compare {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Where the value at `pointer` (a path such as "/tasks/1/objective", keys unescaped)
/// starts in `json_text`, approximately (at its key for object members).
/// Parses again with a callback that follows the path; only used to report
/// an error, so the second parse costs nothing on valid input.
util::TextPosition locate(std::string_view json_text, const std::string& pointer) {
  struct Frame {
    bool is_array = false;
    std::size_t index = 0;
    std::string key;
  };
  std::vector<Frame> frames;
  std::istringstream stream{std::string(json_text)};
  std::optional<std::size_t> found;

  auto current_offset = [&]() -> std::size_t {
    const auto position = stream.rdbuf()->pubseekoff(0, std::ios::cur, std::ios::in);
    return position < 0 ? 0 : static_cast<std::size_t>(position);
  };
  auto path_with = [&](std::size_t depth_used) {
    std::string path;
    for (std::size_t i = 0; i < depth_used && i < frames.size(); ++i) {
      const Frame& frame = frames[i];
      path += "/" + (frame.is_array ? std::to_string(frame.index) : frame.key);
    }
    return path;
  };
  auto child_path = [&]() { return path_with(frames.size()); };
  auto note = [&](const std::string& path) {
    if (!found && path == pointer) found = current_offset();
  };

  json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::key:
        frames.back().key = parsed.get<std::string>();
        note(child_path());
        break;
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (frames.empty() || frames.back().is_array) note(child_path());
        frames.push_back({event == json::parse_event_t::array_start, 0, {}});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames.pop_back();
        if (!frames.empty() && frames.back().is_array) ++frames.back().index;
        break;
      case json::parse_event_t::value:
        if (!frames.empty() && frames.back().is_array) {
          note(child_path());
          ++frames.back().index;
        }
        break;
    }
    return true;
  };
  try {
    const json parsed_again = json::parse(stream, callback);
    static_cast<void>(parsed_again);
  } catch (const json::exception&) {
  }
  return found ? util::position_of(json_text, *found > 0 ? *found - 1 : 0) : util::TextPosition{};
}

/// Reads one task-result file, reporting errors at the offending value.
class TaskFileReader {
 public:
  TaskFileReader(std::string_view text, const std::string& source_name)
      : text_(text), source_name_(source_name) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    const util::TextPosition where = locate(text_, pointer);
    throw InputError(source_name_, (pointer.empty() ? std::string("document") : pointer) + ": " + message,
                     where.line, where.column);
  }

  void reject_unknown_keys(const json& object, const std::string& pointer,
                           std::initializer_list<const char*> known) const {
    for (const auto& item : object.items()) {
      const std::string& key = item.key();
      if (std::none_of(known.begin(), known.end(), [&key](const char* name) { return key == name; }))
        fail(pointer + "/" + key, "unknown key '" + key + "'");
    }
  }

  const json& require_object(const json& value, const std::string& pointer) const {
    if (!value.is_object()) fail(pointer, "expected an object");
    return value;
  }

  /// A count: a non-negative integer, at most 2^53 (beyond that a double,
  /// and anything computed from it, is no longer exact).
  std::uint64_t count(const json& object, const std::string& pointer, const char* key) const {
    if (!object.contains(key)) fail(pointer, std::string("missing '") + key + "'");
    const json& value = object[key];
    const std::string at = pointer + "/" + key;
    constexpr std::uint64_t largest = std::uint64_t{1} << 53;
    if (value.is_number_unsigned()) {
      const std::uint64_t number = value.get<std::uint64_t>();
      if (number > largest)
        fail(at, std::to_string(number) + " is out of range (a count must be at most 2^53 = " +
                     std::to_string(largest) + ")");
      return number;
    }
    if (value.is_number_float() && value.get<double>() >= 0 &&
        std::floor(value.get<double>()) == value.get<double>()) {
      if (value.get<double>() > static_cast<double>(largest))
        fail(at, "out of range (a count must be at most 2^53 = " + std::to_string(largest) + ")");
      return static_cast<std::uint64_t>(value.get<double>());
    }
    fail(at, "expected a non-negative integer");
  }

  std::optional<double> non_negative(const json& object, const std::string& pointer,
                                     const char* key) const {
    if (!object.contains(key) || object[key].is_null()) return std::nullopt;
    const json& value = object[key];
    if (!value.is_number()) fail(pointer + "/" + key, "expected a number");
    const double number = value.get<double>();
    if (number < 0) fail(pointer + "/" + key, "must be >= 0");
    return number;
  }

  std::vector<TaskResult> read() const {
    const json document = parse::parse_json_document(text_, source_name_);
    require_object(document, "");
    reject_unknown_keys(document, "", {"schema", "tasks"});
    if (!document.contains("schema") || document["schema"] != std::string(task_file_schema))
      fail(document.contains("schema") ? "/schema" : "",
           "expected \"schema\": \"" + std::string(task_file_schema) + "\"");
    if (!document.contains("tasks") || !document["tasks"].is_array())
      fail(document.contains("tasks") ? "/tasks" : "", "expected \"tasks\": an array");

    std::vector<TaskResult> tasks;
    std::map<std::string, std::size_t> seen;
    const json& entries = document["tasks"];
    for (std::size_t index = 0; index < entries.size(); ++index) {
      const std::string pointer = "/tasks/" + std::to_string(index);
      const json& entry = require_object(entries[index], pointer);
      reject_unknown_keys(entry, pointer, {"id", "objective", "judge", "cost"});

      TaskResult task;
      task.source = source_name_;
      if (!entry.contains("id") || !entry["id"].is_string() || entry["id"].get<std::string>().empty())
        fail(entry.contains("id") ? pointer + "/id" : pointer, "expected \"id\": a non-empty string");
      task.id = entry["id"].get<std::string>();
      if (!seen.emplace(task.id, index).second)
        fail(pointer + "/id", "task id '" + task.id + "' given twice");

      if (!entry.contains("objective")) fail(pointer, "missing 'objective'");
      const std::string objective_pointer = pointer + "/objective";
      const json& objective = require_object(entry["objective"], objective_pointer);
      reject_unknown_keys(objective, objective_pointer, {"passed", "total"});
      const std::uint64_t passed = count(objective, objective_pointer, "passed");
      const std::uint64_t total = count(objective, objective_pointer, "total");
      if (passed > total) fail(objective_pointer + "/passed", "passed is larger than total");
      task.checks.passed = passed;
      task.checks.total = total;

      if (entry.contains("judge") && !entry["judge"].is_null()) {
        const std::string judge_pointer = pointer + "/judge";
        const json& judge = require_object(entry["judge"], judge_pointer);
        reject_unknown_keys(judge, judge_pointer, {"score0to1", "rationale"});
        if (!judge.contains("score0to1") || !judge["score0to1"].is_number())
          fail(judge.contains("score0to1") ? judge_pointer + "/score0to1" : judge_pointer,
               "expected \"score0to1\": a number in [0, 1]");
        const double score = judge["score0to1"].get<double>();
        if (!(score >= 0.0 && score <= 1.0))
          fail(judge_pointer + "/score0to1", "expected a number in [0, 1]");
        task.judge_score = score;
        if (judge.contains("rationale")) {
          if (!judge["rationale"].is_string()) fail(judge_pointer + "/rationale", "expected a string");
          task.judge_rationale = judge["rationale"].get<std::string>();
        }
      }

      if (entry.contains("cost") && !entry["cost"].is_null()) {
        const std::string cost_pointer = pointer + "/cost";
        const json& cost = require_object(entry["cost"], cost_pointer);
        reject_unknown_keys(cost, cost_pointer, {"tokens", "cost_usd", "tool_calls", "steps", "wall_clock_ms"});
        task.cost.tokens = non_negative(cost, cost_pointer, "tokens");
        task.cost.cost_usd = non_negative(cost, cost_pointer, "cost_usd");
        task.cost.tool_calls = non_negative(cost, cost_pointer, "tool_calls");
        task.cost.steps = non_negative(cost, cost_pointer, "steps");
        task.cost.wall_clock_ms = non_negative(cost, cost_pointer, "wall_clock_ms");
      }
      tasks.push_back(std::move(task));
    }
    return tasks;
  }

 private:
  std::string_view text_;
  const std::string& source_name_;
};

bool is_hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name.front() == '.';
}

bool is_run_directory(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path / "manifest.json", error);
}

}  // namespace

std::vector<TaskResult> parse_task_file(std::string_view json_text, const std::string& source_name) {
  util::require_text(json_text, source_name);
  return TaskFileReader(json_text, source_name).read();
}

TaskResult load_run_task(const fs::path& run_dir, const LoadOptions& options) {
  const model::RunManifest manifest = pipeline::read_run_manifest(run_dir);
  const model::Run run = pipeline::load(run_dir, pipeline::load_config(run_dir));

  TaskResult task;
  task.source = run_dir.string();
  task.id = manifest.task;
  if (task.id.empty()) task.id = fs::path(run_dir).lexically_normal().filename().string();
  if (task.id.empty()) task.id = fs::absolute(run_dir).lexically_normal().parent_path().filename().string();
  task.checks = eval::check_outcome(run, options.eval);
  task.cost = run.metrics;
  task.integrity_problems = run.integrity_problems;

  if (options.judge && !options.judge->command.empty()) {
    std::string diff;
    std::error_code error;
    if (fs::is_regular_file(run_dir / "diff.patch", error)) diff = util::read_file(run_dir / "diff.patch");
    const eval::JudgeOutcome outcome = eval::run_judge(*options.judge, {task.id, diff});
    task.judge_score = outcome.score0to1;
    task.judge_rationale = outcome.rationale;
    task.judge_failure = outcome.failure;
  }
  return task;
}

TaskSet load_task_set(const fs::path& set, const LoadOptions& options) {
  TaskSet result;
  result.source = set.string();
  std::error_code error;
  if (fs::is_regular_file(set, error)) {
    result.tasks = parse_task_file(util::read_file(set), set.string());
  } else if (is_run_directory(set)) {
    result.tasks.push_back(load_run_task(set, options));
  } else if (fs::is_directory(set, error)) {
    std::vector<fs::path> entries;
    for (const fs::directory_entry& entry : fs::directory_iterator(set)) {
      if (!is_hidden(entry.path())) entries.push_back(entry.path());
    }
    std::sort(entries.begin(), entries.end());
    for (const fs::path& entry : entries) {
      if (fs::is_directory(entry, error)) {
        if (!is_run_directory(entry))
          throw InputError(entry.string(), "not a run directory (no manifest.json) in task set " + set.string());
        result.tasks.push_back(load_run_task(entry, options));
      } else if (entry.extension() == ".json") {
        for (TaskResult& task : parse_task_file(util::read_file(entry), entry.string()))
          result.tasks.push_back(std::move(task));
      }
    }
  } else {
    throw InputError(set.string(), "no such task set (expected a task-result JSON file or a directory)");
  }

  std::stable_sort(result.tasks.begin(), result.tasks.end(),
                   [](const TaskResult& left, const TaskResult& right) { return left.id < right.id; });
  for (std::size_t index = 1; index < result.tasks.size(); ++index) {
    if (result.tasks[index].id == result.tasks[index - 1].id)
      throw InputError(result.tasks[index].source,
                       "task id '" + result.tasks[index].id + "' is also given by " +
                           result.tasks[index - 1].source + " in task set " + set.string());
  }
  return result;
}

}  // namespace hydra::compare
