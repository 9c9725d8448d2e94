#include <hydra/capture/sandbox.hpp>

#include <algorithm>
#include <chrono>
#include <system_error>

#include <hydra/util/process.hpp>

namespace hydra::capture {

std::vector<std::string> Sandbox::wrap(const StepPolicy& policy, const std::vector<std::string>& argv) const {
  if (!bwrap) return argv;
  std::vector<std::string> wrapped = {bwrap->string(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                      "--die-with-parent"};
  if (pid_namespace) wrapped.push_back("--unshare-pid");
  for (const auto& mount : policy.mounts) {
    switch (mount.access) {
      case Mount::Access::read_write:
        wrapped.insert(wrapped.end(), {"--bind", mount.origin().string(), mount.path.string()});
        break;
      case Mount::Access::read_only:
        wrapped.insert(wrapped.end(), {"--ro-bind", mount.origin().string(), mount.path.string()});
        break;
      case Mount::Access::hidden: {
        std::error_code error;
        if (std::filesystem::is_directory(mount.path, error)) wrapped.insert(wrapped.end(), {"--tmpfs", mount.path.string()});
        else wrapped.insert(wrapped.end(), {"--ro-bind", "/dev/null", mount.path.string()});
        break;
      }
    }
  }
  wrapped.insert(wrapped.end(), {"--setenv", "TMPDIR", policy.temporary.string()});
  wrapped.push_back("--");
  wrapped.insert(wrapped.end(), argv.begin(), argv.end());
  return wrapped;
}

Sandbox find_sandbox(bool wanted) {
  Sandbox sandbox;
  if (!wanted) {
    sandbox.description = "none: disabled (--no-sandbox)";
    return sandbox;
  }
  const auto bwrap = util::find_program("bwrap");
  if (!bwrap) {
    sandbox.description = "none: bubblewrap (bwrap) is not installed";
    return sandbox;
  }
  util::ProcessRequest probe;
  probe.argv = {bwrap->string(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--", "true"};
  probe.timeout = std::chrono::seconds(20);
  auto result = util::run_process(probe);
  sandbox.pid_namespace = result.started && result.exit_code == 0;
  if (!sandbox.pid_namespace) {
    probe.argv.erase(std::find(probe.argv.begin(), probe.argv.end(), "--unshare-pid"));
    result = util::run_process(probe);
  }
  if (!result.started || result.exit_code != 0) {
    const std::string said = result.output + result.error;
    sandbox.description = "none: bubblewrap cannot create a sandbox here (" + said.substr(0, said.find('\n')) + ")";
    return sandbox;
  }
  sandbox.bwrap = bwrap;
  sandbox.description =
      "bubblewrap: everything read-only but the tree the steps work in (the source tree; for the js-node, rust "
      "and python profiles its copy in the build tree), the build tree and the folder results are written to";
  if (sandbox.pid_namespace) sandbox.description += "; no process outlives its step (PID namespace)";
  return sandbox;
}

}  // namespace hydra::capture
