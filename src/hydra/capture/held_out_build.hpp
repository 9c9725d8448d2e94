// The code under test as the held-out run builds it (docs/threat-model.md,
// "A regression hidden behind the held-out run"): the held-out run builds
// the candidate's code with the baseline's test files, so a test file of
// the change that decides how the code itself is built (a define, a flag or
// a source of the library set from `tests/CMakeLists.txt`) is merged but
// never held out. The two configures' codemodels are compared on the
// targets that compile code only (every source a file of the code, not of
// the tests): each way they differ is a way the change's test files build
// the code. Pure.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <hydra/model/build_targets.hpp>
#include <hydra/model/manifest.hpp>

namespace hydra::capture {

/// The code targets' differences between the candidate's own configure
/// (`candidate`) and its held-out run's (`held_out`), keyed as the
/// configure differential keys them (cmake/configure_differential.hpp).
/// `is_test_source` takes a source's path relative to its source tree.
/// A target in one configure only is left out (the change's new test
/// programs, the baseline's removed ones). Pure.
std::vector<model::ConfigureDifference> held_out_build_differences(
    const model::BuildTargets& candidate, const model::BuildTargets& held_out,
    const std::function<bool(const std::string&)>& is_test_source);

}  // namespace hydra::capture
