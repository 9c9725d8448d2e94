// The verdict witness (witness.hpp).
#include <hydra/capture/runners/witness.hpp>

#include <elf.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include <hydra/template_paths.hpp>
#include <hydra/util/files.hpp>
#include <hydra/util/xxh64.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

WitnessReport parse_witness(const std::string& text, const std::string& token, long pid) {
  WitnessReport report;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string kind, said;
    long from = 0;
    if (!(words >> kind >> said >> from) || said != token) {
      report.forged.push_back(line);
      continue;
    }
    if (from != pid) continue;  // a child the program forked (a death test) speaks for itself only
    if (kind == "hello") {
      report.loaded = true;
    } else if (int code = 0; kind == "result" && (words >> code)) {
      if (report.result) report.forged.push_back(line);
      else report.result = code;
    } else {
      report.forged.push_back(line);
    }
  }
  return report;
}

namespace {

std::string describe_end(int wait_status) {
  if (WIFEXITED(wait_status)) return "exited " + std::to_string(WEXITSTATUS(wait_status));
  if (WIFSIGNALED(wait_status)) return "was killed by signal " + std::to_string(WTERMSIG(wait_status));
  return "ended";
}

}  // namespace

std::optional<std::string> witness_disagreement(const WitnessReport& witness, int wait_status,
                                                bool result_expected) {
  if (!witness.forged.empty())
    return "lines that HydraScore's witness did not write reached its pipe (" + witness.forged.front() + ")";
  const bool success = WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
  if (result_expected && witness.loaded && !witness.result && success)
    return "the process exited 0, yet HydraScore's witness saw neither main return nor exit() called (it ended "
           "by a path that bypasses both: the main thread's pthread_exit, a raw exit system call, exec)";
  if (!witness.result) return std::nullopt;
  const int reported = *witness.result & 0xff;
  if (success && reported != 0)
    return "main returned " + std::to_string(*witness.result) +
           " (the program's own result, seen by HydraScore's witness), yet the process exited 0";
  return std::nullopt;
}

std::optional<std::string> canary_problem(CanaryMode mode, const WitnessReport& witness, int wait_status,
                                          bool witness_expected) {
  const std::string name = mode == CanaryMode::must_fail ? "must-fail canary" : "must-pass canary";
  if (!witness.forged.empty())
    return "the " + name + " run received lines HydraScore's witness did not write (" + witness.forged.front() + ")";
  const bool success = WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
  if (mode == CanaryMode::must_fail && success)
    return "the " + name + " (main replaced by `return 1`) exited 0: something rewrites the program's exit status";
  if (mode == CanaryMode::must_pass && !success)
    return "the " + name + " (main replaced by `return 0`) " + describe_end(wait_status);
  if (witness_expected && !witness.result)
    return "the " + name + "'s witness said nothing (" +
           std::string(witness.loaded ? "loaded, but main's result never arrived" : "it was never loaded") + ")";
  if (witness.result && (*witness.result != 0) != (mode == CanaryMode::must_fail))
    return "the " + name + "'s witness reported " + std::to_string(*witness.result);
  return std::nullopt;
}

namespace {

/// The DT_NEEDED names of a 64-bit ELF file, read as the dynamic loader
/// does: the PT_DYNAMIC segment's entries, their string table's address
/// mapped to a file offset through the PT_LOAD segments.
std::vector<std::string> needed_libraries(std::ifstream& in, const Elf64_Ehdr& header) {
  std::vector<Elf64_Phdr> segments;
  for (unsigned index = 0; index < header.e_phnum; ++index) {
    Elf64_Phdr entry{};
    in.seekg(static_cast<std::streamoff>(header.e_phoff + index * sizeof entry));
    if (!in.read(reinterpret_cast<char*>(&entry), sizeof entry)) return {};
    segments.push_back(entry);
  }
  std::vector<Elf64_Dyn> entries;
  for (const auto& segment : segments) {
    if (segment.p_type != PT_DYNAMIC) continue;
    for (std::uint64_t at = 0; at + sizeof(Elf64_Dyn) <= segment.p_filesz && entries.size() < 65536;
         at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry{};
      in.seekg(static_cast<std::streamoff>(segment.p_offset + at));
      if (!in.read(reinterpret_cast<char*>(&entry), sizeof entry) || entry.d_tag == DT_NULL) break;
      entries.push_back(entry);
    }
  }
  std::optional<std::uint64_t> table;
  for (const auto& entry : entries)
    if (entry.d_tag == DT_STRTAB)
      for (const auto& segment : segments)
        if (segment.p_type == PT_LOAD && entry.d_un.d_ptr >= segment.p_vaddr &&
            entry.d_un.d_ptr < segment.p_vaddr + segment.p_filesz)
          table = entry.d_un.d_ptr - segment.p_vaddr + segment.p_offset;
  std::vector<std::string> names;
  if (!table) return names;
  for (const auto& entry : entries) {
    if (entry.d_tag != DT_NEEDED) continue;
    in.clear();
    in.seekg(static_cast<std::streamoff>(*table + entry.d_un.d_val));
    std::string name;
    if (std::getline(in, name, '\0')) names.push_back(name);
  }
  return names;
}

}  // namespace

