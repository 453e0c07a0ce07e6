#include "revwave/core/checks.hpp"

#include <charconv>
#include <cmath>

namespace revwave {

bool Range::admits(double v) const {
  if (!std::isfinite(v)) return false;
  if (lo_open ? !(v > lo) : !(v >= lo)) return false;
  if (hi_open ? !(v < hi) : !(v <= hi)) return false;
  return true;
}

std::string Range::text() const {
  const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
  if (has_lo && has_hi) {
    return std::string("in ") + (lo_open ? "(" : "[") + number_text(lo) + ", " + number_text(hi) +
           (hi_open ? ")" : "]");
  }
  if (has_lo) return std::string("finite and ") + (lo_open ? "> " : ">= ") + number_text(lo);
  if (has_hi) return std::string("finite and ") + (hi_open ? "< " : "<= ") + number_text(hi);
  return "finite";
}

Range finite() { return {}; }
Range positive() { return {0.0, std::numeric_limits<double>::infinity(), true, false}; }
Range non_negative() { return {0.0, std::numeric_limits<double>::infinity(), false, false}; }
Range within(double lo, double hi) { return {lo, hi, false, false}; }
Range from_below(double lo, double hi) { return {lo, hi, false, true}; }

std::string IntRange::text() const {
  constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min(), max = std::numeric_limits<std::int64_t>::max();
  if (lo != min && hi != max) return "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (lo != min) return "an integer >= " + std::to_string(lo);
  if (hi != max) return "an integer <= " + std::to_string(hi);
  return "an integer";
}

IntRange at_least(std::int64_t lo) { return {lo, std::numeric_limits<std::int64_t>::max()}; }
IntRange int_within(std::int64_t lo, std::int64_t hi) { return {lo, hi}; }

bool read_double(const std::string& text, double& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  if (first == last || (first != text.data() && *first == '-')) return false;
  const auto r = std::from_chars(first, last, out);
  // result_out_of_range: the literal overflows a double (1e400) or underflows; refuse both.
  return r.ec == std::errc() && r.ptr == last;
}

bool read_int64(const std::string& text, std::int64_t& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  if (first == last || (first != text.data() && *first == '-')) return false;
  const auto r = std::from_chars(first, last, out, 10);
  return r.ec == std::errc() && r.ptr == last;
}

std::string number_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string rule_violation(const std::string& what, double value, const Range& rule, const std::string& unit) {
  if (rule.admits(value)) return {};
  return what + " " + number_text(value) + (unit.empty() ? "" : " " + unit) + " is invalid: it must be " + rule.text();
}

std::string rule_violation(const std::string& what, std::int64_t value, const IntRange& rule) {
  if (rule.admits(value)) return {};
  return what + " " + std::to_string(value) + " is invalid: it must be " + rule.text();
}

namespace {

template <class U>
std::string product_text(std::initializer_list<U> factors) {
  std::string s;
  for (U f : factors) s += (s.empty() ? "" : " x ") + std::to_string(f);
  return s;
}

}  // namespace

namespace {

template <class T>
void finite_or_throw(const T* values, std::size_t count, const std::string& what) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) {
      throw NonFiniteError(what + " is not finite (" + number_text(static_cast<double>(values[i])) + " at index " +
                           std::to_string(i) +
                           ") although every input passed its checks; nothing was written "
                           "(float overflow on extreme values? try --precision double)");
    }
  }
}

}  // namespace

void check_finite_result(const double* values, std::size_t count, const std::string& what) {
  finite_or_throw(values, count, what);
}
void check_finite_result(const float* values, std::size_t count, const std::string& what) {
  finite_or_throw(values, count, what);
}

std::int64_t checked_product(std::initializer_list<std::int64_t> factors, const std::string& what) {
  std::int64_t p = 1;
  for (std::int64_t f : factors) {
    if (f < 0) throw InputError(what + ": " + product_text(factors) + " has a negative factor");
    if (__builtin_mul_overflow(p, f, &p)) {
      throw InputError(what + ": " + product_text(factors) + " exceeds the limit of 2^63 - 1");
    }
  }
  return p;
}

std::size_t checked_bytes(std::initializer_list<std::size_t> factors, const std::string& what) {
  std::size_t p = 1;
  for (std::size_t f : factors) {
    if (__builtin_mul_overflow(p, f, &p)) {
      throw InputError(what + ": " + product_text(factors) + " bytes exceeds the limit of 2^64 - 1 bytes");
    }
  }
  return p;
}

std::size_t checked_sum(std::size_t a, std::size_t b, const std::string& what) {
  std::size_t s = 0;
  if (__builtin_add_overflow(a, b, &s)) {
    throw InputError(what + ": " + std::to_string(a) + " + " + std::to_string(b) +
                     " bytes exceeds the limit of 2^64 - 1 bytes");
  }
  return s;
}

}  // namespace revwave
