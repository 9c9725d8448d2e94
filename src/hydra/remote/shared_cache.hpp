// A capture's view of a shared storage (storage.hpp): entries of one
// namespace, each verified when read, written only by a capture the trust
// model lets write, and never a reason for a capture to fail or to differ
// (docs/caches.md, docs/threat-model.md "Shared caches").
//
//  - Every entry carries the SHA-256 of its payload; one that does not
//    verify is a miss (counted as corrupt), never a result.
//  - The first failure of the service (unreachable, refused, timed out, out
//    of memory) ends its use for this capture: every later lookup is a local
//    miss at once, and the reason is kept for the report.
//  - A reader never writes. Captures of a trusted base are writers;
//    candidates' captures are readers (their code ran, so what they produced
//    could be forged), and nothing a step inside the sandbox does reaches
//    the service, which has no network and no address of it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "hydra/remote/storage.hpp"

namespace hydra::remote {

enum class Role { reader, writer };

struct SharedCacheStats {
  std::uint64_t lookups = 0;  ///< gets that went to the service
  std::uint64_t hits = 0;     ///< of them, verified entries
  std::uint64_t corrupt = 0;  ///< of them, entries that did not verify (misses)
  std::uint64_t writes = 0;   ///< entries written
  std::string unavailable;    ///< non-empty: why the service stopped being used
};

class SharedCache {
 public:
  /// `address`: where (connected at the first use); `space`: the namespace
  /// every key is under (plain words, storage.hpp's key rule).
  SharedCache(Address address, Limits limits, std::string space, Role role);
  ~SharedCache();

  Role role() const { return role_; }
  const Address& address() const { return address_; }

  /// The verified payload under `key`, or nothing (absent, corrupt, or the
  /// service unavailable).
  std::optional<std::string> get(const std::string& key);
  /// Writes `payload` under `key`; false for a reader or when the service is
  /// unavailable (the capture goes on).
  bool put(const std::string& key, std::string_view payload);

  SharedCacheStats stats() const;

 private:
  Storage* storage();  ///< connected storage, or null once unavailable (mutex held)
  void give_up(const std::string& reason);

  Address address_;
  Limits limits_;
  std::string space_;
  Role role_;
  mutable std::mutex mutex_;
  std::unique_ptr<Storage> storage_;
  SharedCacheStats stats_;
};

/// The framed entry for `payload` (a header with its SHA-256), and the
/// payload of a framed entry when it verifies. Pure.
std::string frame_entry(std::string_view payload);
std::optional<std::string> unframe_entry(std::string_view entry);

/// What moving a folder through the cache did.
struct FolderTransfer {
  std::uint64_t files = 0;     ///< files the index lists (publish: files sent)
  std::uint64_t fetched = 0;   ///< files written into the folder
  std::uint64_t present = 0;   ///< files already there with the right content
  std::uint64_t missing = 0;   ///< listed, but absent or corrupt in the cache
};

/// Sends every regular file of `folder` (keys `files/<relative path>`) and an
/// index of them (`index/<index>`) to `cache`; nothing for a reader.
FolderTransfer publish_folder(SharedCache& cache, const std::filesystem::path& folder, const std::string& index);

/// Writes into `folder` every file `index/<index>` lists whose content the
/// cache holds and whose SHA-256 is the one the index gives; existing files
/// are left alone. A file is written atomically.
FolderTransfer fetch_folder(SharedCache& cache, const std::string& index, const std::filesystem::path& folder);

}  // namespace hydra::remote
