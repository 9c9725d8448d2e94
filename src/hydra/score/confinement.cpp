// Confinement lines (confinement.hpp).
#include <hydra/score/confinement.hpp>

#include <hydra/guard/configure_differential.hpp>

namespace hydra::score {
namespace {

/// The description without its "none: " prefix.
std::string why(const std::string& sandbox) {
  return sandbox.rfind("none: ", 0) == 0 ? sandbox.substr(6) : sandbox;
}

}  // namespace

std::string sandbox_warning(const std::string& whose, const std::string& sandbox, const std::optional<bool>& sandboxed,
                            bool network) {
  if (sandboxed && !*sandboxed)
    return whose + " code ran UNCONFINED (" + why(sandbox) +
           "): it could read the user's files and secrets, reach the network and write outside its trees";
  if (sandboxed && network) return whose + " code ran with network access ([sandbox] network = true)";
  return {};
}

std::vector<std::string> sandbox_warnings(const model::Run& baseline, const Ranking& ranking) {
  std::vector<std::string> lines;
  const auto add = [&](std::string line) {
    if (!line.empty()) lines.push_back(std::move(line));
  };
  add(sandbox_warning("the baseline's (" + baseline.agent + ")", baseline.sandbox, baseline.sandboxed, baseline.network));
  for (const auto& candidate : ranking.candidates)
    add(sandbox_warning("candidate " + candidate.agent + "'s", candidate.sandbox, candidate.sandboxed, candidate.network));
  return lines;
}

std::string configure_differential_warning(const model::Run& baseline) {
  const auto failed = guard::failed_plain_configure(baseline.records.configure_differential);
  if (!failed) return {};
  // "the configure failed outside HydraScore's capture (exit 1): <log>": the part in parentheses.
  std::string said = failed->substr(0, failed->find("): "));
  if (const auto open = said.rfind('('); open != std::string::npos) said = said.substr(open + 1);
  return "the baseline's (" + baseline.agent + ") plain configure failed (" + said +
         "): the configure differential cannot judge a candidate whose plain configure fails too";
}

}  // namespace hydra::score
