#include <hydra/loop/loop.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>

#include <hydra/capture/capture.hpp>
#include <hydra/util/process.hpp>
#include <hydra/error.hpp>
#include <hydra/loop/snapshot.hpp>
#include <hydra/report/report.hpp>
#include <hydra/pipeline/evaluate.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/score/confinement.hpp>
#include <hydra/score/score.hpp>
#include <hydra/util/files.hpp>

namespace hydra::loop {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kStateSchema = "hydra-score/loop-state/1";

using util::absolute_clean;

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  ::gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

/// A score as people see it: rounded to 6 decimals.
std::string fixed(const util::Exact& value) { return value.fixed(6); }

std::string first_line(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

/// The last non-empty line of `text`, at most 200 bytes.
std::string last_line(const std::string& text) {
  std::size_t end = text.size();
  while (end > 0) {
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' ')) --end;
    if (end == 0) break;
    const std::size_t start = text.rfind('\n', end - 1);
    const std::size_t begin = start == std::string::npos ? 0 : start + 1;
    std::string line = text.substr(begin, end - begin);
    if (!line.empty()) return line.substr(0, 200);
    end = begin;
  }
  return {};
}

/// An iteration in state.json: the scores as numbers for people and as
/// exact text ("3/20"), which a resumed loop compares with.
json to_json(const Iteration& iteration) {
  return {{"iteration", iteration.number},
          {"timestamp", iteration.timestamp},
          {"score", iteration.score.to_double()},
          {"best_score", iteration.best_score.to_double()},
          {"score_exact", iteration.score.text()},
          {"best_score_exact", iteration.best_score.text()},
          {"action", std::string(to_string(iteration.action))},
          {"changelog", iteration.changelog}};
}

/// The exact score `key`_exact of `item`, else (a state written before
/// scores were exact) the decimal of its number `key`.
util::Exact exact_score(const json& item, const std::string& key, const std::string& file) {
  if (const auto exact = item.find(key + "_exact"); exact != item.end()) {
    if (const auto value = util::Exact::parse(exact->get<std::string>())) return *value;
    throw InputError(file, "malformed " + key + "_exact in iterations: " + exact->get<std::string>());
  }
  const double number = item.at(key).get<double>();
  if (!std::isfinite(number)) throw InputError(file, "malformed " + key + " in iterations");
  return number;
}

Iteration iteration_from_json(const json& item, const std::string& file) {
  try {
    Iteration iteration;
    iteration.number = item.at("iteration").get<int>();
    iteration.timestamp = item.at("timestamp").get<std::string>();
    iteration.score = exact_score(item, "score", file);
    iteration.best_score = exact_score(item, "best_score", file);
    const auto action = action_from_string(item.at("action").get<std::string>());
    if (!action) throw InputError(file, "unknown action in iterations");
    iteration.action = *action;
    iteration.changelog = item.at("changelog").get<std::string>();
    return iteration;
  } catch (const json::exception& error) {
    throw InputError(file, std::string("malformed iteration: ") + error.what());
  }
}

json cases_json(const std::vector<EvalCase>& cases) {
  json out = json::array();
  for (const auto& eval_case : cases)
    out.push_back({{"name", eval_case.name}, {"passed", eval_case.passed}, {"total", eval_case.total}});
  return out;
}

std::vector<EvalCase> cases_from_json(const json& items) {
  std::vector<EvalCase> cases;
  for (const auto& item : items)
    cases.push_back({item.at("name").get<std::string>(), item.at("passed").get<int>(), item.at("total").get<int>()});
  return cases;
}

/// Everything needed to resume, kept in OUT/state.json.
struct State {
  std::vector<Iteration> iterations;
  std::optional<int> in_progress;  ///< an iteration that started and has not been recorded
  int best_iteration = 0;
  std::string best_tree;
  std::vector<EvalCase> best_cases;
  std::string baseline_run;  ///< iteration 0's run directory, relative to OUT

  json to_json_document(const std::string& name) const {
    json iterations_json = json::array();
    for (const auto& iteration : iterations) iterations_json.push_back(to_json(iteration));
    return {{"schema", kStateSchema},
            {"name", name},
            {"iterations", iterations_json},
            {"in_progress", in_progress ? json(*in_progress) : json(nullptr)},
            {"best", {{"iteration", best_iteration}, {"tree", best_tree}, {"cases", cases_json(best_cases)}}},
            {"baseline_run", baseline_run}};
  }
};

