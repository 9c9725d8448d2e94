// The verdict witness and the judged run (capture/runners/witness.hpp,
// capture/runners/child_run.hpp, capture/runners/judged_run.hpp): small C programs compiled
// here, run through the witness HydraScore builds beside its executable and
// through `hydra-score test-launcher` as a capture's ctest runs it.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <hydra/capture/runners/child_run.hpp>
#include <hydra/capture/runners/judged_run.hpp>
#include <hydra/capture/runners/test_frameworks.hpp>
#include <hydra/capture/runners/witness.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

#include "test_paths.hpp"

using namespace hydra::capture;
namespace fs = std::filesystem;

namespace {

const fs::path kTool = HYDRA_TOOL_PATH;

int exited(int code) { return code << 8; }  // a wait status

/// `source` (C) compiled into `folder`/`name`.
fs::path compile(const fs::path& folder, const std::string& name, const std::string& source,
                 const std::vector<std::string>& flags = {}) {
  hydra::util::write_file_atomic(folder / (name + ".c"), source);
  std::vector<std::string> argv = {"cc", "-o", (folder / name).string(), (folder / (name + ".c")).string()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  hydra::util::ProcessRequest request;
  request.argv = argv;
  const auto built = hydra::util::run_process(request);
  INFO(built.output << built.error_output);
  REQUIRE(built.exit_code == 0);
  return folder / name;
}

// main fails; a static initializer registers a handler that rewrites the status.
const std::string kRewriter =
    "#include <stdlib.h>\n#include <unistd.h>\n"
    "static void succeed(void) { _exit(0); }\n"
    "__attribute__((constructor)) static void arm(void) { atexit(succeed); }\n"
    "int main(void) { return 1; }\n";

const std::string kFailing = "int main(void) { return 1; }\n";

// Writes a result of its own into every descriptor the witness could hold.
const std::string kForger =
    "#include <signal.h>\n#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\n"
    "int main(void) {\n"
    "  signal(SIGPIPE, SIG_IGN);  /* descriptors it inherits may be pipes nobody reads */\n"
    "  char line[64]; snprintf(line, sizeof line, \"result guess %d 0\\n\", (int)getpid());\n"
    "  for (int fd = 3; fd < 1024; ++fd) if (write(fd, line, strlen(line)) < 0) {}\n"
    "  return 1;\n}\n";

// 0 when nothing of the witness is visible in its environment, and its name holds no "calc".
const std::string kInspector =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "int main(int argc, char** argv) {\n"
    "  (void)argc;\n"
    "  if (getenv(\"HYDRA_SCORE_WITNESS\") || getenv(\"HYDRA_SCORE_TEST_REPORTS\")) return 3;\n"
    "  const char* preload = getenv(\"LD_PRELOAD\");\n"
    "  if (preload && strstr(preload, \"witness\")) return 4;\n"
    "  char comm[64] = \"\"; FILE* file = fopen(\"/proc/self/comm\", \"r\");\n"
    "  if (file) { if (!fgets(comm, sizeof comm, file)) comm[0] = 0; fclose(file); }\n"
    "  if (strstr(comm, \"calc\") || strstr(argv[0], \"calc\")) return 5;\n"
    "  return 0;\n}\n";

// Each ends with status 0 by a path that bypasses both main's return and the
// exit functions the witness takes: the main thread's pthread_exit (libc
// then exits 0 itself), the raw exit_group system call, libc's own _exit
// looked up past the witness.
const std::string kThreadExit =
    "#include <pthread.h>\nint main(void) { pthread_exit(0); return 1; }\n";
const std::string kRawExit =
    "#include <sys/syscall.h>\n#include <unistd.h>\n"
    "int main(void) { syscall(SYS_exit_group, 0); return 1; }\n";
const std::string kLibcExit =
    "#define _GNU_SOURCE\n#include <dlfcn.h>\n"
    "int main(void) {\n"
    "  void* libc = dlopen(\"libc.so.6\", RTLD_NOW | RTLD_NOLOAD);\n"
    "  void (*real)(int) = libc ? (void (*)(int))dlsym(libc, \"_exit\") : 0;\n"
    "  if (real) real(0);\n  return 1;\n}\n";

ChildResult run(const fs::path& program, const std::string& mode = "run") {
  ChildRequest request;
  request.argv = {program.string()};
  request.witness = kTool.parent_path() / kWitnessLibraryName;
  request.witness_mode = mode;
  return run_child(request);
}

}  // namespace

TEST_CASE("witness: its lines, and the status a process ends with", "[capture][witness]") {
  const auto said = parse_witness("hello k 10\nhello k 11\nresult k 11 3\nresult k 10 1\n", "k", 10);
  CHECK(said.loaded);
  REQUIRE(said.result);
  CHECK(*said.result == 1);  // the started process's own, not its child's
  CHECK(said.forged.empty());
  CHECK_FALSE(witness_disagreement(said, exited(1)));
  CHECK(witness_disagreement(said, exited(0)));
  // A failure after main succeeded (a leak checker's) stands: no tampering.
  CHECK_FALSE(witness_disagreement(parse_witness("result k 10 0\n", "k", 10), exited(23)));
  // No witness: the status stands.
  CHECK_FALSE(witness_disagreement(parse_witness("", "k", 10), exited(0)));
  CHECK_FALSE(witness_disagreement(parse_witness("", "k", 10), exited(0), true));
  // Loaded, silent, exit status 0: tampering where a result was expected;
  // a failure stands; a shell (no result expected) may exec its command.
  const auto silent = parse_witness("hello k 10\n", "k", 10);
  CHECK(witness_disagreement(silent, exited(0), true));
  CHECK_FALSE(witness_disagreement(silent, exited(1), true));
  CHECK_FALSE(witness_disagreement(silent, exited(0), false));
  // Lines without the token, or a second result, are forged.
  CHECK(witness_disagreement(parse_witness("result guess 10 0\nresult k 10 1\n", "k", 10), exited(1)));
  CHECK(witness_disagreement(parse_witness("result k 10 1\nresult k 10 0\n", "k", 10), exited(1)));

  CHECK_FALSE(canary_problem(CanaryMode::must_fail, parse_witness("result k 1 1\n", "k", 1), exited(1), true));
  CHECK(canary_problem(CanaryMode::must_fail, parse_witness("result k 1 1\n", "k", 1), exited(0), true));
  CHECK(canary_problem(CanaryMode::must_pass, parse_witness("", "k", 1), exited(0), true));  // silent witness
  CHECK_FALSE(canary_problem(CanaryMode::must_pass, parse_witness("", "k", 1), exited(0), false));
}

TEST_CASE("witness: a report pipe's first complete report, and what followed it", "[capture][witness]") {
  const auto one = split_piped_report("<?xml?>\n<testsuites></testsuites>\n\n");
  CHECK(one.report == "<?xml?>\n<testsuites></testsuites>\n");
  CHECK(one.extra.empty());
  const auto two = split_piped_report("<testsuites><f/></testsuites>\n<testsuites></testsuites>\n");
  CHECK(two.report == "<testsuites><f/></testsuites>\n");
  CHECK(two.extra == "<testsuites></testsuites>");
  CHECK(split_piped_report("<testsuites><testsuite>").report == "<testsuites><testsuite>");
}

TEST_CASE("witness: main's own result seen from outside the program", "[capture][witness]") {
  hydra::util::TempDir temp("hydra-witness");
  const fs::path rewriter = compile(temp.path(), "rewriter", kRewriter);
  const fs::path failing = compile(temp.path(), "failing", kFailing);
  const fs::path forger = compile(temp.path(), "forger", kForger);
  CHECK(elf_kind(rewriter).elf);
  CHECK(elf_kind(rewriter).dynamic);
  CHECK_FALSE(elf_kind(temp.path() / "rewriter.c").elf);
  CHECK(gets_canaries(rewriter));
  CHECK_FALSE(gets_canaries("/bin/sh"));

  const auto honest = run(failing);
  const auto honest_said = parse_witness(honest.witness_text, honest.witness_token, honest.pid);
  CHECK(honest.exit_code == 1);
  CHECK(honest_said.loaded);
  CHECK(honest_said.result == 1);
  CHECK_FALSE(witness_disagreement(honest_said, honest.wait_status));

  const auto rewritten = run(rewriter);
  CHECK(rewritten.exit_code == 0);  // the handler rewrote it
  const auto disagreement =
      witness_disagreement(parse_witness(rewritten.witness_text, rewritten.witness_token, rewritten.pid),
                           rewritten.wait_status);
  REQUIRE(disagreement);
  CHECK(disagreement->find("main returned 1") != std::string::npos);

  const auto forged = run(forger);
  CHECK(witness_disagreement(parse_witness(forged.witness_text, forged.witness_token, forged.pid), forged.wait_status));

  // Canaries: the honest program's are right, the rewriter's must-fail one is not.
  for (const auto& [program, wrong] : {std::make_pair(failing, false), std::make_pair(rewriter, true)}) {
    const auto must_fail = run(program, "fail");
    const auto must_pass = run(program, "pass");
    const auto fail_problem = canary_problem(
        CanaryMode::must_fail, parse_witness(must_fail.witness_text, must_fail.witness_token, must_fail.pid),
        must_fail.wait_status, true);
    CHECK(fail_problem.has_value() == wrong);
    CHECK_FALSE(canary_problem(CanaryMode::must_pass,
                               parse_witness(must_pass.witness_text, must_pass.witness_token, must_pass.pid),
                               must_pass.wait_status, true));
  }
  // A program that needs a sanitizer's runtime first gets no witness.
  CHECK_FALSE(elf_kind(failing).sanitizer);
  hydra::util::ProcessRequest sanitized;
  sanitized.argv = {"cc", "-fsanitize=address", "-o", (temp.path() / "sanitized").string(),
                    (temp.path() / "failing.c").string()};
  if (hydra::util::run_process(sanitized).exit_code == 0) CHECK(elf_kind(temp.path() / "sanitized").sanitizer);
  // The runtime's name in the program's data is no runtime: only the
  // libraries the dynamic loader is asked for count.
  const fs::path spoof = compile(temp.path(), "spoof",
                                 "__attribute__((used)) const char note[] = \"checked with libasan.so.8 and "
                                 "libtsan.so.2\";\nint main(void) { return note[0] == 0; }\n");
  CHECK(elf_kind(spoof).dynamic);
  CHECK_FALSE(elf_kind(spoof).sanitizer);
  // A static program has no witness: its status stands, and its canaries expect none.
  hydra::util::ProcessRequest probe;
  probe.argv = {"cc", "-static", "-o", (temp.path() / "probe").string(), (temp.path() / "failing.c").string()};
  if (hydra::util::run_process(probe).exit_code == 0) {
    CHECK_FALSE(elf_kind(temp.path() / "probe").dynamic);
    const auto silent = run(temp.path() / "probe");
    CHECK(silent.exit_code == 1);
    CHECK(parse_witness(silent.witness_text, silent.witness_token, silent.pid).result == std::nullopt);
  }
}

TEST_CASE("witness: the test launcher fails a rewritten status, names the canary, and hides itself",
          "[capture][witness]") {
  hydra::util::TempDir temp("hydra-witness-launch");
  const fs::path reports = temp.path() / "reports";
  fs::create_directories(reports);
  hydra::util::write_file_atomic(temp.path() / "plan.json", R"({"programs": [], "program_level": []})");
  const auto launch = [&](const fs::path& program) {
    hydra::util::ProcessRequest request;
    request.argv = {kTool.string(), kLauncherSubcommand, "--", program.string()};
    request.environment = {{kTestProgramsVariable, (temp.path() / "plan.json").string()},
                           {kTestReportsVariable, reports.string()}};
    return hydra::util::run_process(request);
  };
  const auto rewritten = launch(compile(temp.path(), "rewriter_calc", kRewriter));
  INFO(rewritten.output << rewritten.error_output);
  CHECK(rewritten.exit_code == 1);
  CHECK(rewritten.output.find("hydra-score: tampering: main returned 1") != std::string::npos);
  CHECK(rewritten.output.find("canary of rewriter_calc: the must-fail canary") != std::string::npos);

  const auto honest = launch(compile(temp.path(), "failing_calc", kFailing));
  CHECK(honest.exit_code == 1);
  CHECK(honest.output.find("tampering") == std::string::npos);

  // Exit paths that bypass the witness fail as tampered; without the
  // witness's rule each of them would pass.
  for (const auto& [name, source] : {std::make_pair("thread_exit_calc", kThreadExit),
                                     std::make_pair("raw_exit_calc", kRawExit),
                                     std::make_pair("libc_exit_calc", kLibcExit)}) {
    const auto bypassed = launch(compile(temp.path(), name, source, {"-pthread", "-ldl"}));
    INFO(name << ": " << bypassed.output << bypassed.error_output);
    CHECK(bypassed.exit_code == 1);
    CHECK(bypassed.output.find("hydra-score: tampering: the process exited 0, yet HydraScore's witness saw "
                               "neither") != std::string::npos);
  }

  const auto inspected = launch(compile(temp.path(), "inspector_calc", kInspector));
  INFO(inspected.output << inspected.error_output);
  CHECK(inspected.exit_code == 0);
  // The neutral link is gone once the program ended.
  for (const auto& entry : fs::directory_iterator(temp.path()))
    CHECK(entry.path().filename().string().rfind("run-", 0) != 0);
}
