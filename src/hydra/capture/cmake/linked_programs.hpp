// A test program is the file its link step produced (docs/threat-model.md,
// "The scorer's git"): after the build, every executable the codemodel
// names is hashed, removed and built again alone (`ninja <executable>`, in
// the sandbox like the build): Ninja runs only its link step (post-build
// steps included) and nothing else of the build, so a custom target or
// command that wrote over the program after it was linked (`cp fake
// $<TARGET_FILE:t>` in an `ALL` target) leaves a file that differs from
// what its link step makes again. The relinked program stays: ctest runs
// what the link produced.
#pragma once

#include <string>
#include <vector>

#include <hydra/capture/core/staging.hpp>
#include <hydra/capture/sandbox/sandbox.hpp>

namespace hydra::capture {

/// Relinks the executables of the built Ninja tree of `plan` (build-targets.json
/// in `staging`) and records manifest.json's `linked_programs`
/// ({"checked": N, "differ": [program relative to the build tree]} or
/// {"problem": why}). For a candidate, a program that differs while the
/// baseline's same program did not (the baseline's `linked_programs`; a
/// link step that is not reproducible there is the project's) is a
/// problem of the run. `timeout_seconds` bounds the relinking.
void check_linked_programs(const Plan& plan, const CaptureRequest& request, const Sandbox& sandbox, Staging& staging,
                           double timeout_seconds);

/// The programs of `before` (relative path -> sha256) whose digest in
/// `after` differs or is missing, sorted. Pure.
std::vector<std::string> differing_programs(const std::vector<std::pair<std::string, std::string>>& before,
                                            const std::vector<std::pair<std::string, std::string>>& after);

}  // namespace hydra::capture
