// The system-call instruction scan (capture/cmake/system_calls.hpp) over
// objects compiled here: inline assembly entering the kernel is found, a
// byte pair that only looks like `syscall` inside another instruction is not.
#include <catch2/catch.hpp>

#include <hydra/capture/cmake/system_calls.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/process.hpp>

namespace fs = std::filesystem;

namespace {

/// Compiles C source `text` into `<folder>/<name>.o`.
fs::path compile(const fs::path& folder, const std::string& name, const std::string& text) {
  const fs::path source = folder / (name + ".c"), object = folder / (name + ".o");
  hydra::util::write_file_atomic(source, text);
  hydra::util::ProcessRequest request;
  request.argv = {"cc", "-O2", "-c", source.string(), "-o", object.string()};
  const auto ran = hydra::util::run_process(request);
  INFO(ran.output);
  REQUIRE(ran.exit_code == 0);
  return object;
}

}  // namespace

TEST_CASE("objects issuing system calls of their own are found, look-alike bytes are not", "[capture]") {
  hydra::util::TempDir temp("hydra-system-calls");
  const fs::path folder = temp.path();
#if defined(__x86_64__)
  // prctl(PR_GET_NO_NEW_PRIVS) by the instruction itself.
  const fs::path raw = compile(folder, "raw",
                               "long nnp(void) { long r; __asm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(157L), "
                               "\"D\"(39L) : \"rcx\", \"r11\", \"memory\"); return r; }\n");
  // 0x0f 0x05 as an immediate (mov $0x50f, %eax: b8 0f 05 00 00).
  const fs::path immediate = compile(folder, "immediate", "int number(void) { return 0x050f; }\n");
  CHECK(hydra::capture::scan_system_call_bytes(immediate) == hydra::capture::SystemCallScan::maybe);
#elif defined(__aarch64__)
  const fs::path raw = compile(folder, "raw",
                               "long nnp(void) { register long x8 __asm__(\"x8\") = 167; register long x0 "
                               "__asm__(\"x0\") = 39; __asm__ volatile(\"svc 0\" : \"+r\"(x0) : \"r\"(x8) : "
                               "\"memory\"); return x0; }\n");
  const fs::path immediate = compile(folder, "immediate", "int number(void) { return 0x050f; }\n");
#endif
  // The C library's prctl: a symbol (the catalogue's), no instruction.
  const fs::path library = compile(folder, "library",
                                   "#include <sys/prctl.h>\nint nnp(void) { return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); }\n");
  const fs::path text = folder / "notes.o";
  hydra::util::write_file_atomic(text, "syscall \x0f\x05 is not an object\n");
  CHECK(hydra::capture::scan_system_call_bytes(raw) != hydra::capture::SystemCallScan::no);
  CHECK(hydra::capture::scan_system_call_bytes(library) == hydra::capture::SystemCallScan::no);
  CHECK(hydra::capture::scan_system_call_bytes(text) == hydra::capture::SystemCallScan::no);

  const auto objdump = hydra::util::find_program("objdump");
  REQUIRE(objdump);
  bool failed = false;
  const auto issuing = hydra::capture::objects_issuing_system_calls(
      {raw.string(), immediate.string(), library.string(), text.string()}, *objdump, failed);
  CHECK_FALSE(failed);
  CHECK(issuing == std::set<std::string>{raw.string()});
}
