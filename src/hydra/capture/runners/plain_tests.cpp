// Tests run plain, outside ctest: which tests, and ctest's verdict rules
// (plain_tests.hpp).
#include <hydra/capture/runners/plain_tests.hpp>

#include <set>
#include <sstream>

#include <hydra/error.hpp>
#include <hydra/util/regex.hpp>

namespace hydra::capture {
using nlohmann::json;

namespace {

/// The properties the runner takes: those it models (working directory,
/// environment, the verdict's rules, the timeout) and those that change
/// nothing of how one test runs or is judged (cost, labels, attachments).
/// What orders tests or keeps them apart (DEPENDS, RUN_SERIAL,
/// RESOURCE_LOCK, fixtures) is ctest's: such a test runs plain through it.
const std::set<std::string> kTakenProperties = {
    "LABELS",        "COST",           "PROCESSORS",
    "ATTACHED_FILES", "MEASUREMENT",   "ATTACHED_FILES_ON_FAIL", "REQUIRED_FILES",
    "TIMEOUT_SIGNAL_NAME", "TIMEOUT_SIGNAL_GRACE_PERIOD", "WORKING_DIRECTORY", "ENVIRONMENT",
    "WILL_FAIL",     "PASS_REGULAR_EXPRESSION", "FAIL_REGULAR_EXPRESSION", "SKIP_REGULAR_EXPRESSION",
    "SKIP_RETURN_CODE", "TIMEOUT"};

bool strings(const json& value, std::vector<std::string>& out) {
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
    return true;
  }
  if (!value.is_array()) return false;
  for (const auto& word : value) {
    if (!word.is_string()) return false;
    out.push_back(word.get<std::string>());
  }
  return true;
}

bool compiles(const std::vector<std::string>& patterns) {
  for (const auto& pattern : patterns)
    if (!util::Regex(pattern).ok()) return false;
  return true;
}

/// `test` (one entry of the listing) as the runner runs it; nullopt when
/// the runner cannot.
std::optional<PlainTest> plain_test(const json& test) {
  PlainTest plain;
  plain.name = test.value("name", std::string());
  if (!test.contains("command") || !strings(test["command"], plain.command) || plain.command.empty()) return std::nullopt;
  if (!test.contains("properties")) return plain;
  if (!test["properties"].is_array()) return std::nullopt;
  for (const auto& property : test["properties"]) {
    if (!property.is_object() || !property.contains("name") || !property.contains("value")) return std::nullopt;
    const std::string name = property["name"].is_string() ? property["name"].get<std::string>() : std::string();
    const json& value = property["value"];
    if (!kTakenProperties.count(name)) {
      if ((name == "DISABLED" || name == "RUN_SERIAL") && value == false) continue;
      return std::nullopt;
    }
    bool ok = true;
    if (name == "WORKING_DIRECTORY") {
      ok = value.is_string();
      if (ok) plain.working_directory = value.get<std::string>();
    } else if (name == "ENVIRONMENT") {
      ok = strings(value, plain.environment);
    } else if (name == "WILL_FAIL") {
      ok = value.is_boolean();
      if (ok) plain.will_fail = value.get<bool>();
    } else if (name == "PASS_REGULAR_EXPRESSION") {
      ok = strings(value, plain.pass_regex) && compiles(plain.pass_regex);
    } else if (name == "FAIL_REGULAR_EXPRESSION") {
      ok = strings(value, plain.fail_regex) && compiles(plain.fail_regex);
    } else if (name == "SKIP_REGULAR_EXPRESSION") {
      ok = strings(value, plain.skip_regex) && compiles(plain.skip_regex);
    } else if (name == "SKIP_RETURN_CODE") {
      ok = value.is_number_integer();
      if (ok) plain.skip_return_code = value.get<int>();
    } else if (name == "TIMEOUT") {
      ok = value.is_number() && value.get<double>() >= 0;
      if (ok) plain.timeout = value.get<double>();
    }
    if (!ok) return std::nullopt;
  }
  return plain;
}

bool any_matches(const std::vector<std::string>& patterns, const std::string& output) {
  for (const auto& pattern : patterns)
    if (util::Regex(pattern).search(output)) return true;
  return false;
}

}  // namespace

