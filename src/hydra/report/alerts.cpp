// Alerts in every report (alerts.hpp).
#include <hydra/report/alerts.hpp>

#include <hydra/report/text.hpp>

namespace hydra::report {

std::string alerts_markdown(const std::vector<std::string>& alerts) {
  if (alerts.empty()) return {};
  std::string out = "> [!WARNING]\n> **Candidate code was not confined**\n>\n";
  for (const auto& line : alerts) out += "> - " + escape_markdown(line) + "\n";
  return out + "\n";
}

std::string alerts_html(const std::vector<std::string>& alerts) {
  if (alerts.empty()) return {};
  std::string html = "<section class=\"alert\" id=\"alerts\">\n<h2>Candidate code was not confined</h2>\n<ul>\n";
  for (const auto& line : alerts) html += "<li>" + escape_html(line) + "</li>\n";
  return html + "</ul>\n</section>\n";
}

nlohmann::json alerts_sarif_notifications(const std::vector<std::string>& alerts) {
  nlohmann::json notifications = nlohmann::json::array();
  for (const auto& line : alerts)
    notifications.push_back({{"level", "error"}, {"message", {{"text", line}}}});
  return notifications;
}

}  // namespace hydra::report
