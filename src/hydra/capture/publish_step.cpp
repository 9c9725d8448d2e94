// The publish step: tool versions, artifacts the tools left malformed,
// parsed summaries, then seal and rename into place.
#include <hydra/capture/publish_step.hpp>

#include <hydra/error.hpp>
#include <hydra/parse/compiler_id.hpp>
#include <hydra/pipeline/artifacts.hpp>
#include <hydra/pipeline/run_dir.hpp>
#include <hydra/pipeline/signals.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The compiler CMake identified when it configured `build_dir`
/// (CMakeFiles/<cmake version>/CMake<LANG>Compiler.cmake), e.g. "GNU 12.2.0".
std::optional<std::string> compiler_identification(const fs::path& build_dir) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(build_dir / "CMakeFiles", error)) {
    for (const char* name : {"CMakeCXXCompiler.cmake", "CMakeCCompiler.cmake"}) {
      const fs::path file = entry.path() / name;
      if (!fs::is_regular_file(file, error)) continue;
      if (auto compiler = parse::compiler_identification_from_cmake_file(util::read_file(file))) return compiler;
    }
  }
  return std::nullopt;
}

}  // namespace

void publish(const Plan& plan, const config::Config& config, Staging& staging) {
  if (config.profile == "cmake") {
    staging.manifest["tools"]["cmake"] = tool_version(plan.cmake.string());
    staging.manifest["tools"]["ctest"] = tool_version(plan.ctest.string());
    if (auto compiler = compiler_identification(plan.build_dir)) staging.manifest["tools"]["compiler"] = *compiler;
  }
  if (plan.in_git) staging.manifest["tools"]["git"] = tool_version("git");

  // An artifact the tools left malformed (a crash mid-write) is kept for
  // audit but marked unparsable: the run is then never mergeable.
  json unparsable = json::array();
  for (const auto& [path, role] : staging.roles.items()) {
    try {
      const std::string name = role.get<std::string>();
      if (pipeline::is_test_role(name)) pipeline::parse_test_artifact(name, staging.directory / path);
      else if (pipeline::is_lint_role(name)) pipeline::parse_lint_artifact(name, staging.directory / path);
    } catch (const InputError& error) {
      unparsable.push_back({{"path", path}, {"reason", error.what()}});
    }
  }
  if (!unparsable.empty()) staging.manifest["unparsable_artifacts"] = unparsable;

  const model::Run parsed =
      pipeline::parse_artifacts(staging.directory, staging.manifest, staging.roles, config.lint.compiler_warnings);
  staging.write("signals.json", pipeline::signals_json(parsed).dump(2) + "\n", "signals");
  staging.manifest["artifact_roles"] = staging.roles;
  pipeline::seal_and_publish(staging.directory, staging.manifest, plan.out);
}

}  // namespace hydra::capture
