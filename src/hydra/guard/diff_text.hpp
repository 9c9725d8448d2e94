// Text helpers the detectors that read the change's diff share
// (diff_detectors.cpp, harness_reach.cpp). Pure.
#pragma once

#include <string>
#include <string_view>

namespace hydra::guard::diff_text {

/// `text` without leading and trailing blanks (space, tab, CR, VT, FF).
std::string trimmed(std::string_view text);

/// Whether `path` names a C or C++ source or header by its extension (a
/// file the build compiles or includes under another name is named by the
/// caller).
bool is_c_family(std::string_view path);

}  // namespace hydra::guard::diff_text
