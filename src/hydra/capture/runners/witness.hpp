// The verdict witness (docs/threat-model.md, "Code under test vouching for
// itself"): what a test program's `main` really returned, taken by a small
// library the test launcher preloads into every dynamically linked program
// it runs (tool/verdict_witness.c) and told to the launcher through a pipe
// the launcher holds, before any exit handler or destructor of the program
// runs. A process that then ends with success although its witness saw
// `main` fail was rewritten from inside: tampering.
//
// Canaries make the witness checkable: before a judged program's tests, the
// launcher runs it twice more with `main` replaced by `return 1` and by
// `return 0` (after its static initializers ran); the first must fail and
// the second pass, each with its witness speaking. A wrong result (an exit
// handler that rewrites the status) or a silent witness where one was
// expected invalidates the program's tests. One canary pair per program
// file (path, size, modification time) and ctest run, shared by parallel
// launchers through a file lock.
//
// Parsing and judging are pure; the rest reads files.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hydra::capture {

/// The variable the launcher sets for the program: "<fd>:<token>:<mode>".
inline constexpr const char* kWitnessVariable = "HYDRA_SCORE_WITNESS";
/// The library's file name (beside hydra-score in the build tree).
inline constexpr const char* kWitnessLibraryName = "libhydra-score-witness.so";

/// What the witness of the process `pid` said (its lines carry `token`).
struct WitnessReport {
  bool loaded = false;            ///< its "hello" arrived
  std::optional<int> result;      ///< main's return or exit()'s argument, the first one
  std::vector<std::string> forged;  ///< lines without the token, or a second result
};
WitnessReport parse_witness(const std::string& text, const std::string& token, long pid);

/// Why the process's end (`wait_status`, as waitpid gives it) disagrees
/// with its witness in the direction that would turn a failure into a
/// pass; nullopt when it does not (no witness: the status stands; a failure
/// after main succeeded, as a leak checker's, stands too).
///
/// `result_expected`: the process is a test's own dynamically linked
/// program, started directly, so its witness must report main's return or
/// an exit call. Loaded but silent, with exit status 0, it ended by a path
/// that bypasses both (the main thread's pthread_exit, a raw exit_group
/// system call, libc's real _exit looked up past the witness, exec of
/// another image): tampering. Not expected of a shell or `cmake -E`, which
/// may exec the command they run.
std::optional<std::string> witness_disagreement(const WitnessReport& witness, int wait_status,
                                                bool result_expected = false);

/// Canary modes and what one canary run must show.
enum class CanaryMode { must_fail, must_pass };
/// Why the canary run in `mode` went wrong; nullopt when right. A
/// `witness_expected` run whose witness is silent is wrong too.
std::optional<std::string> canary_problem(CanaryMode mode, const WitnessReport& witness, int wait_status,
                                          bool witness_expected);

/// Whether `program` is an ELF executable, and whether it names a dynamic
/// loader (PT_INTERP: the witness is loaded into it).
struct ElfKind {
  bool elf = false;
  bool dynamic = false;
  /// It needs a sanitizer's runtime (libasan, libtsan, libhwasan, liblsan),
  /// which must come first among its libraries: no witness is preloaded.
  /// Read from its dynamic section's DT_NEEDED entries only.
  bool sanitizer = false;
};
ElfKind elf_kind(const std::filesystem::path& program);

/// Whether `program` is a test's own program: an ELF executable outside the
/// system's own folders (/usr, /bin, /sbin, /lib*, /opt), not `cmake -E` or
/// a shell. Such a program runs under a neutral name and, when dynamically
/// linked, gets canaries (judged_run.hpp).
bool gets_canaries(const std::filesystem::path& program);

/// The witness library for the hydra-score executable `self`: beside it
/// (the build tree), else the installed one; nullopt when neither exists.
std::optional<std::filesystem::path> find_witness_library(const std::filesystem::path& self);

/// A fresh secret for one run's witness lines.
std::string witness_token();

/// The verdict of `program`'s canaries for one ctest run, cached in
/// `folder` by the program's path, size and modification time: `run` (one
/// canary run in a mode; returns its problem, nullopt when right) is called
/// for both modes by the first launcher only, under a lock that parallel
/// launchers of the same program wait on. Returns the problem (empty: none).
std::string canary_verdict(const std::filesystem::path& program, const std::filesystem::path& folder,
                           const std::function<std::optional<std::string>(CanaryMode)>& run);

}  // namespace hydra::capture
