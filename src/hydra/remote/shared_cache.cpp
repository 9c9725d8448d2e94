// A capture's view of a shared storage (shared_cache.hpp).
#include "hydra/remote/shared_cache.hpp"

#include <fstream>
#include <sstream>

#include <unistd.h>

#include "hydra/error.hpp"
#include "hydra/remote/backends.hpp"
#include "hydra/util/sha256.hpp"
#include "hydra/util/text.hpp"

namespace hydra::remote {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "hydra-shared-entry 1\n";

}  // namespace

std::string frame_entry(std::string_view payload) {
  std::string entry(kMagic);
  entry += util::sha256_hex(payload);
  entry += '\n';
  entry.append(payload.data(), payload.size());
  return entry;
}

std::optional<std::string> unframe_entry(std::string_view entry) {
  constexpr std::size_t digest_size = 64;
  if (!util::starts_with(entry, kMagic) || entry.size() < kMagic.size() + digest_size + 1) return std::nullopt;
  const auto digest = entry.substr(kMagic.size(), digest_size);
  if (entry[kMagic.size() + digest_size] != '\n') return std::nullopt;
  const auto payload = entry.substr(kMagic.size() + digest_size + 1);
  if (util::sha256_hex(payload) != digest) return std::nullopt;
  return std::string(payload);
}

SharedCache::SharedCache(Address address, Limits limits, std::string space, Role role)
    : address_(std::move(address)), limits_(limits), space_(std::move(space)), role_(role) {
  if (!is_valid_key(space_)) throw Error("shared storage: invalid namespace '" + space_ + "'");
}

SharedCache::~SharedCache() = default;

Storage* SharedCache::storage() {
  if (!stats_.unavailable.empty()) return nullptr;
  if (!storage_) {
    try {
      storage_ = open_storage(address_, limits_);
    } catch (const Error& error) {
      give_up(error.what());
      return nullptr;
    }
  }
  return storage_.get();
}

void SharedCache::give_up(const std::string& reason) {
  stats_.unavailable = reason.empty() ? "unavailable" : reason;
  storage_.reset();
}

std::optional<std::string> SharedCache::get(const std::string& key) {
  const std::lock_guard lock(mutex_);
  auto* service = storage();
  if (!service) return std::nullopt;
  ++stats_.lookups;
  std::optional<std::string> entry;
  try {
    entry = service->get(space_ + "/" + key);
  } catch (const Error& error) {
    give_up(error.what());
    return std::nullopt;
  }
  if (!entry) return std::nullopt;
  auto payload = unframe_entry(*entry);
  if (!payload) {
    ++stats_.corrupt;
    return std::nullopt;
  }
  ++stats_.hits;
  return payload;
}

bool SharedCache::put(const std::string& key, std::string_view payload) {
  if (role_ != Role::writer) return false;
  const std::lock_guard lock(mutex_);
  auto* service = storage();
  if (!service) return false;
  try {
    service->put(space_ + "/" + key, frame_entry(payload));
  } catch (const Error& error) {
    give_up(error.what());
    return false;
  }
  ++stats_.writes;
  return true;
}

SharedCacheStats SharedCache::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

namespace {

std::optional<std::string> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return bytes.str();
}

bool write_file_atomically(const fs::path& file, std::string_view bytes) {
  std::error_code error;
  fs::create_directories(file.parent_path(), error);
  if (error) return false;
  const auto temporary = file.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, error);
      return false;
    }
  }
  fs::rename(temporary, file, error);
  if (error) fs::remove(temporary, error);
  return !error;
}

}  // namespace

FolderTransfer publish_folder(SharedCache& cache, const fs::path& folder, const std::string& index) {
  FolderTransfer transfer;
  if (cache.role() != Role::writer) return transfer;
  std::string listing;
  std::error_code error;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_regular_file(error) || it->is_symlink(error)) continue;
    const auto relative = fs::relative(it->path(), folder, error).generic_string();
    if (error || !is_valid_key(relative)) continue;
    const auto bytes = read_file(it->path());
    if (!bytes) continue;
    if (!cache.put("files/" + relative, *bytes)) return transfer;  // the service is gone: no index
    ++transfer.files;
    listing += relative + '\t' + util::sha256_hex(*bytes) + '\n';
  }
  cache.put("index/" + index, listing);
  return transfer;
}

FolderTransfer fetch_folder(SharedCache& cache, const std::string& index, const fs::path& folder) {
  FolderTransfer transfer;
  const auto listing = cache.get("index/" + index);
  if (!listing) return transfer;
  for (const auto line : util::split(*listing, '\n')) {
    const auto tab = line.find('\t');
    if (tab == std::string_view::npos) continue;
    const std::string relative(line.substr(0, tab));
    const auto digest = line.substr(tab + 1);
    if (!is_valid_key(relative)) continue;
    ++transfer.files;
    const auto target = folder / relative;
    if (const auto existing = read_file(target); existing && util::sha256_hex(*existing) == digest) {
      ++transfer.present;
      continue;
    }
    const auto bytes = cache.get("files/" + relative);
    if (!bytes || util::sha256_hex(*bytes) != digest || !write_file_atomically(target, *bytes)) {
      ++transfer.missing;
      continue;
    }
    ++transfer.fetched;
  }
  return transfer;
}

}  // namespace hydra::remote
