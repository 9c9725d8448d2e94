// Regular expressions: the one engine every pattern of the tool goes through.
//
// RE2 (Debian libre2-dev): matching takes time linear in the text and never
// recurses, so neither a pattern from hydra.toml (30,000 nested parentheses)
// nor a long line of a candidate's diff can blow the stack or take
// exponential time, as std::regex could. The syntax is RE2's
// (https://github.com/google/re2/wiki/Syntax): Perl-like, without
// backreferences or lookaround.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace hydra::util {

class Regex {
 public:
  /// Compiles `pattern`; a pattern that does not compile leaves ok() false
  /// and error() saying why (nothing is thrown, so callers can name the key).
  explicit Regex(std::string_view pattern, bool ignore_case = false);
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;
  ~Regex();

  bool ok() const;
  const std::string& error() const { return error_; }

  /// True when the pattern matches somewhere in `text` (always false when
  /// the pattern did not compile).
  bool search(std::string_view text) const;
  /// The same, filling `groups` with the whole match ([0]) and each
  /// capturing group (empty when the group did not take part).
  bool search(std::string_view text, std::vector<std::string_view>& groups) const;

 private:
  std::unique_ptr<re2::RE2> re_;
  std::string error_;
};

/// Why `pattern` does not compile, or "" when it does.
std::string regex_error(std::string_view pattern);

}  // namespace hydra::util
