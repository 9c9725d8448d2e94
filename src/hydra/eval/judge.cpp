#include <hydra/eval/judge.hpp>

#include <cmath>
#include <exception>
#include <sstream>

#include <nlohmann/json.hpp>

#include <hydra/util/process.hpp>
#include <hydra/error.hpp>
#include <hydra/template_paths.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/text.hpp>

namespace hydra::eval {
namespace {

using nlohmann::json;

std::optional<json> parse_json(std::string_view text) {
  json parsed = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return std::nullopt;
  return parsed;
}

/// The JSON object a judge's text answer holds: the whole text, the first
/// ```json (or ```) fence, or the span from the first '{' to the last '}'.
std::optional<json> object_in_text(std::string_view text) {
  if (auto whole = parse_json(text); whole && whole->is_object()) return whole;
  for (std::string_view opening : {"```json", "```"}) {
    std::size_t fence = text.find(opening);
    if (fence == std::string_view::npos) continue;
    std::size_t body = fence + opening.size();
    std::size_t closing = text.find("```", body);
    if (closing == std::string_view::npos) continue;
    if (auto fenced = parse_json(text.substr(body, closing - body)); fenced && fenced->is_object())
      return fenced;
  }
  std::size_t first = text.find('{');
  std::size_t last = text.rfind('}');
  if (first != std::string_view::npos && last != std::string_view::npos && first < last) {
    if (auto span = parse_json(text.substr(first, last - first + 1)); span && span->is_object())
      return span;
  }
  return std::nullopt;
}

JudgeOutcome no_score(std::string failure) {
  JudgeOutcome outcome;
  outcome.failure = std::move(failure);
  return outcome;
}

/// The last non-empty line of `text`, for short failure reasons.
std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return {};
  std::size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, std::min<std::size_t>(end - start + 1, 300));
}

std::string format_seconds(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

}  // namespace

std::string render_template(std::string_view template_text,
                            const std::map<std::string, std::string>& values,
                            const std::string& source_name) {
  std::string rendered;
  std::size_t position = 0;
  while (true) {
    std::size_t opening = template_text.find("{{", position);
    if (opening == std::string_view::npos) break;
    rendered.append(template_text.substr(position, opening - position));
    std::size_t closing = template_text.find("}}", opening + 2);
    const util::TextPosition where = util::position_of(template_text, opening);
    if (closing == std::string_view::npos)
      throw InputError(source_name, "unclosed '{{'", where.line, where.column);
    const std::string_view name = util::trim(template_text.substr(opening + 2, closing - opening - 2), " \t");
    auto value = values.find(std::string(name));
    if (value == values.end())
      throw InputError(source_name, "unknown placeholder '{{" + std::string(name) + "}}'",
                       where.line, where.column);
    rendered.append(value->second);
    position = closing + 2;
  }
  rendered.append(template_text.substr(position));
  return rendered;
}

JudgeOutcome parse_judge_output(std::string_view output) {
  std::optional<json> answer = object_in_text(output);
  if (!answer) return no_score("malformed judge output: no JSON object found");

  // claude -p --output-format json: {"type":"result","result":"<text>",...}
  if (!answer->contains("score0to1") && answer->contains("result")) {
    const json& envelope = *answer;
    const auto is_error = envelope.find("is_error");  // read only when a boolean
    if (is_error != envelope.end() && is_error->is_boolean() && is_error->get<bool>())
      return no_score("judge reported an error: " +
                      (envelope["result"].is_string() ? envelope["result"].get<std::string>()
                                                      : envelope["result"].dump()));
    if (!envelope["result"].is_string())
      return no_score("malformed judge output: 'result' is not a string");
    const std::string text = envelope["result"].get<std::string>();
    answer = object_in_text(text);
    if (!answer) return no_score("malformed judge output: no JSON object in 'result'");
  }

  if (!answer->contains("score0to1")) return no_score("malformed judge output: no 'score0to1'");
  const json& score = (*answer)["score0to1"];
  if (!score.is_number()) return no_score("malformed judge output: 'score0to1' is not a number");
  const double value = score.get<double>();
  if (!std::isfinite(value) || value < 0.0 || value > 1.0)
    return no_score("judge score out of range [0, 1]: " + score.dump());

  JudgeOutcome outcome;
  outcome.score0to1 = value;
  if (answer->contains("rationale")) {
    const json& rationale = (*answer)["rationale"];
    outcome.rationale = rationale.is_string() ? rationale.get<std::string>() : rationale.dump();
  }
  return outcome;
}

std::filesystem::path default_prompt_template() {
  const std::filesystem::path source_copy =
      std::filesystem::path(HYDRA_SCORE_TEMPLATES_DIR) / "judge-prompt.md";
  std::error_code error;
  if (std::filesystem::is_regular_file(source_copy, error)) return source_copy;
  return std::filesystem::path(HYDRA_SCORE_INSTALLED_TEMPLATES_DIR) / "judge-prompt.md";
}

JudgeOutcome run_judge(const JudgeSettings& settings, const JudgeSubject& subject) {
  if (settings.command.empty()) return no_score("no judge configured");
  try {
    const std::filesystem::path template_file =
        settings.prompt_template.empty() ? default_prompt_template() : settings.prompt_template;
    const std::string prompt = render_template(
        util::read_file(template_file),
        {{"task_id", subject.task_id}, {"rubric", settings.rubric}, {"diff", subject.diff}},
        template_file.string());

    // stderr goes to its own file so only stdout is parsed as the answer.
    util::TempDir scratch("hydra-judge");
    const std::filesystem::path stderr_file = scratch.path() / "stderr.log";
    util::ProcessRequest request;
    request.argv = {"/bin/sh", "-c", "exec 2>\"$HYDRA_JUDGE_STDERR\"\n" + settings.command};
    request.environment["HYDRA_JUDGE_STDERR"] = stderr_file.string();
    request.stdin_text = prompt;
    request.timeout = std::chrono::duration<double>(settings.timeout_seconds);
    const util::ProcessResult result = util::run_process(request);

    if (!result.started) return no_score("judge could not start: " + result.error);
    if (result.timed_out)
      return no_score("judge timed out after " + format_seconds(settings.timeout_seconds) + " s");
    if (result.exit_code != 0) {
      std::string reason = result.exit_code == 127 ? "judge command not found (exit code 127)"
                                                   : "judge exit code " + std::to_string(result.exit_code);
      std::string detail;
      try {
        detail = last_line(util::read_file(stderr_file));
      } catch (const Error&) {
      }
      if (!detail.empty()) reason += ": " + detail;
      return no_score(reason);
    }
    return parse_judge_output(result.output);
  } catch (const std::exception& error) {
    return no_score(std::string("judge failed: ") + error.what());
  }
}

}  // namespace hydra::eval
