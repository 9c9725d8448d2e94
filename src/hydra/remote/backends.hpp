// The backends of storage.hpp, one file each.
#pragma once

#include <memory>
#include <string>

#include "hydra/remote/storage.hpp"

namespace hydra::remote {

/// Whether `key` is a relative path of plain words (letters, digits, '.',
/// '_', '-', parts joined by '/', none "." or ".."): every backend's keys are.
bool is_valid_key(const std::string& key);

std::unique_ptr<Storage> open_redis(const Address& address, const Limits& limits);
std::unique_ptr<Storage> open_http(const Address& address, const Limits& limits);

}  // namespace hydra::remote
