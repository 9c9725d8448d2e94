// Objects that issue system calls themselves: a `syscall`, `sysenter` or
// `int $0x80` instruction (x86-64) or an `svc` (AArch64) in an executable
// section. Such code reaches the kernel past every symbol the object
// reference catalogue names (prctl, getppid, open of /proc/1/...), so the
// instruction is a reference of its own ("system call instruction",
// guard/process_references.hpp). The executable sections of each ELF object
// are read directly; on AArch64 an aligned `svc` word is the instruction;
// on x86-64, where a byte pair may sit inside a longer instruction, the
// objects with a candidate pair are disassembled (binutils `objdump`) to
// confirm it.
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>
#include <set>
#include <string>
#include <vector>

namespace hydra::capture {

/// The name the object reference catalogue gives the instruction.
inline constexpr const char* kSystemCallInstruction = "system call instruction";

/// Where a byte scan of `object`'s executable sections finds a system-call
/// instruction: "yes" (AArch64 `svc`), "maybe" (an x86-64 byte pair that
/// disassembly must confirm) or "no" (also for what is no ELF object).
enum class SystemCallScan { no, maybe, yes };
SystemCallScan scan_system_call_bytes(const std::filesystem::path& object);

/// Runs `objdump OPTIONS OBJECT...` over `objects` in batches and gives
/// `on_line` each line of its output with the object it belongs to (the
/// part each "<object>:     file format ..." line starts). False when
/// objdump could not read one of them.
bool objdump_each(const std::filesystem::path& objdump, const std::vector<std::string>& options,
                  const std::vector<std::string>& objects,
                  const std::function<void(const std::string& object, std::string_view line)>& on_line);

/// Of `objects`, those that issue system calls themselves; `objdump`
/// disassembles the ones whose bytes say "maybe". `failed` is set when it
/// could not read one of them.
std::set<std::string> objects_issuing_system_calls(const std::vector<std::string>& objects,
                                                   const std::filesystem::path& objdump, bool& failed);

}  // namespace hydra::capture
