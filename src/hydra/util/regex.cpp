#include <hydra/util/regex.hpp>

#include <re2/re2.h>

namespace hydra::util {

Regex::Regex(std::string_view pattern, bool ignore_case) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_case_sensitive(!ignore_case);
  re_ = std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re_->ok()) error_ = re_->error();
}

Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;
Regex::~Regex() = default;

bool Regex::ok() const { return re_ && re_->ok(); }

bool Regex::search(std::string_view text) const {
  if (!ok()) return false;
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

bool Regex::search(std::string_view text, std::vector<std::string_view>& groups) const {
  groups.clear();
  if (!ok()) return false;
  std::vector<re2::StringPiece> pieces(static_cast<std::size_t>(re_->NumberOfCapturingGroups()) + 1);
  const re2::StringPiece input(text.data(), text.size());
  if (!re_->Match(input, 0, input.size(), RE2::UNANCHORED, pieces.data(), static_cast<int>(pieces.size())))
    return false;
  groups.reserve(pieces.size());
  for (const re2::StringPiece& piece : pieces) groups.emplace_back(piece.data(), piece.size());
  return true;
}

std::string regex_error(std::string_view pattern) { return Regex(pattern).error(); }

}  // namespace hydra::util