State read_state(const fs::path& file) {
  json document;
  try {
    document = json::parse(util::read_file(file));
  } catch (const json::parse_error& error) {
    throw InputError(file.string(), std::string("not valid JSON: ") + error.what());
  }
  if (!document.is_object() || document.value("schema", std::string()) != kStateSchema)
    throw InputError(file.string(), std::string("not a loop state (schema ") + kStateSchema + ")");
  State state;
  try {
    for (const auto& item : document.at("iterations")) state.iterations.push_back(iteration_from_json(item, file.string()));
    if (!document.at("in_progress").is_null()) state.in_progress = document.at("in_progress").get<int>();
    state.best_iteration = document.at("best").at("iteration").get<int>();
    state.best_tree = document.at("best").at("tree").get<std::string>();
    state.best_cases = cases_from_json(document.at("best").at("cases"));
    state.baseline_run = document.at("baseline_run").get<std::string>();
  } catch (const json::exception& error) {
    throw InputError(file.string(), std::string("malformed loop state: ") + error.what());
  }
  return state;
}

class LoopRunner {
 public:
  explicit LoopRunner(const LoopRequest& request)
      : request_(request),
        source_(absolute_clean(request.source)),
        out_(absolute_clean(request.out)),
        build_dir_(request.build_dir.empty() ? out_ / "build" : absolute_clean(request.build_dir)),
        name_(request.name.empty() ? out_.filename().string() : request.name),
        store_(scope(), name_) {}

  LoopOutcome run() {
    LoopOutcome outcome;
    fs::create_directories(out_);
    const fs::path state_file = out_ / "state.json";
    if (fs::exists(state_file)) {
      state_ = read_state(state_file);
      outcome.resumed = true;
      if (state_.in_progress) {
        outcome.rolled_back_iteration = state_.in_progress;
        if (!state_.iterations.empty()) {
          const std::size_t changed = store_.restore(state_.best_tree);
          say("rolled back interrupted iteration " + std::to_string(*state_.in_progress) + " (" +
              std::to_string(changed) + " paths restored from iteration " + std::to_string(state_.best_iteration) + ")");
        }
        state_.in_progress.reset();
        save();
      }
    }
    const LoopSettings& settings = request_.settings;
    // Without an improver nothing can follow iteration 0: say so before
    // spending a capture on it (a finished loop needs none to report).
    if (settings.improver.empty() && !stop_reason(state_.iterations, settings.max_iterations, settings.stuck_after))
      throw UsageError("no improver: give --improver, [loop] improver, or IMPROVER / HYDRA_SCORE_IMPROVER in CMake");
    if (state_.iterations.empty()) run_baseline();
    while (!stop_reason(state_.iterations, settings.max_iterations, settings.stuck_after)) {
      if (settings.improver.empty()) throw UsageError("no improver: give --improver or [loop] improver");
      run_iteration(state_.iterations.back().number + 1);
    }
    outcome.report = write_reports();
    return outcome;
  }

 private:
  SnapshotScope scope() const {
    SnapshotScope scope;
    scope.source = source_;
    scope.paths = request_.settings.paths;
    scope.excluded = {out_, build_dir_};
    for (const auto& path : request_.exclude) scope.excluded.push_back(absolute_clean(path));
    return scope;
  }

  void say(const std::string& message) const {
    if (request_.progress) std::cerr << "hydra loop: " << message << "\n";
  }

  void save() const { util::write_file_atomic(out_ / "state.json", state_.to_json_document(name_).dump(2) + "\n"); }

  fs::path iteration_dir(int number) const { return out_ / "iterations" / std::to_string(number); }

  /// Captures the tree into iterations/N/run and scores it.
  Evaluation capture_and_score(int number) {
    capture::CaptureRequest capture_request;
    static_cast<capture::BuildTreeOptions&>(capture_request) = request_;
    capture_request.source = source_;
    capture_request.out = iteration_dir(number) / "run";
    capture_request.build_dir = build_dir_;
    capture_request.agent = "iteration-" + std::to_string(number);
    capture_request.clang_tidy = request_.clang_tidy;
    capture_request.exclude.push_back(out_);
    capture_request.cache_root = out_ / ".cache";  // one lint and compiler cache for every iteration
    capture_request.progress = request_.progress;
    capture_request.lint = request_.settings.metric == Metric::composite;
    if (number == 0) capture_request.config = request_.config;
    else capture_request.baseline_run = out_ / state_.baseline_run;  // iteration 0's config, never the candidate's
    capture::capture(capture_request);

    // The one evaluation path, as `hydra-score score` takes it: this run as a
    // candidate against iteration 0 (iteration 0 against itself), so the
    // anti-gaming detectors and gates judge every change the improver keeps.
    pipeline::ScoreRequest judged_request;
    judged_request.baseline = number == 0 ? capture_request.out : out_ / state_.baseline_run;
    judged_request.candidates = {capture_request.out};
    const pipeline::Evaluation judged = pipeline::evaluate(judged_request);
    Evaluation evaluation =
        evaluate(judged.candidates.front(), request_.settings.metric, &judged.ranking.candidates.front());
    util::write_file_atomic(iteration_dir(number) / "score.json", pipeline::contract_text(judged.contract));
    json report = {{"iteration", number},
                   {"score", evaluation.score},
                   {"metric", std::string(to_string(request_.settings.metric))},
                   {"summary", evaluation.summary},
                   {"rejected", evaluation.rejected},
                   {"run", capture_request.out.string()},
                   {"failing_tests", evaluation.failing_tests},
                   {"cases", json::array()}};
    for (const auto& eval_case : evaluation.cases)
      report["cases"].push_back({{"name", eval_case.name}, {"passed", eval_case.passed},
                                 {"total", eval_case.total}, {"pass_rate", eval_case.pass_rate()}});
    util::write_file_atomic(iteration_dir(number) / "report.json", report.dump(2) + "\n");
    return evaluation;
  }

