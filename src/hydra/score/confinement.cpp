// Confinement lines (confinement.hpp).
#include <hydra/score/confinement.hpp>

namespace hydra::score {
namespace {

/// The description without its "none: " prefix.
std::string why(const std::string& sandbox) {
  return sandbox.rfind("none: ", 0) == 0 ? sandbox.substr(6) : sandbox;
}

void add_lines(std::vector<std::string>& lines, const std::string& whose, const std::string& sandbox,
               const std::optional<bool>& sandboxed, bool network) {
  if (sandboxed && !*sandboxed)
    lines.push_back(whose + " code ran UNCONFINED (" + why(sandbox) +
                    "): it could read the user's files and secrets, reach the network and write outside its trees");
  else if (sandboxed && network)
    lines.push_back(whose + " code ran with network access ([sandbox] network = true)");
}

}  // namespace

std::vector<std::string> sandbox_warnings(const model::Run& baseline, const Ranking& ranking) {
  std::vector<std::string> lines;
  add_lines(lines, "the baseline's (" + baseline.agent + ")", baseline.sandbox, baseline.sandboxed, baseline.network);
  for (const auto& candidate : ranking.candidates)
    add_lines(lines, "candidate " + candidate.agent + "'s", candidate.sandbox, candidate.sandboxed, candidate.network);
  return lines;
}

}  // namespace hydra::score
