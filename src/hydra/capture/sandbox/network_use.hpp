// Steps that needed the network they do not have (docs/config.md,
// "[sandbox]"): a build that must fetch its dependencies fails with a message
// that names the opt-in, `[sandbox] network = true`, instead of a bare
// "could not resolve host" deep in a log.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace hydra::capture {

/// The first line of `log` in which a tool says it could not reach the
/// network (a host name it could not resolve, a download that failed, a
/// package that is not in an offline cache); empty when there is none. Pure.
std::string network_failure_line(std::string_view log);

/// The packages `package_json` (package.json's text) declares in
/// "dependencies", "devDependencies", "optionalDependencies" and
/// "peerDependencies", sorted; none when it does not parse. Pure.
std::vector<std::string> declared_packages(const std::string& package_json);

/// "<what> needs the network (<evidence>), which the steps that run
/// candidate code do not have: ..., or set `[sandbox] network = true` in
/// hydra.toml (then every report says the candidates ran with network)".
std::string network_needed_message(const std::string& what, const std::string& evidence);

}  // namespace hydra::capture