  void run_baseline() {
    state_.in_progress = 0;
    save();
    fs::create_directories(iteration_dir(0));
    const std::string tree = store_.capture_tree();
    const Evaluation evaluation = capture_and_score(0);
    store_.keep(tree, 0);
    state_.baseline_run = "iterations/0/run";
    state_.best_iteration = 0;
    state_.best_tree = tree;
    state_.best_cases = evaluation.cases;
    state_.iterations.push_back({0, utc_timestamp(), evaluation.score, evaluation.score, Action::baseline,
                                 "starting tree: " + evaluation.summary});
    state_.in_progress.reset();
    save();
    say("iteration 0: score " + fixed(evaluation.score) + " (" + evaluation.summary + ")");
    write_reports();
  }

  void run_iteration(int number) {
    const LoopSettings& settings = request_.settings;
    state_.in_progress = number;
    save();
    const fs::path directory = iteration_dir(number);
    fs::create_directories(directory);
    const fs::path changelog_file = directory / "changelog.txt";
    std::error_code ec;
    fs::remove(changelog_file, ec);

    const Iteration& last = state_.iterations.back();
    util::ProcessRequest improver;
    improver.argv = {"/bin/sh", "-c", settings.improver};
    improver.working_directory = source_;
    improver.environment = {{"HYDRA_LOOP_ITERATION", std::to_string(number)},
                            {"HYDRA_LOOP_LAST_SCORE", fixed(last.score)},
                            {"HYDRA_LOOP_BEST_SCORE", fixed(last.best_score)},
                            {"HYDRA_LOOP_LAST_REPORT", (iteration_dir(last.number) / "report.json").string()},
                            {"HYDRA_LOOP_CHANGELOG", changelog_file.string()},
                            {"HYDRA_LOOP_SOURCE", source_.string()}};
    improver.timeout = std::chrono::duration<double>(settings.improver_timeout_seconds);
    improver.output_file = directory / "improver.log";
    say("iteration " + std::to_string(number) + ": running the improver");
    const util::ProcessResult result = util::run_process(improver);

    std::string changelog;
    if (fs::is_regular_file(changelog_file)) changelog = first_line(util::read_file(changelog_file)).substr(0, 500);
    if (changelog.empty()) changelog = last_line(result.output);
    if (changelog.empty()) changelog = "(no changelog)";

    Iteration iteration;
    iteration.number = number;
    std::string reason;
    util::Exact score;
    std::string tree;
    std::vector<EvalCase> cases;
    if (!result.started) {
      reason = "improver could not start: " + result.error;
    } else if (result.timed_out) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", settings.improver_timeout_seconds);
      reason = std::string("improver timed out after ") + seconds + " s";
    } else if (result.exit_code != 0) {
      reason = "improver failed with exit code " + std::to_string(result.exit_code);
    } else {
      tree = store_.capture_tree();  // the exact state that is scored
      try {
        const Evaluation evaluation = capture_and_score(number);
        score = evaluation.score;
        cases = evaluation.cases;
        say("iteration " + std::to_string(number) + ": " + evaluation.summary);
        if (!evaluation.rejected.empty()) reason = "rejected: " + evaluation.rejected;
      } catch (const Error& error) {
        reason = std::string("capture failed: ") + error.what();
      }
    }

