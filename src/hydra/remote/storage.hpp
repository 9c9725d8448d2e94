// Shared storage that captures on different machines read and write through
// services a team already runs (docs/caches.md): a folder (a CI system's own
// cache step restores it), a Redis server (TCP or Unix socket), or an HTTP
// server that answers GET and PUT (WebDAV, a bucket's HTTP front end).
//
// HydraScore talks to the service itself, outside the sandbox: candidate code
// runs with no network and never sees an address or a credential. The
// addresses are ccache's remote-storage URLs, so one setting names the service
// for both.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace hydra::remote {

/// Where a shared storage is, parsed from its URL:
///  - `file:/absolute/folder` (or `file:///absolute/folder`);
///  - `redis://[[USER:]PASSWORD@]HOST[:PORT][/DB]` (port 6379, db 0);
///  - `redis+unix:/path/to/socket[?db=N]`;
///  - `http://HOST[:PORT]/PREFIX` (entries at PREFIX/KEY).
struct Address {
  enum class Kind { file, redis, redis_unix, http };
  Kind kind = Kind::file;
  std::string url;              ///< as written, credentials masked (for messages)
  std::filesystem::path path;   ///< file: the folder; redis+unix: the socket
  std::string host;             ///< redis, http
  int port = 0;                 ///< redis, http
  int database = 0;             ///< redis, redis+unix
  std::string user, password;   ///< redis
  std::string prefix;           ///< http: the URL entries sit under, ending in '/'
};

/// Parses `url`; throws hydra::Error naming it when it is not one of the forms.
Address parse_address(std::string_view url);

/// How long one operation may take before the storage counts as unreachable.
struct Limits {
  std::chrono::milliseconds connect{1000};
  std::chrono::milliseconds operation{2000};
};

/// One connection to a storage. Operations throw hydra::Error on any failure
/// of the service (unreachable, timed out, refused, an unexpected answer); a
/// key that is not there is std::nullopt, not an error.
class Storage {
 public:
  virtual ~Storage() = default;
  virtual std::optional<std::string> get(const std::string& key) = 0;
  virtual void put(const std::string& key, std::string_view value) = 0;
};

/// Connects to `address`; throws hydra::Error when it cannot.
std::unique_ptr<Storage> open_storage(const Address& address, const Limits& limits);

}  // namespace hydra::remote
