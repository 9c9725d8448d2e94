// The sandbox (sandbox.hpp): a StepPolicy as a bubblewrap command line.
#include <hydra/capture/sandbox/sandbox.hpp>

#include <algorithm>
#include <set>
#include <chrono>
#include <iterator>
#include <system_error>

#include <hydra/error.hpp>
#include <hydra/util/files.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

std::size_t depth(const fs::path& path) {
  const fs::path clean = path.lexically_normal();
  return static_cast<std::size_t>(std::distance(clean.begin(), clean.end()));
}

}  // namespace

std::vector<std::string> Sandbox::wrap(const StepPolicy& policy, const std::vector<std::string>& argv) const {
  std::vector<std::string> command;
  if (policy.reaped && step_runner) command = {step_runner->string(), "run-step", "--"};
  command.insert(command.end(), argv.begin(), argv.end());
  if (!bwrap) return command;

  // No capability, also for a capture run as root: with CAP_SYS_ADMIN a step
  // could unmount what hides a folder or remount / writable.
  std::vector<std::string> wrapped = {bwrap->string(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                      "--die-with-parent", "--unshare-ipc", "--cap-drop", "ALL"};
  if (pid_namespace) wrapped.insert(wrapped.end(), {"--unshare-pid", "--new-session"});
  // The step reaper is PID 1 of the namespace, not bubblewrap: code under
  // test finds "init" at /proc/1 (util/reaper.cpp), not the sandbox's program.
  if (pid_namespace && policy.reaped && step_runner) wrapped.push_back("--as-pid-1");
  if (!policy.network) wrapped.push_back("--unshare-net");
  // Shallowest first, so a deeper path goes over the one holding it; at one
  // path the later mount wins (a stable sort keeps their order).
  std::vector<Mount> mounts = policy.mounts;
  if (policy.reaped && step_runner) {
    // The reaper must stay runnable inside a hidden folder, or a folder
    // shown from elsewhere (a plain run's /tmp).
    const bool hidden = std::any_of(mounts.begin(), mounts.end(), [&](const Mount& mount) {
      return mount.access != Mount::Access::symlink &&
             (mount.access == Mount::Access::hidden || mount.origin() != mount.path) &&
             util::is_within(*step_runner, mount.path);
    });
    if (hidden) mounts.push_back({Mount::Access::read_only, *step_runner, {}});
  }
  std::stable_sort(mounts.begin(), mounts.end(),
                   [](const Mount& left, const Mount& right) { return depth(left.path) < depth(right.path); });
  // At one path only the last mount is made: an earlier hidden folder would
  // otherwise be remounted read-only over the later one at the end.
  std::set<fs::path> placed;
  std::vector<Mount> last;
  for (auto it = mounts.rbegin(); it != mounts.rend(); ++it)
    if (placed.insert(it->path.lexically_normal()).second) last.push_back(*it);
  mounts.assign(last.rbegin(), last.rend());
  std::vector<std::string> hidden_folders;
  for (const auto& mount : mounts) {
    std::error_code error;
    switch (mount.access) {
      case Mount::Access::read_write:
        if (fs::exists(mount.origin(), error))
          wrapped.insert(wrapped.end(), {"--bind", mount.origin().string(), mount.path.string()});
        break;
      case Mount::Access::read_only:
        if (fs::exists(mount.origin(), error))
          wrapped.insert(wrapped.end(), {"--ro-bind", mount.origin().string(), mount.path.string()});
        break;
      case Mount::Access::symlink:
        wrapped.insert(wrapped.end(), {"--symlink", mount.source.string(), mount.path.string()});
        break;
      case Mount::Access::hidden:
        // What is there decides (origin: the folder a tree shown elsewhere
        // has at that place): a folder or a file.
        if (fs::is_directory(mount.origin(), error)) {
          wrapped.insert(wrapped.end(), {"--tmpfs", mount.path.string()});
          hidden_folders.push_back(mount.path.string());
        } else if (fs::exists(mount.origin(), error)) {
          wrapped.insert(wrapped.end(), {"--ro-bind", "/dev/null", mount.path.string()});
        }
        break;
    }
  }
  // Hidden folders are empty and read-only: once every mount inside them is
  // made (bubblewrap makes their mount points there), nothing can be added.
  for (const auto& folder : hidden_folders) wrapped.insert(wrapped.end(), {"--remount-ro", folder});
  wrapped.push_back("--");
  wrapped.insert(wrapped.end(), command.begin(), command.end());
  return wrapped;
}

util::ProcessRequest Sandbox::request(const StepPolicy& policy, const std::vector<std::string>& argv) const {
  util::ProcessRequest request;
  request.argv = wrap(policy, argv);
  request.environment = policy.environment;
  request.inherit_environment = false;
  request.limits = policy.limits;
  request.working_directory = policy.working_directory;
  // A busy machine is not the step's fault: its budget counts the processor
  // time the machine could give it (docs/config.md, "Time budgets").
  request.timeout_follows_load = true;
  return request;
}

Sandbox find_sandbox(bool wanted, const config::SandboxSettings& settings,
                     const std::optional<fs::path>& step_runner) {
  Sandbox sandbox;
  sandbox.network = settings.network;
  sandbox.step_runner = step_runner;
  const auto unconfined = [&](const std::string& why) {
    if (settings.require)
      throw StepFailed("[sandbox] require = true, but candidate code cannot be confined here: " + why +
                      " (docs/threat-model.md, \"Running HydraScore in a container\")");
    sandbox.description = "none: " + why;
    return sandbox;
  };
  if (!wanted) return unconfined("disabled (--no-sandbox)");
  const auto bwrap = util::find_program("bwrap");
  if (!bwrap) return unconfined("bubblewrap (bwrap) is not installed");
  util::ProcessRequest probe;
  probe.argv = {bwrap->string(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-ipc",
                "--cap-drop", "ALL", "--unshare-pid", "--new-session"};
  if (!settings.network) probe.argv.push_back("--unshare-net");
  probe.argv.insert(probe.argv.end(), {"--tmpfs", "/tmp", "--remount-ro", "/tmp", "--", "true"});
  probe.timeout = std::chrono::seconds(20);
  // Every namespace or none: without a PID namespace of its own a step
  // would see every process of the machine in /proc, the environment of
  // HydraScore's own (with its secrets) among them.
  const auto result = util::run_process(probe);
  if (!result.started || result.exit_code != 0) {
    const std::string said = result.output + result.error;
    return unconfined("bubblewrap cannot create its namespaces here (" + said.substr(0, said.find('\n')) + ")");
  }
  sandbox.pid_namespace = true;
  sandbox.bwrap = bwrap;
  sandbox.description =
      "bubblewrap: each step writes only its trees and reads neither the user's home, temporary and runtime "
      "folders, nor other runs and trees, nor the private tests (steps[].policy in the manifest); an environment "
      "from an allowlist";
  sandbox.description += settings.network ? "; network allowed ([sandbox] network = true)"
                                          : "; no network (loopback only)";
  sandbox.description += "; no process outlives its step (PID namespace)";
  return sandbox;
}

}  // namespace hydra::capture