    if (reason.empty() && is_kept(score, last.best_score)) {
      store_.keep(tree, number);
      state_.best_iteration = number;
      state_.best_tree = tree;
      state_.best_cases = cases;
      iteration.action = Action::keep;
      iteration.best_score = score;
      iteration.changelog = changelog;
      const auto [score_text, best_text] = util::fixed_apart(score, last.best_score, 6);
      say("iteration " + std::to_string(number) + ": score " + score_text + " > best " + best_text + ": keep");
    } else {
      const std::size_t changed = store_.restore(state_.best_tree);
      iteration.action = Action::revert;
      iteration.best_score = last.best_score;
      iteration.changelog = reason.empty() ? changelog : reason + "; " + changelog;
      say("iteration " + std::to_string(number) + ": " +
          (reason.empty() ? "score " + fixed(score) + " <= best " + fixed(last.best_score) : reason) +
          ": revert (" + std::to_string(changed) + " paths restored)");
    }
    iteration.score = score;
    iteration.timestamp = utc_timestamp();
    state_.iterations.push_back(iteration);
    state_.in_progress.reset();
    save();
    write_reports();
  }

  /// The iterations whose code ran unconfined or with network (docs/reports.md,
  /// "Alerts"), one line per kind: "iterations 0, 1: the tree's code ran UNCONFINED (...)".
  std::vector<std::string> confinement_alerts() const {
    std::map<std::string, std::string> iterations_by_line;
    std::vector<std::string> order;
    for (const auto& iteration : state_.iterations) {
      const fs::path run = iteration_dir(iteration.number) / "run";
      if (!fs::is_regular_file(run / "manifest.json")) continue;
      std::string line;
      try {
        const model::RunManifest manifest = pipeline::read_run_manifest(run);
        line = score::sandbox_warning("the tree's", manifest.sandbox, pipeline::ran_sandboxed(manifest), manifest.network);
      } catch (const Error&) {
        continue;  // its evaluation reports a run that cannot be read
      }
      if (line.empty()) continue;
      auto& numbers = iterations_by_line[line];
      if (numbers.empty()) order.push_back(line);
      numbers += (numbers.empty() ? "" : ", ") + std::to_string(iteration.number);
    }
    std::vector<std::string> lines;
    for (const auto& line : order) {
      const std::string& numbers = iterations_by_line[line];
      lines.push_back((numbers.find(',') == std::string::npos ? "iteration " : "iterations ") + numbers + ": " + line);
    }
    return lines;
  }

  json write_reports() const {
    const LoopSettings& settings = request_.settings;
    const auto reason = stop_reason(state_.iterations, settings.max_iterations, settings.stuck_after);
    json report = loop_report(reason.value_or("running"), state_.iterations, state_.best_cases,
                              to_string(settings.metric), state_.best_iteration);
    if (auto lines = confinement_alerts(); !lines.empty()) report["alerts"] = lines;
    util::write_file_atomic(out_ / "results.tsv", results_tsv(state_.iterations));
    util::write_file_atomic(out_ / "loop.json", report.dump(2) + "\n");
    util::write_file_atomic(out_ / "loop.md", report::render_loop_markdown(report));
    util::write_file_atomic(out_ / "loop.html", report::render_loop_html(report));
    return report;
  }

  const LoopRequest& request_;
  fs::path source_;
  fs::path out_;
  fs::path build_dir_;
  std::string name_;
  SnapshotStore store_;
  State state_;
};

}  // namespace

Evaluation evaluate(const model::Run& run, Metric metric, const score::Candidate* judged) {
  Evaluation evaluation;
  if (run.tests) {
    evaluation.cases = eval_cases(*run.tests);
    for (const auto& test : *run.tests)
      if (test.status != model::TestStatus::passed && test.status != model::TestStatus::disabled)
        evaluation.failing_tests.push_back(test.id());
  }
  const bool build_passed = !run.build.known || run.build.passed;
  if (!build_passed) {
    evaluation.cases.clear();
    evaluation.summary = "build failed" + (run.build.reason.empty() ? std::string() : " (" + run.build.reason + ")");
  } else if (!run.tests) {
    evaluation.summary = "no test results";
  }
  if (judged != nullptr) {
    for (const auto& gate : judged->gates)
      if (!gate.passed && (gate.name == "anti_gaming" || gate.name == "integrity"))
        evaluation.rejected += (evaluation.rejected.empty() ? "" : "; ") + gate.name + ": " + gate.detail;
  }
  if (metric == Metric::composite) {
    if (judged == nullptr) throw Error("the composite metric needs the run scored against iteration 0");
    evaluation.score = judged->total / 100;
  } else {
    evaluation.score = build_passed ? mean_pass_rate(evaluation.cases) : util::Exact(0);
  }
  if (evaluation.summary.empty()) {
    int passed = 0;
    int total = 0;
    for (const auto& eval_case : evaluation.cases) {
      passed += eval_case.passed;
      total += eval_case.total;
    }
    evaluation.summary = std::to_string(passed) + "/" + std::to_string(total) + " expectations passed in " +
                         std::to_string(evaluation.cases.size()) + " eval cases, score " + fixed(evaluation.score);
  }
  return evaluation;
}

LoopOutcome run_loop(const LoopRequest& request) {
  if (request.settings.max_iterations < 1 || request.settings.stuck_after < 1)
    throw UsageError("max_iterations and stuck_after must be at least 1");
  if (!(request.settings.improver_timeout_seconds > 0.0))
    throw UsageError("the improver timeout must be a positive number of seconds");
  LoopRunner runner(request);
  return runner.run();
}

}  // namespace hydra::loop
