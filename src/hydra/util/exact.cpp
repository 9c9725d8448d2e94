#include <hydra/util/exact.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

namespace hydra::util {

namespace {

bool is_digit(char character) { return character >= '0' && character <= '9'; }

/// 10^exponent as an integer.
mpz_class power_of_ten(unsigned long exponent) {
  mpz_class result;
  mpz_ui_pow_ui(result.get_mpz_t(), 10, exponent);
  return result;
}

/// A decimal: [sign] digits [. digits] [e|E [sign] digits], at least one digit
/// in the mantissa; nullopt otherwise.
std::optional<mpq_class> parse_decimal(std::string_view text) {
  std::size_t at = 0;
  bool negative = false;
  if (at < text.size() && (text[at] == '-' || text[at] == '+')) negative = text[at++] == '-';
  std::string digits;
  long fraction_digits = 0;
  while (at < text.size() && is_digit(text[at])) digits += text[at++];
  if (at < text.size() && text[at] == '.') {
    ++at;
    while (at < text.size() && is_digit(text[at])) {
      digits += text[at++];
      ++fraction_digits;
    }
  }
  if (digits.empty()) return std::nullopt;
  long exponent = 0;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    bool exponent_negative = false;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) exponent_negative = text[at++] == '-';
    const char* first = text.data() + at;
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, exponent);
    if (error != std::errc() || end == first || exponent > 100000) return std::nullopt;
    at += static_cast<std::size_t>(end - first);
    if (exponent_negative) exponent = -exponent;
  }
  if (at != text.size()) return std::nullopt;
  mpq_class value(mpz_class(digits, 10));
  const long scale = exponent - fraction_digits;
  if (scale > 0) value *= power_of_ten(static_cast<unsigned long>(scale));
  if (scale < 0) value /= power_of_ten(static_cast<unsigned long>(-scale));
  value.canonicalize();
  if (negative) value = -value;
  return value;
}

}  // namespace

Exact::Exact(double value) {
  if (!std::isfinite(value)) throw std::domain_error("not a finite number");
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  if (error != std::errc()) throw std::domain_error("cannot print the number");
  value_ = *parse_decimal(std::string_view(text, static_cast<std::size_t>(end - text)));
}

void Exact::set_integer(std::int64_t value) {
  if (value >= 0) {
    set_unsigned(static_cast<std::uint64_t>(value));
    return;
  }
  set_unsigned(static_cast<std::uint64_t>(-(value + 1)) + 1);
  value_ = -value_;
}

void Exact::set_unsigned(std::uint64_t value) {
  static_assert(sizeof(unsigned long) == sizeof(std::uint64_t), "GMP's unsigned long holds 64 bits");
  mpq_set_ui(value_.get_mpq_t(), static_cast<unsigned long>(value), 1);
}

Exact Exact::ratio(const Exact& numerator, const Exact& denominator) {
  Exact result = numerator;
  result /= denominator;
  return result;
}

std::optional<Exact> Exact::parse(std::string_view text) {
  const std::size_t slash = text.find('/');
  Exact result;
  if (slash == std::string_view::npos) {
    auto value = parse_decimal(text);
    if (!value) return std::nullopt;
    result.value_ = *value;
    return result;
  }
  const auto numerator = parse_decimal(text.substr(0, slash));
  const auto denominator = parse_decimal(text.substr(slash + 1));
  if (!numerator || !denominator || sgn(*denominator) == 0) return std::nullopt;
  result.value_ = *numerator / *denominator;
  result.value_.canonicalize();
  return result;
}

std::string Exact::text() const { return value_.get_str(10); }

double Exact::to_double() const {
  // mpq_get_d truncates toward zero: the nearest double is it or its
  // neighbour away from zero, whichever is closer (ties: the even one).
  const double truncated = value_.get_d();
  if (mpq_class(truncated) == value_) return truncated;
  const double away = std::nextafter(truncated, sgn(value_) > 0 ? std::numeric_limits<double>::infinity()
                                                                 : -std::numeric_limits<double>::infinity());
  if (!std::isfinite(away)) return away;
  const mpq_class to_truncated = abs(value_ - mpq_class(truncated));
  const mpq_class to_away = abs(mpq_class(away) - value_);
  const int order = cmp(to_truncated, to_away);
  if (order < 0) return truncated;
  if (order > 0) return away;
  std::uint64_t bits = 0;
  static_assert(sizeof bits == sizeof truncated);
  std::memcpy(&bits, &truncated, sizeof bits);
  return (bits & 1) == 0 ? truncated : away;
}

Exact Exact::rounded(int decimals) const {
  if (decimals < 0) throw std::domain_error("rounded: negative number of decimals");
  const mpz_class scale = power_of_ten(static_cast<unsigned long>(decimals));
  const mpq_class magnitude = abs(value_) * scale;
  // floor(|x| * 10^d + 1/2): half away from zero.
  mpz_class units = (2 * magnitude.get_num() + magnitude.get_den()) / (2 * magnitude.get_den());
  Exact result;
  result.value_ = mpq_class(units, scale);
  result.value_.canonicalize();
  if (sgn(value_) < 0) result.value_ = -result.value_;
  return result;
}

std::string Exact::fixed(int decimals) const {
  const Exact shown = rounded(decimals);
  const mpq_class scaled = abs(shown.value_ * power_of_ten(static_cast<unsigned long>(decimals)));
  const mpz_class units = scaled.get_num();  // an integer: its denominator is 1
  std::string digits = units.get_str(10);
  const auto width = static_cast<std::size_t>(decimals);
  if (digits.size() <= width) digits.insert(0, width + 1 - digits.size(), '0');
  std::string text = shown.sign() < 0 ? "-" : "";
  text += digits.substr(0, digits.size() - width);
  if (decimals > 0) text += "." + digits.substr(digits.size() - width);
  return text;
}

int Exact::sign() const { return sgn(value_); }

Exact Exact::operator-() const {
  Exact result;
  result.value_ = -value_;
  return result;
}

Exact& Exact::operator+=(const Exact& other) {
  value_ += other.value_;
  return *this;
}

Exact& Exact::operator-=(const Exact& other) {
  value_ -= other.value_;
  return *this;
}

Exact& Exact::operator*=(const Exact& other) {
  value_ *= other.value_;
  return *this;
}

Exact& Exact::operator/=(const Exact& other) {
  if (sgn(other.value_) == 0) throw std::domain_error("division by 0");
  value_ /= other.value_;
  return *this;
}

Exact clamp(const Exact& value, const Exact& low, const Exact& high) {
  if (value < low) return low;
  if (high < value) return high;
  return value;
}

std::pair<std::string, std::string> fixed_apart(const Exact& first, const Exact& second, int decimals) {
  for (int shown = decimals; shown <= decimals + 12; ++shown) {
    std::string first_text = first.fixed(shown);
    std::string second_text = second.fixed(shown);
    if (first_text != second_text || first == second) return {std::move(first_text), std::move(second_text)};
  }
  return {first.text(), second.text()};
}

std::ostream& operator<<(std::ostream& out, const Exact& value) { return out << value.text(); }

void to_json(nlohmann::json& json, const Exact& value) { json = value.to_double(); }

}  // namespace hydra::util
