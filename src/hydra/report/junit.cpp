// JUnit XML of the merge gates, written with pugixml.
#include <hydra/report/report.hpp>

#include <hydra/report/contract.hpp>
#include <hydra/report/flaky.hpp>
#include <hydra/report/text.hpp>

#include <pugixml.hpp>

#include <sstream>

namespace hydra::report {

namespace {

/// `text` without the characters XML 1.0 forbids (control characters other
/// than tab and line breaks), which pugixml would write as they are.
std::string xml_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') ? '?' : c;
  }
  return out;
}

}  // namespace

std::string render_gates_junit(const nlohmann::json& contract) {
  const ContractView view = read_contract(contract);
  pugi::xml_document document;
  auto declaration = document.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";

  std::size_t all_tests = 0;
  std::size_t all_failures = 0;
  for (const auto& candidate : view.candidates) {
    // Without a `gates` list (a partial contract) the failures are all there is.
    all_tests += candidate.gates.empty() ? candidate.gate_failures.size() : candidate.gates.size();
    all_failures += candidate.gate_failures.size();
  }
  auto suites = document.append_child("testsuites");
  suites.append_attribute("name") = "hydra-score gates";
  suites.append_attribute("tests") = static_cast<unsigned long long>(all_tests);
  suites.append_attribute("failures") = static_cast<unsigned long long>(all_failures);
  suites.append_attribute("errors") = 0;

  std::size_t position = 0;
  for (const auto& candidate : view.candidates) {
    const nlohmann::json& ranking = array_at(contract, "rankings").at(position++);
    const auto& gates = candidate.gates.empty() ? candidate.gate_failures : candidate.gates;
    std::size_t failures = 0;
    for (const auto& gate : gates) failures += gate.passed ? 0 : 1;
    auto suite = suites.append_child("testsuite");
    suite.append_attribute("name") = xml_safe(candidate.agent).c_str();
    suite.append_attribute("tests") = static_cast<unsigned long long>(gates.size());
    suite.append_attribute("failures") = static_cast<unsigned long long>(failures);
    suite.append_attribute("errors") = 0;
    suite.append_attribute("skipped") = 0;
    suite.append_attribute("time") = "0";

    auto properties = suite.append_child("properties");
    const auto add_property = [&properties](const char* name, const std::string& value) {
      auto property = properties.append_child("property");
      property.append_attribute("name") = name;
      property.append_attribute("value") = xml_safe(value).c_str();
    };
    add_property("rank", std::to_string(candidate.rank));
    add_property("total", format_optional(candidate.total));
    add_property("mergeable", candidate.mergeable ? "true" : "false");
    for (const auto& line : view.alerts) add_property("alert", line);
    for (const auto& line : view.nothing_measured) add_property("nothing_measured", line);
    // Tests counted as passed on both sides because they were flaky.
    for (const auto& line : flaky_test_lines(ranking)) add_property("flaky_test", line);

    const std::string classname = "hydra.gates." + xml_safe(candidate.agent);
    for (const auto& gate : gates) {
      auto testcase = suite.append_child("testcase");
      testcase.append_attribute("classname") = classname.c_str();
      testcase.append_attribute("name") = xml_safe(gate.gate).c_str();
      testcase.append_attribute("time") = "0";
      if (!gate.passed) {
        auto failure = testcase.append_child("failure");
        failure.append_attribute("message") = xml_safe(gate.detail.empty() ? gate.gate : gate.detail).c_str();
        failure.append_attribute("type") = "gate";
        failure.text().set(xml_safe(gate.gate + ": " + gate.detail).c_str());
      } else if (!gate.detail.empty()) {
        testcase.append_child("system-out").text().set(xml_safe(gate.detail).c_str());
      }
    }
  }

  std::ostringstream out;
  document.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  return out.str();
}

}  // namespace hydra::report
