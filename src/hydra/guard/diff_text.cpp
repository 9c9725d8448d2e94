#include <hydra/guard/diff_text.hpp>

#include <hydra/util/text.hpp>

#include <algorithm>
#include <iterator>

namespace hydra::guard::diff_text {

std::string trimmed(std::string_view text) { return std::string(util::trim(text, " \t\r\v\f")); }

bool is_c_family(std::string_view path) {
  const auto slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return false;
  static const char* const extensions[] = {"c",  "cc",  "cpp", "cxx", "c++", "C",   "h",   "hh",  "hpp",
                                           "hxx", "h++", "H",  "inc", "inl", "ipp", "tpp", "tcc", "ixx"};
  const std::string_view extension = name.substr(dot + 1);
  return std::any_of(std::begin(extensions), std::end(extensions),
                     [&](const char* known) { return extension == known; });
}

}  // namespace hydra::guard::diff_text
