// Parsing storage addresses, and the folder backend (storage.hpp). Redis and
// HTTP live in redis_storage.cpp and http_storage.cpp.
#include "hydra/remote/storage.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>

#include "hydra/error.hpp"
#include "hydra/remote/backends.hpp"
#include "hydra/util/text.hpp"

namespace hydra::remote {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void bad_address(std::string_view url, const std::string& why) {
  throw Error("shared storage address '" + std::string(url) + "': " + why);
}

int parse_number(std::string_view url, std::string_view text, const char* what, int low, int high) {
  int value = 0;
  const auto* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || value < low || value > high)
    bad_address(url, std::string("the ") + what + " '" + std::string(text) + "' is not a number from " +
                         std::to_string(low) + " to " + std::to_string(high));
  return value;
}

/// "HOST[:PORT]" into the address.
void parse_host(std::string_view url, std::string_view authority, int default_port, Address& address) {
  const auto colon = authority.rfind(':');
  address.host = std::string(authority.substr(0, colon));
  address.port = colon == std::string_view::npos ? default_port
                                                 : parse_number(url, authority.substr(colon + 1), "port", 1, 65535);
  if (address.host.empty()) bad_address(url, "no host");
}

/// The URL with its password replaced by "***".
std::string masked(std::string_view url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::string(url);
  const auto at = url.find('@', scheme_end + 3);
  const auto slash = url.find('/', scheme_end + 3);
  if (at == std::string_view::npos || (slash != std::string_view::npos && at > slash)) return std::string(url);
  return std::string(url.substr(0, scheme_end + 3)) + "***" + std::string(url.substr(at));
}

}  // namespace

Address parse_address(std::string_view url) {
  Address address;
  address.url = masked(url);
  if (util::starts_with(url, "file:")) {
    std::string_view rest = url.substr(5);
    if (util::starts_with(rest, "//")) rest.remove_prefix(2);
    address.kind = Address::Kind::file;
    address.path = fs::path(std::string(rest));
    if (!address.path.is_absolute()) bad_address(address.url, "a file: address names an absolute folder");
    return address;
  }
  if (util::starts_with(url, "redis+unix:")) {
    std::string_view rest = url.substr(11);
    if (util::starts_with(rest, "//")) rest.remove_prefix(2);
    const auto query = rest.find('?');
    if (query != std::string_view::npos) {
      const auto parameter = rest.substr(query + 1);
      if (!util::starts_with(parameter, "db=")) bad_address(address.url, "the only parameter is db=N");
      address.database = parse_number(address.url, parameter.substr(3), "database", 0, 1 << 20);
      rest = rest.substr(0, query);
    }
    address.kind = Address::Kind::redis_unix;
    address.path = fs::path(std::string(rest));
    if (!address.path.is_absolute()) bad_address(address.url, "a redis+unix: address names an absolute socket path");
    return address;
  }
  if (util::starts_with(url, "redis://")) {
    address.kind = Address::Kind::redis;
    std::string_view rest = url.substr(8);
    const auto slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    if (slash != std::string_view::npos && slash + 1 < rest.size())
      address.database = parse_number(address.url, rest.substr(slash + 1), "database", 0, 1 << 20);
    const auto at = authority.rfind('@');
    if (at != std::string_view::npos) {
      const auto credentials = authority.substr(0, at);
      const auto colon = credentials.find(':');
      if (colon == std::string_view::npos) {
        address.password = std::string(credentials);
      } else {
        address.user = std::string(credentials.substr(0, colon));
        address.password = std::string(credentials.substr(colon + 1));
      }
      authority = authority.substr(at + 1);
    }
    parse_host(address.url, authority, 6379, address);
    return address;
  }
  if (util::starts_with(url, "http://")) {
    address.kind = Address::Kind::http;
    const std::string_view rest = url.substr(7);
    const auto slash = rest.find('/');
    parse_host(address.url, rest.substr(0, slash), 80, address);
    address.prefix = std::string(url);
    if (address.prefix.back() != '/') address.prefix += '/';
    return address;
  }
  bad_address(address.url, "expected file:, redis://, redis+unix: or http://");
}

namespace {

/// A key is a relative path of plain words: letters, digits, '.', '_', '-',
/// and '/' between non-empty parts that are not "." or "..".
bool valid_key(const std::string& key) {
  if (key.empty() || key.front() == '/' || key.back() == '/') return false;
  for (const char c : key) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                       c == '_' || c == '-' || c == '/';
    if (!plain) return false;
  }
  for (const auto& part : util::split(key, '/'))
    if (part.empty() || part == "." || part == "..") return false;
  return true;
}

class FolderStorage final : public Storage {
 public:
  explicit FolderStorage(fs::path folder) : folder_(std::move(folder)) {}

  std::optional<std::string> get(const std::string& key) override {
    const auto file = entry(key);
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::error_code error;
      if (!fs::exists(file, error) && !error) return std::nullopt;
      throw Error("shared storage " + folder_.string() + ": cannot read " + file.string());
    }
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) throw Error("shared storage " + folder_.string() + ": cannot read " + file.string());
    return bytes.str();
  }

  void put(const std::string& key, std::string_view value) override {
    const auto file = entry(key);
    std::error_code error;
    fs::create_directories(file.parent_path(), error);
    if (error) throw Error("shared storage " + folder_.string() + ": cannot create " + file.parent_path().string());
    // A temporary file of this process, renamed over the entry: a reader sees
    // the old entry or the new one, never half of one.
    const auto temporary = file.string() + ".tmp-" + std::to_string(::getpid());
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out.write(value.data(), static_cast<std::streamsize>(value.size()));
      out.close();
      if (!out) {
        fs::remove(temporary, error);
        throw Error("shared storage " + folder_.string() + ": cannot write " + file.string());
      }
    }
    fs::rename(temporary, file, error);
    if (error) {
      fs::remove(temporary, error);
      throw Error("shared storage " + folder_.string() + ": cannot write " + file.string());
    }
  }

 private:
  fs::path entry(const std::string& key) const {
    if (!valid_key(key)) throw Error("shared storage: invalid key '" + key + "'");
    return folder_ / key;
  }

  fs::path folder_;
};

}  // namespace

bool is_valid_key(const std::string& key) { return valid_key(key); }

std::unique_ptr<Storage> open_storage(const Address& address, const Limits& limits) {
  switch (address.kind) {
    case Address::Kind::file:
      return std::make_unique<FolderStorage>(address.path);
    case Address::Kind::redis:
    case Address::Kind::redis_unix:
      return open_redis(address, limits);
    case Address::Kind::http:
      return open_http(address, limits);
  }
  throw Error("shared storage " + address.url + ": unknown kind");
}

}  // namespace hydra::remote