ElfKind elf_kind(const fs::path& program) {
  ElfKind kind;
  std::ifstream in(program, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return kind;
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return kind;
  kind.elf = true;
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_phentsize != sizeof(Elf64_Phdr)) return kind;
  for (unsigned index = 0; index < header.e_phnum; ++index) {
    Elf64_Phdr entry{};
    in.seekg(static_cast<std::streamoff>(header.e_phoff + index * sizeof entry));
    if (!in.read(reinterpret_cast<char*>(&entry), sizeof entry)) break;
    if (entry.p_type == PT_INTERP) kind.dynamic = true;
  }
  if (kind.dynamic) {
    // Only the libraries it needs count: the same words anywhere else in
    // the file (a string in its data) say nothing about its runtime.
    in.clear();
    for (const std::string& library : needed_libraries(in, header))
      for (const char* runtime : {"libasan.so", "libtsan.so", "libhwasan.so", "liblsan.so"})
        if (library.rfind(runtime, 0) == 0) kind.sanitizer = true;
  }
  return kind;
}

bool gets_canaries(const fs::path& program) {
  if (!program.is_absolute()) return false;
  const fs::path clean = program.lexically_normal();
  for (const char* system : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/snap", "/nix"})
    if (util::is_within(clean, system)) return false;
  return elf_kind(program).elf;
}

std::optional<fs::path> find_witness_library(const fs::path& self) {
  std::error_code error;
  const fs::path beside = self.parent_path() / kWitnessLibraryName;
  if (fs::is_regular_file(beside, error)) return beside;
  const fs::path installed = HYDRA_SCORE_INSTALLED_WITNESS;
  if (fs::is_regular_file(installed, error)) return installed;
  return std::nullopt;
}

std::string witness_token() {
  std::random_device device;
  std::string seed = std::to_string(device()) + ":" + std::to_string(device()) + ":" +
                     std::to_string(::getpid()) + ":" +
                     std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  return util::hex64(util::xxh64(seed)) + util::hex64(util::xxh64(seed + "#"));
}

std::string canary_verdict(const fs::path& program, const fs::path& folder,
                           const std::function<std::optional<std::string>(CanaryMode)>& run) {
  std::error_code error;
  const auto size = fs::file_size(program, error);
  const auto modified = fs::last_write_time(program, error).time_since_epoch().count();
  const std::string key = util::hex64(util::xxh64(program.string() + '\0' + std::to_string(size) + '\0' +
                                                  std::to_string(modified)));
  fs::create_directories(folder, error);
  const fs::path verdict = folder / (key + ".verdict");
  const int lock = ::open((folder / (key + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0) ::flock(lock, LOCK_EX);  // parallel launchers of one program wait for the first
  std::string problem;
  if (std::ifstream in{verdict}) {
    std::getline(in, problem);
  } else {
    for (const CanaryMode mode : {CanaryMode::must_fail, CanaryMode::must_pass})
      if (const auto wrong = run(mode); wrong && problem.empty()) problem = *wrong;
    util::write_file_atomic(verdict, problem + "\n");
  }
  if (lock >= 0) ::close(lock);
  return problem;
}

}  // namespace hydra::capture
