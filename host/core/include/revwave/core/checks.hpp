// Range checks for numbers where they enter the program (flags, config files, sidecars, file
// headers), each failure one sentence naming the value and the rule, and overflow-checked sizes.
//
//   check_number("--spacing", h, positive(), "m")         -> "--spacing -3 m is invalid: it must be finite and > 0"
//   check_integer<IoError>(path + ": field 'nt'", nt, at_least(1))
//
// The default error is InputError (exit code 2); readers of files pass IoError (exit code 3).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"

namespace revwave {

// An interval of the real line, closed or open at each end; NaN and infinities never belong.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;
  bool admits(double v) const;
  std::string text() const;  // "finite and > 0", "in [0, 1)", "finite"
};
Range finite();
Range positive();                        // (0, inf)
Range non_negative();                    // [0, inf)
Range within(double lo, double hi);      // [lo, hi]
Range from_below(double lo, double hi);  // [lo, hi)

// An interval of the integers.
struct IntRange {
  std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  bool admits(std::int64_t v) const { return lo <= v && v <= hi; }
  std::string text() const;  // "an integer >= 1", "an integer in [2, 16]"
};
IntRange at_least(std::int64_t lo);
IntRange int_within(std::int64_t lo, std::int64_t hi);

// A number written as text (a flag, a field of a text header), parsed whole and strictly: no
// trailing characters, no silent saturation or rounding to infinity, then range-checked.
// "WHAT 'TEXT' is invalid: it must be RULE" otherwise.
template <class Error = InputError>
double parse_number(const std::string& what, const std::string& text, const Range& rule, const std::string& unit = "");
template <class Error = InputError>
std::int64_t parse_integer(const std::string& what, const std::string& text, const IntRange& rule);

// Shortest text that reads back as the same double ("0.1", "1e+30", "nan").
std::string number_text(double v);

// Empty when the value keeps the rule, else "WHAT VALUE[ UNIT] is invalid: it must be RULE".
std::string rule_violation(const std::string& what, double value, const Range& rule, const std::string& unit = "");
std::string rule_violation(const std::string& what, std::int64_t value, const IntRange& rule);

template <class Error = InputError>
double check_number(const std::string& what, double value, const Range& rule, const std::string& unit = "") {
  std::string bad = rule_violation(what, value, rule, unit);
  if (!bad.empty()) throw Error(bad);
  return value;
}

template <class Error = InputError>
std::int64_t check_integer(const std::string& what, std::int64_t value, const IntRange& rule) {
  std::string bad = rule_violation(what, value, rule);
  if (!bad.empty()) throw Error(bad);
  return value;
}

// A double that must be a whole number in `rule` (a count written as 12 or 12.0 in a config
// file), converted exactly; "WHAT VALUE is invalid: it must be an integer ..." otherwise.
template <class Error = InputError>
std::int64_t check_whole(const std::string& what, double value, const IntRange& rule) {
  // 2^63 is exact as a double; every double below it in magnitude converts without overflow.
  const bool whole = value == value && value >= -9223372036854775808.0 && value < 9223372036854775808.0 &&
                     static_cast<double>(static_cast<std::int64_t>(value)) == value;
  if (!whole || !rule.admits(static_cast<std::int64_t>(value))) {
    throw Error(what + " " + number_text(value) + " is invalid: it must be " + rule.text());
  }
  return static_cast<std::int64_t>(value);
}

// NonFiniteError "WHAT is not finite: VALUE at index I (...)" unless every value is finite.
void check_finite_result(const double* values, std::size_t count, const std::string& what);
void check_finite_result(const float* values, std::size_t count, const std::string& what);

// Whether every value is zero (a silent signature, dead data); true for none.
inline bool all_zero(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return v == 0.0; });
}

// The parsers behind parse_number / parse_integer: false unless the whole text is one number
// (optional sign; for doubles also nan and inf, which the rules then refuse).
bool read_double(const std::string& text, double& out);
bool read_int64(const std::string& text, std::int64_t& out);

template <class Error>
double parse_number(const std::string& what, const std::string& text, const Range& rule, const std::string& unit) {
  double v = 0;
  if (!read_double(text, v)) throw Error(what + " '" + text + "' is invalid: it must be a number " + rule.text());
  return check_number<Error>(what, v, rule, unit);
}

template <class Error>
std::int64_t parse_integer(const std::string& what, const std::string& text, const IntRange& rule) {
  std::int64_t v = 0;
  if (!read_int64(text, v)) throw Error(what + " '" + text + "' is invalid: it must be " + rule.text());
  return check_integer<Error>(what, v, rule);
}

// The product of non-negative factors, or InputError "WHAT: A x B x ... exceeds 2^63 - 1".
std::int64_t checked_product(std::initializer_list<std::int64_t> factors, const std::string& what);
// The same for byte counts: "WHAT: A x B bytes exceeds 2^64 - 1".
std::size_t checked_bytes(std::initializer_list<std::size_t> factors, const std::string& what);
// a + b for sizes, or InputError naming `what`.
std::size_t checked_sum(std::size_t a, std::size_t b, const std::string& what);

}  // namespace revwave
