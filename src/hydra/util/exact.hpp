// Exact rational numbers (GMP's mpq): for every comparison whose answer must
// not depend on floating-point rounding (ties, thresholds, limits). Values
// that arrive as decimal text become the decimal they were written as;
// ratios of counts stay exact ratios; rounding happens only when a value is
// shown (rounded(), fixed(), to_double()).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <gmpxx.h>
#include <nlohmann/json_fwd.hpp>

namespace hydra::util {

class Exact {
 public:
  /// Zero.
  Exact() = default;

  /// An integer, exactly.
  template <class Integer, std::enable_if_t<std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>, int> = 0>
  Exact(Integer value) {  // NOLINT(google-explicit-constructor): integers are exact
    if constexpr (std::is_signed_v<Integer>) {
      set_integer(static_cast<std::int64_t>(value));
    } else {
      set_unsigned(static_cast<std::uint64_t>(value));
    }
  }

  /// The decimal number `value` spells in its shortest round-trip text
  /// (std::to_chars): a number read from decimal text (hydra.toml, a JSON
  /// file, a command-line flag) becomes exactly what was written, so 0.1 is
  /// 1/10, not the binary double nearest to it. Throws std::domain_error for
  /// NaN and infinities. (A double computed by arithmetic is taken as the
  /// decimal it prints as; compute such values with Exact instead.)
  Exact(double value);  // NOLINT(google-explicit-constructor): decimal inputs convert implicitly

  /// numerator / denominator, exactly (counts: Exact::ratio(passed, total)).
  /// Throws std::domain_error when the denominator is 0.
  static Exact ratio(const Exact& numerator, const Exact& denominator);

  /// A decimal ("12.5", "-0.01", "1e-3", "3") or a fraction ("5/12") read
  /// exactly; nullopt when `text` is neither.
  static std::optional<Exact> parse(std::string_view text);

  /// The exact value as text: an integer ("7") or a reduced fraction
  /// ("5/12"); parse() reads it back unchanged.
  std::string text() const;

  /// The double nearest to the value (ties to even).
  double to_double() const;

  /// Rounded to `decimals` decimals (>= 0), half away from zero.
  Exact rounded(int decimals) const;

  /// rounded(decimals) as fixed-point text with exactly `decimals` digits
  /// after the point ("0.150000", "-3.10", "7"); never "-0".
  std::string fixed(int decimals) const;

  /// -1, 0 or +1.
  int sign() const;

  Exact operator-() const;
  Exact& operator+=(const Exact& other);
  Exact& operator-=(const Exact& other);
  Exact& operator*=(const Exact& other);
  /// Throws std::domain_error when `other` is 0.
  Exact& operator/=(const Exact& other);

  friend Exact operator+(Exact left, const Exact& right) { return left += right; }
  friend Exact operator-(Exact left, const Exact& right) { return left -= right; }
  friend Exact operator*(Exact left, const Exact& right) { return left *= right; }
  friend Exact operator/(Exact left, const Exact& right) { return left /= right; }

  friend bool operator==(const Exact& left, const Exact& right) { return cmp(left.value_, right.value_) == 0; }
  friend bool operator!=(const Exact& left, const Exact& right) { return cmp(left.value_, right.value_) != 0; }
  friend bool operator<(const Exact& left, const Exact& right) { return cmp(left.value_, right.value_) < 0; }
  friend bool operator<=(const Exact& left, const Exact& right) { return cmp(left.value_, right.value_) <= 0; }
  friend bool operator>(const Exact& left, const Exact& right) { return cmp(left.value_, right.value_) > 0; }
  friend bool operator>=(const Exact& left, const Exact& right) { return cmp(left.value_, right.value_) >= 0; }

 private:
  void set_integer(std::int64_t value);
  void set_unsigned(std::uint64_t value);

  mpq_class value_;
};

/// `value` clamped to [low, high].
Exact clamp(const Exact& value, const Exact& low, const Exact& high);

/// fixed(decimals) of two values shown side by side; when they differ but
/// would print equal, with as many more decimals (up to 12 more) as tell
/// them apart, else as exact fractions: a printed comparison stays true.
std::pair<std::string, std::string> fixed_apart(const Exact& first, const Exact& second, int decimals);

/// Writes text() (Catch2 and diagnostics print it).
std::ostream& operator<<(std::ostream& out, const Exact& value);

/// JSON holds the value as a number: to_double().
void to_json(nlohmann::json& json, const Exact& value);

}  // namespace hydra::util
