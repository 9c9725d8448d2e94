// The judge: a configured command (e.g. `claude -p --output-format json`) fed
// a prompt on stdin, answering with a score in [0, 1] and a rationale.
// Best-effort: any failure gives no score and a recorded reason, never an
// exception out of a run. Reference: docs/compare.md.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <hydra/config/settings.hpp>

namespace hydra::eval {

/// [judge] settings (read by config::parse).
using JudgeSettings = config::JudgeSettings;

/// What the judge said, or why it said nothing.
struct JudgeOutcome {
  std::optional<double> score0to1;  ///< nullopt: no score (see `failure`)
  std::string rationale;
  std::string failure;  ///< why there is no score; empty when there is one
};

/// What one judgement is about.
struct JudgeSubject {
  std::string task_id;
  std::string diff;  ///< the change as `git diff` prints it
};

/// Replaces each `{{name}}` in `template_text` with `values[name]`
/// (whitespace inside the braces is ignored). Throws hydra::InputError naming
/// `source_name` and the placeholder's line:column for a name not in `values`
/// or an unclosed `{{`.
std::string render_template(std::string_view template_text,
                            const std::map<std::string, std::string>& values,
                            const std::string& source_name);

/// Reads the judge's answer from its stdout: a JSON object with `score0to1`
/// (a finite number in [0, 1]) and `rationale` (string, optional), either bare
/// or as text inside the `result` string of claude's `--output-format json`
/// output; the text may hold the object inside a ```json fence or amid prose.
/// Malformed output gives no score and the reason; never throws.
JudgeOutcome parse_judge_output(std::string_view output);

/// The prompt template file used when `settings.prompt_template` is empty:
/// templates/judge-prompt.md from the source tree, else the installed copy.
std::filesystem::path default_prompt_template();

/// Renders the prompt (placeholders `task_id`, `rubric`, `diff`), runs
/// `settings.command` through /bin/sh with the prompt on stdin and the
/// timeout, and parses its stdout. A missing command, timeout, non-zero
/// exit, unreadable template or malformed answer gives no score and the
/// reason. Never throws.
JudgeOutcome run_judge(const JudgeSettings& settings, const JudgeSubject& subject);

}  // namespace hydra::eval
