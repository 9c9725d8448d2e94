// What binutils read of each object file the object scan looks at
// (object_references.hpp): its symbols, the strings of its data sections,
// its global definitions, whether its own instructions enter the kernel
// (system_calls.hpp) and whether it has functions of its own before or
// after main (own_constructors.hpp). Each reading depends on the object's
// bytes and the tools alone, so it is kept by content: in `<caches>/
// object-readings/`, under a SHA-256 of the tools' identities (path, device
// and inode, size, modification and status-change times) and of the
// object's bytes. An incremental capture reads again only the objects its
// build changed. The scan runs when no step that may write the build tree
// runs; still, a reading is kept only when the object's identity (device,
// inode, size, modification and status-change times) is the same after the
// tools read it as before it was hashed. Entries are written by HydraScore
// only, outside the sandbox, each with a digest of its payload, written
// atomically and trimmed oldest first; one that does not verify or decode
// is a miss.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hydra::capture {

/// What binutils say of one object, each line without the object's name.
struct ObjectReading {
  std::vector<std::string> symbols;      ///< nm -P -C
  std::vector<std::string> texts;        ///< strings -d -n 4
  std::vector<std::string> mangled;      ///< nm -g --defined-only -P
  std::vector<std::string> definitions;  ///< nm -g --defined-only -P -C
  bool issuing = false;                  ///< a system-call instruction of its own
  bool constructing = false;             ///< a function of its own before or after main

  bool operator==(const ObjectReading& other) const;
};

/// The binutils programs the readings run (found by HydraScore on its PATH).
struct ObjectTools {
  std::filesystem::path nm, strings, objdump;
};

/// The readings of `objects` (path -> reading). `failed` is set when a tool
/// could not read one of them (what it could read is answered; nothing of
/// that capture is kept). With `cache_dir`, readings are taken from and kept
/// in `<cache_dir>/object-readings/`, trimmed to `max_bytes`.
std::map<std::string, ObjectReading> read_object_files(const std::vector<std::string>& objects,
                                                       const ObjectTools& tools,
                                                       const std::optional<std::filesystem::path>& cache_dir,
                                                       bool& failed, std::uint64_t max_bytes = std::uint64_t(256) << 20);

/// The bytes of a kept reading, and the reading of such bytes (nullopt when
/// they are not one). Pure.
std::string encode_object_reading(const ObjectReading& reading);
std::optional<ObjectReading> decode_object_reading(const std::string& text);

}  // namespace hydra::capture
