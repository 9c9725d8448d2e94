// Verdicts streamed to the launcher (result_stream.hpp).
#include <hydra/capture/runners/result_stream.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include <pugixml.hpp>

namespace hydra::capture {

namespace {

/// The value of `key` in a stream line's "&"-separated fields, URL-decoded.
std::optional<std::string> field(const std::string& line, const std::string& key) {
  std::size_t at = 0;
  while (at <= line.size()) {
    const std::size_t end = std::min(line.find('&', at), line.size());
    const std::string part = line.substr(at, end - at);
    if (part.rfind(key + "=", 0) == 0) {
      std::string value;
      const std::string raw = part.substr(key.size() + 1);
      for (std::size_t index = 0; index < raw.size(); ++index) {
        if (raw[index] == '%' && index + 2 < raw.size()) {
          value += static_cast<char>(std::strtol(raw.substr(index + 1, 2).c_str(), nullptr, 16));
          index += 2;
        } else {
          value += raw[index];
        }
      }
      return value;
    }
    at = end + 1;
  }
  return std::nullopt;
}

/// Report case "Suite.Name" -> "failed", "skipped" or "passed".
std::map<std::string, std::string> report_cases(const pugi::xml_document& document) {
  std::map<std::string, std::string> cases;
  for (const auto& found : document.select_nodes("//testcase")) {
    const pugi::xml_node node = found.node();
    const std::string key = std::string(node.attribute("classname").value()) + "." + node.attribute("name").value();
    std::string verdict = "passed";
    if (node.child("failure") || node.child("error"))
      verdict = "failed";
    else if (node.child("skipped") || std::string(node.attribute("result").value()) == "skipped" ||
             std::string(node.attribute("status").value()) == "notrun")
      verdict = "skipped";
    auto [it, inserted] = cases.emplace(key, verdict);
    if (!inserted && verdict == "failed") it->second = verdict;
  }
  return cases;
}

}  // namespace

StreamedResults parse_result_stream(const std::string& text) {
  StreamedResults streamed;
  std::string suite, test;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto event = field(line, "event");
    if (!event) continue;
    if (*event == "TestCaseStart") {
      suite = field(line, "name").value_or("");
    } else if (*event == "TestStart") {
      test = field(line, "name").value_or("");
    } else if (*event == "TestEnd") {
      streamed.cases.emplace_back(suite + "." + test, field(line, "passed").value_or("0") == "1");
    } else if (*event == "TestProgramEnd") {
      streamed.program_passed = field(line, "passed").value_or("0") == "1";
    }
  }
  return streamed;
}

std::vector<std::string> stream_disagreements(const StreamedResults& streamed, int connections, int exit_code,
                                              const std::optional<std::string>& report_xml) {
  std::vector<std::string> why;
  if (!report_xml && (connections == 0 || !streamed.program_passed))
    return why;  // no report: the capture fails the program and says so
  if (connections == 0 || !streamed.program_passed) {
    // GoogleTest writes its report and its stream from the same place (the
    // end of the test program): a report without the stream was not
    // written by the run HydraScore watched.
    why.push_back(connections == 0 ? "the program wrote its report but streamed no results to HydraScore"
                                   : "the program wrote its report but its result stream ended early");
    return why;
  }
  if (!*streamed.program_passed && exit_code == 0)
    why.push_back("GoogleTest streamed failing cases while the program ran, yet the program exited 0");
  if (report_xml) {
    pugi::xml_document document;
    if (!document.load_string(report_xml->c_str())) return why;
    const auto cases = report_cases(document);
    for (const auto& [name, passed] : streamed.cases) {
      if (passed) continue;
      const auto found = cases.find(name);
      if (found == cases.end())
        why.push_back("case " + name + " failed while the program ran, and its report does not list it");
      else if (found->second == "passed")
        why.push_back("case " + name + " failed while the program ran, and its report says it passed");
    }
  }
  return why;
}

StreamedResults report_verdicts(const std::string& report_xml) {
  StreamedResults verdicts;
  pugi::xml_document document;
  if (!document.load_string(report_xml.c_str())) return verdicts;
  for (const auto& [name, verdict] : report_cases(document)) verdicts.cases.emplace_back(name, verdict != "failed");
  return verdicts;
}

std::optional<std::string> mark_tampered_report(const std::string& report_xml, const StreamedResults& streamed,
                                                const std::string& reason) {
  pugi::xml_document document;
  if (!document.load_string(report_xml.c_str())) return std::nullopt;
  std::map<std::string, bool> failed;
  for (const auto& [name, passed] : streamed.cases)
    if (!passed) failed[name] = true;
  const bool every = failed.empty();
  for (const auto& found : document.select_nodes("//testcase")) {
    pugi::xml_node node = found.node();
    const std::string key = std::string(node.attribute("classname").value()) + "." + node.attribute("name").value();
    if (!every && !failed.count(key)) continue;
    // First, so that the case's message names the tampering.
    pugi::xml_node failure = node.prepend_child("failure");
    failure.append_attribute("message") = ("hydra-score: tampering: " + reason).c_str();
    failure.append_attribute("type") = "tampering";
    failure.append_child(pugi::node_pcdata).set_value(("hydra-score: tampering: " + reason).c_str());
  }
  std::ostringstream out;
  document.save(out, "  ");
  return out.str();
}

}  // namespace hydra::capture
