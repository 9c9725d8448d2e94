// Tests for the limits of a process and what it starts (util/control_group.hpp,
// ProcessRequest::limits): where control groups are, a memory and a process
// limit in a control group, everything of the group killed when the step
// ends, and setrlimit where no group is used.
#include <catch2/catch.hpp>

#include <signal.h>

#include <cerrno>
#include <fstream>
#include <string>

#include <hydra/util/control_group.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

using hydra::util::ControlGroupPlaces;
using hydra::util::locate_control_groups;

namespace {

hydra::util::ProcessRequest shell(const std::string& command) {
  hydra::util::ProcessRequest request;
  request.argv = {"/bin/sh", "-c", command};
  request.timeout = std::chrono::seconds(120);
  return request;
}

/// A process that fills `megabytes` of memory (the bytes are written, so
/// they are resident), then exits 0.
std::string allocate(int megabytes) {
  return "exec python3 -c 'b = b\"x\" * (" + std::to_string(megabytes) + " * 1024 * 1024); print(len(b))'";
}

}  // namespace

TEST_CASE("control groups are found from /proc/self/cgroup and mountinfo", "[util][process][limits]") {
  // Recorded on a machine with cgroup v1 (cpu and cpuacct in one hierarchy).
  const std::string v1_cgroup =
      "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/135f\n2:cpu,cpuacct:/\n0::/\n";
  const std::string v1_mounts =
      "28 25 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
      "29 28 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:7 - cgroup cgroup rw,cpu,cpuacct\n"
      "31 28 0:29 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
      "35 28 0:33 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n";
  SECTION("cgroup v1: each controller in its hierarchy, at this process's group") {
    const ControlGroupPlaces places = locate_control_groups(v1_cgroup, v1_mounts);
    CHECK(places.version == 1);
    CHECK(places.controllers.at("memory") == "/sys/fs/cgroup/memory/process_api/135f");
    CHECK(places.controllers.at("pids") == "/sys/fs/cgroup/pids");
    CHECK(places.controllers.at("cpu") == "/sys/fs/cgroup/cpu,cpuacct");
  }
  SECTION("a hierarchy mounted from inside a group (a container) and a mount point with a space") {
    const ControlGroupPlaces places = locate_control_groups(
        "4:memory:/docker/abc/job\n", "31 28 0:29 /docker/abc /sys/fs/cgroup/my\\040memory rw - cgroup cgroup rw,memory\n");
    CHECK(places.version == 1);
    CHECK(places.controllers.at("memory") == "/sys/fs/cgroup/my memory/job");
  }
  SECTION("cgroup v2: one folder for every controller") {
    const ControlGroupPlaces places =
        locate_control_groups("0::/user.slice/session-1.scope\n",
                              "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
    CHECK(places.version == 2);
    CHECK(places.controllers.at("memory") == "/sys/fs/cgroup/user.slice/session-1.scope");
    CHECK(places.controllers.at("pids") == places.controllers.at("memory"));
  }
  SECTION("none mounted, or this process's group not visible under the mount") {
    CHECK(locate_control_groups(v1_cgroup, "28 25 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n").version == 0);
    CHECK(locate_control_groups("4:memory:/elsewhere\n", "31 28 0:29 /docker /m rw - cgroup cgroup rw,memory\n")
              .version == 0);
  }
  SECTION("a group cannot be made without a hierarchy") {
    std::string why_not;
    CHECK_FALSE(hydra::util::ControlGroup::create({}, {}, why_not));
    CHECK(why_not == "no control group hierarchy is mounted here");
  }
}

TEST_CASE("a step's memory and process limits hold all its processes together in a control group",
          "[util][process][limits]") {
  if (hydra::util::usable_control_groups().version == 0) {
    WARN("this process cannot make control groups here; the setrlimit limits below are tested instead");
    return;
  }
  SECTION("a process that fills more memory than the limit is killed, and the step says so") {
    auto request = shell(allocate(400));
    request.limits.memory_bytes = 64 * 1024 * 1024;
    const auto result = hydra::util::run_process(request);
    INFO(result.output);
    CHECK(result.exit_code == 128 + SIGKILL);
    CHECK(result.memory_limit_reached);
    CHECK(result.limits_enforced.find("control group (cgroup v") != std::string::npos);
  }
  SECTION("within the limit it runs as it would") {
    auto request = shell(allocate(16));
    request.limits.memory_bytes = 256 * 1024 * 1024;
    const auto result = hydra::util::run_process(request);
    CHECK(result.exit_code == 0);
    CHECK(result.output == std::to_string(16 * 1024 * 1024) + "\n");
    CHECK_FALSE(result.memory_limit_reached);
  }
  SECTION("no more processes than the limit") {
    auto request = shell("for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 30 & done; wait");
    request.limits.processes = 5;
    const auto result = hydra::util::run_process(request);
    INFO(result.output);
    CHECK_FALSE(result.timed_out);
    CHECK(result.exit_code != 0);
    CHECK(result.output.find("fork") != std::string::npos);
  }
  SECTION("a process that left the step's process group and session is killed when the step ends") {
    hydra::util::TempDir directory("hydra-limits");
    const auto pid_file = directory.path() / "escaped";
    auto request = shell("setsid sh -c 'echo $$ > " + pid_file.string() + "; exec sleep 300' </dev/null >/dev/null 2>&1 & "
                         "while [ ! -s " + pid_file.string() + " ]; do sleep 0.05; done");
    request.limits.processes = 100;
    const auto result = hydra::util::run_process(request);
    CHECK(result.exit_code == 0);
    std::ifstream stream(pid_file);
    pid_t pid = 0;
    stream >> pid;
    REQUIRE(pid > 0);
    errno = 0;
    const bool gone = ::kill(pid, 0) != 0 && errno == ESRCH;
    if (!gone) ::kill(pid, SIGKILL);
    CHECK(gone);
  }
}

TEST_CASE("without a control group, limits are set with setrlimit", "[util][process][limits]") {
  SECTION("the address space of each process") {
    auto request = shell(allocate(400));
    request.use_control_group = false;
    request.limits.memory_bytes = 200 * 1024 * 1024;
    const auto result = hydra::util::run_process(request);
    INFO(result.output);
    CHECK(result.exit_code != 0);
    CHECK(result.output.find("MemoryError") != std::string::npos);
    CHECK(result.limits_enforced == "resource limits (RLIMIT_AS)");
  }
  SECTION("the CPU time of each process: a process that spins is killed") {
    auto request = shell("while :; do :; done");
    request.use_control_group = false;
    request.limits.cpu_seconds = 1;
    const auto result = hydra::util::run_process(request);
    CHECK_FALSE(result.timed_out);
    CHECK(result.exit_code == 128 + SIGKILL);
    CHECK(result.limits_enforced == "resource limits (RLIMIT_CPU)");
  }
  SECTION("no limits: nothing said") {
    const auto result = hydra::util::run_process(shell("true"));
    CHECK(result.limits_enforced.empty());
  }
}
