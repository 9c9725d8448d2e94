// The HTTP backend of storage.hpp, through libcurl: an entry is the resource
// PREFIX/KEY, read with GET (404: not there) and written with PUT, as
// ccache's HTTP storage does, so a WebDAV folder or a bucket's HTTP front end
// serves both.
#include <algorithm>
#include <mutex>

#include <curl/curl.h>

#include "hydra/error.hpp"
#include "hydra/remote/backends.hpp"

namespace hydra::remote {

namespace {

std::once_flag curl_initialised;

size_t append_body(char* data, size_t size, size_t count, void* body) {
  static_cast<std::string*>(body)->append(data, size * count);
  return size * count;
}

struct Upload {
  std::string_view rest;
};

size_t read_upload(char* buffer, size_t size, size_t count, void* upload) {
  auto& source = static_cast<Upload*>(upload)->rest;
  const auto length = std::min(source.size(), size * count);
  std::copy_n(source.data(), length, buffer);
  source.remove_prefix(length);
  return length;
}

struct CurlDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};

class HttpStorage final : public Storage {
 public:
  HttpStorage(const Address& address, const Limits& limits) : address_(address), limits_(limits) {
    std::call_once(curl_initialised, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    handle_.reset(curl_easy_init());
    if (!handle_) throw Error("shared storage " + address_.url + ": cannot start an HTTP client");
  }

  std::optional<std::string> get(const std::string& key) override {
    std::string body;
    prepare(key);
    curl_easy_setopt(handle_.get(), CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(handle_.get(), CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(handle_.get(), CURLOPT_WRITEDATA, &body);
    const long status = perform("GET");
    if (status == 404) return std::nullopt;
    if (status / 100 != 2) throw Error("shared storage " + address_.url + ": GET answered " + std::to_string(status));
    return body;
  }

  void put(const std::string& key, std::string_view value) override {
    std::string ignored;
    Upload upload{value};
    prepare(key);
    curl_easy_setopt(handle_.get(), CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(handle_.get(), CURLOPT_READFUNCTION, read_upload);
    curl_easy_setopt(handle_.get(), CURLOPT_READDATA, &upload);
    curl_easy_setopt(handle_.get(), CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(value.size()));
    curl_easy_setopt(handle_.get(), CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(handle_.get(), CURLOPT_WRITEDATA, &ignored);
    const long status = perform("PUT");
    if (status / 100 != 2) throw Error("shared storage " + address_.url + ": PUT answered " + std::to_string(status));
  }

 private:
  void prepare(const std::string& key) {
    if (!is_valid_key(key)) throw Error("shared storage: invalid key '" + key + "'");
    curl_easy_reset(handle_.get());
    const auto url = address_.prefix + key;
    curl_easy_setopt(handle_.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle_.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle_.get(), CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(limits_.connect.count()));
    curl_easy_setopt(handle_.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(limits_.operation.count()));
    curl_easy_setopt(handle_.get(), CURLOPT_FOLLOWLOCATION, 0L);
  }

  long perform(const char* method) {
    const auto code = curl_easy_perform(handle_.get());
    if (code != CURLE_OK)
      throw Error("shared storage " + address_.url + ": " + method + " failed: " + curl_easy_strerror(code));
    long status = 0;
    curl_easy_getinfo(handle_.get(), CURLINFO_RESPONSE_CODE, &status);
    return status;
  }

  Address address_;
  Limits limits_;
  std::unique_ptr<CURL, CurlDeleter> handle_;
};

}  // namespace

std::unique_ptr<Storage> open_http(const Address& address, const Limits& limits) {
  return std::make_unique<HttpStorage>(address, limits);
}

}  // namespace hydra::remote
