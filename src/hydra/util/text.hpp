// Splitting text into fields: lines of a log, NUL-separated git output.
#pragma once

#include <string_view>
#include <vector>

namespace hydra::util {

/// The fields of `text` between `separator`s, as views into `text`. A
/// separator at the very end ends the last field (no empty field after it);
/// empty fields in between are kept, so field k of a line split is line k+1.
/// Empty text has no fields.
std::vector<std::string_view> split(std::string_view text, char separator);

}  // namespace hydra::util