PlainSelection select_plain_tests(const json& listing, const std::vector<std::string>& names) {
  PlainSelection selection;
  std::set<std::string> wanted(names.begin(), names.end());
  if (listing.is_object() && listing.contains("tests") && listing["tests"].is_array())
    for (const auto& test : listing["tests"]) {
      if (!test.is_object() || !test.contains("name") || !test["name"].is_string()) continue;
      const std::string name = test["name"].get<std::string>();
      if (!wanted.erase(name)) continue;
      if (auto plain = plain_test(test)) selection.direct.push_back(std::move(*plain));
      else selection.ctest.push_back(name);
    }
  // Named but not listed: ctest says what it makes of them.
  selection.ctest.insert(selection.ctest.end(), wanted.begin(), wanted.end());
  return selection;
}

std::string plain_verdict(const PlainTest& test, int exit_code, bool signalled, bool timed_out,
                          const std::string& output) {
  // ctest's order: a timeout or a crash fails whatever the properties say;
  // a skip (its pattern or return code) is neither; a missing required
  // pattern or a present failure pattern fails; else the exit status
  // decides, unless a required pattern is given. WILL_FAIL inverts the last
  // two.
  if (timed_out) return "timed out";
  if (signalled) return "failed";
  if (any_matches(test.skip_regex, output) || (test.skip_return_code && *test.skip_return_code == exit_code))
    return "skipped";
  bool forced_failure = false;
  if (!test.pass_regex.empty() && !any_matches(test.pass_regex, output)) forced_failure = true;
  if (any_matches(test.fail_regex, output)) forced_failure = true;
  bool success = !forced_failure && (exit_code == 0 || !test.pass_regex.empty());
  if (test.will_fail) success = !success;
  return success ? "passed" : "failed";
}

json plain_plan(const std::vector<PlainTest>& tests, unsigned jobs, double timeout, unsigned pid_floor) {
  json list = json::array();
  for (const auto& test : tests) {
    json entry = {{"name", test.name},
                  {"command", test.command},
                  {"working_directory", test.working_directory},
                  {"environment", test.environment},
                  {"will_fail", test.will_fail},
                  {"pass_regex", test.pass_regex},
                  {"fail_regex", test.fail_regex},
                  {"skip_regex", test.skip_regex},
                  {"timeout", test.timeout}};
    if (test.skip_return_code) entry["skip_return_code"] = *test.skip_return_code;
    list.push_back(std::move(entry));
  }
  return {{"tests", std::move(list)}, {"jobs", jobs}, {"timeout", timeout}, {"pid_floor", pid_floor}};
}

PlainPlan read_plain_plan(const json& plan, const std::string& file) {
  PlainPlan read;
  try {
    read.jobs = std::max(1u, plan.at("jobs").get<unsigned>());
    read.timeout = plan.at("timeout").get<double>();
    read.pid_floor = plan.value("pid_floor", 0u);
    for (const auto& entry : plan.at("tests")) {
      PlainTest test;
      test.name = entry.at("name").get<std::string>();
      test.command = entry.at("command").get<std::vector<std::string>>();
      test.working_directory = entry.at("working_directory").get<std::string>();
      test.environment = entry.at("environment").get<std::vector<std::string>>();
      test.will_fail = entry.at("will_fail").get<bool>();
      test.pass_regex = entry.at("pass_regex").get<std::vector<std::string>>();
      test.fail_regex = entry.at("fail_regex").get<std::vector<std::string>>();
      test.skip_regex = entry.at("skip_regex").get<std::vector<std::string>>();
      test.timeout = entry.at("timeout").get<double>();
      if (entry.contains("skip_return_code")) test.skip_return_code = entry["skip_return_code"].get<int>();
      if (test.command.empty()) throw InputError(file, "a test of the plan has no command: " + test.name);
      read.tests.push_back(std::move(test));
    }
  } catch (const json::exception& error) {
    throw InputError(file, std::string("not a plain runner's plan: ") + error.what());
  }
  return read;
}

std::string plain_result_line(const std::string& test, const std::string& result, int exit_code, double seconds) {
  return json({{"test", test}, {"result", result}, {"exit_code", exit_code}, {"seconds", seconds}}).dump();
}

std::map<std::string, std::string> plain_results(const std::string& log) {
  std::map<std::string, std::string> results;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    const json entry = json::parse(line, nullptr, false);
    if (!entry.is_object() || !entry.contains("test") || !entry["test"].is_string() || !entry.contains("result") ||
        !entry["result"].is_string())
      continue;
    results[entry["test"].get<std::string>()] = entry["result"].get<std::string>();
  }
  return results;
}

}  // namespace hydra::capture
