// Objects that issue system calls themselves (system_calls.hpp).
#include <hydra/capture/cmake/system_calls.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <fstream>

#include <hydra/util/process.hpp>
#include <hydra/util/text.hpp>

namespace hydra::capture {
namespace fs = std::filesystem;

namespace {

constexpr std::uint16_t kMachineX86_64 = 62;
constexpr std::uint16_t kMachineAArch64 = 183;
constexpr std::uint32_t kSectionProgramBits = 1;
constexpr std::uint64_t kSectionExecutable = 0x4;

template <typename T>
T little_endian(const unsigned char* bytes) {
  T value = 0;
  for (std::size_t index = sizeof(T); index-- > 0;) value = static_cast<T>((value << 8) | bytes[index]);
  return value;
}

/// The bytes at [offset, offset + size) of `file`; empty when they cannot be read.
std::string read_range(std::ifstream& file, std::uint64_t offset, std::uint64_t size) {
  std::string bytes(size, '\0');
  file.seekg(static_cast<std::streamoff>(offset));
  if (!file.read(bytes.data(), static_cast<std::streamsize>(size))) return {};
  return bytes;
}

SystemCallScan scan_section(std::uint16_t machine, const std::string& bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (machine == kMachineAArch64) {
    // svc #imm16: 1101 0100 000 imm16 000 01, on a 4-byte boundary.
    for (std::size_t at = 0; at + 4 <= bytes.size(); at += 4)
      if ((little_endian<std::uint32_t>(data + at) & 0xffe0001fU) == 0xd4000001U) return SystemCallScan::yes;
    return SystemCallScan::no;
  }
  for (std::size_t at = 0; at + 2 <= bytes.size(); ++at) {
    const unsigned char first = data[at], second = data[at + 1];
    if ((first == 0x0f && (second == 0x05 || second == 0x34)) || (first == 0xcd && second == 0x80))
      return SystemCallScan::maybe;
  }
  return SystemCallScan::no;
}

/// Whether one line of `objdump -d --no-show-raw-insn` ("   9:\tsyscall")
/// is a system-call instruction.
bool system_call_line(std::string_view line) {
  const std::size_t tab = line.find('\t');
  if (tab == std::string_view::npos || line.substr(0, tab).find(':') == std::string_view::npos) return false;
  std::vector<std::string> words;
  for (const std::string_view word : util::split(line.substr(tab + 1), ' '))
    if (!word.empty() && word != "\t") words.emplace_back(word);
  for (std::size_t index = 0; index < words.size(); ++index) {
    const std::string& word = words[index];
    if (word == "syscall" || word == "sysenter") return true;
    if (word == "int") return index + 1 < words.size() && util::starts_with(words[index + 1], "$0x80");
    if (word != "lock" && word != "rex" && word != "rex.W" && word != "data16" && word != "cs" && word != "ds")
      return false;  // another instruction (prefixes are read past)
  }
  return false;
}

}  // namespace

SystemCallScan scan_system_call_bytes(const fs::path& object) {
  std::ifstream file(object, std::ios::binary);
  unsigned char header[64];
  if (!file.read(reinterpret_cast<char*>(header), sizeof header)) return SystemCallScan::no;
  // ELF, 64-bit, little-endian.
  if (std::memcmp(header, "\x7f" "ELF", 4) != 0 || header[4] != 2 || header[5] != 1) return SystemCallScan::no;
  const auto machine = little_endian<std::uint16_t>(header + 0x12);
  if (machine != kMachineX86_64 && machine != kMachineAArch64) return SystemCallScan::no;
  const auto table = little_endian<std::uint64_t>(header + 0x28);
  const auto entry_size = little_endian<std::uint16_t>(header + 0x3a);
  std::uint64_t count = little_endian<std::uint16_t>(header + 0x3c);
  if (entry_size < 64 || table == 0) return SystemCallScan::no;
  const auto entry = [&](std::uint64_t index) { return read_range(file, table + index * entry_size, 64); };
  if (count == 0) {  // more sections than the header holds: section 0's size says how many
    const std::string first = entry(0);
    if (first.size() < 64) return SystemCallScan::no;
    count = little_endian<std::uint64_t>(reinterpret_cast<const unsigned char*>(first.data()) + 0x20);
  }
  SystemCallScan found = SystemCallScan::no;
  for (std::uint64_t index = 0; index < count && index < (1U << 20); ++index) {
    const std::string bytes = entry(index);
    if (bytes.size() < 64) return found;
    const auto* section = reinterpret_cast<const unsigned char*>(bytes.data());
    if (little_endian<std::uint32_t>(section + 4) != kSectionProgramBits ||
        (little_endian<std::uint64_t>(section + 8) & kSectionExecutable) == 0)
      continue;
    const auto offset = little_endian<std::uint64_t>(section + 0x18);
    const auto size = little_endian<std::uint64_t>(section + 0x20);
    if (size == 0 || size > (std::uint64_t(1) << 32)) continue;
    const SystemCallScan scan = scan_section(machine, read_range(file, offset, size));
    if (scan == SystemCallScan::yes) return scan;
    if (scan == SystemCallScan::maybe) found = scan;
  }
  return found;
}

bool objdump_each(const fs::path& objdump, const std::vector<std::string>& options,
                  const std::vector<std::string>& objects,
                  const std::function<void(const std::string& object, std::string_view line)>& on_line) {
  const std::set<std::string> known(objects.begin(), objects.end());
  bool ok = true;
  constexpr std::size_t batch = 64;
  for (std::size_t from = 0; from < objects.size(); from += batch) {
    util::ProcessRequest request;
    request.argv = {objdump.string()};
    request.argv.insert(request.argv.end(), options.begin(), options.end());
    request.argv.insert(request.argv.end(), objects.begin() + long(from),
                        objects.begin() + long(std::min(objects.size(), from + batch)));
    request.separate_stderr = true;
    request.keep_output_bytes = std::size_t(1) << 16;  // lines go to on_line
    request.timeout = std::chrono::seconds(600);
    std::string current;
    request.on_line = [&](std::string_view line) {
      // "<object>:     file format elf64-x86-64" starts each object's part.
      if (const std::size_t at = line.find(":     file format "); at != std::string_view::npos &&
                                                                    known.count(std::string(line.substr(0, at)))) {
        current = std::string(line.substr(0, at));
        return;
      }
      if (!current.empty()) on_line(current, line);
    };
    const auto ran = util::run_process(request);
    if (!ran.started || ran.exit_code != 0) ok = false;
  }
  return ok;
}

std::set<std::string> objects_issuing_system_calls(const std::vector<std::string>& objects, const fs::path& objdump,
                                                   bool& failed) {
  std::set<std::string> issuing;
  std::vector<std::string> maybe;
  for (const std::string& object : objects) {
    const SystemCallScan scan = scan_system_call_bytes(object);
    if (scan == SystemCallScan::yes) issuing.insert(object);
    if (scan == SystemCallScan::maybe) maybe.push_back(object);
  }
  const bool read = objdump_each(objdump, {"-d", "--no-show-raw-insn"}, maybe,
                                 [&](const std::string& object, std::string_view line) {
                                   if (!issuing.count(object) && system_call_line(line)) issuing.insert(object);
                                 });
  if (!read) failed = true;
  return issuing;
}

}  // namespace hydra::capture
