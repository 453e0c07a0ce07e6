#include "revwave/setup/option_text.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/setup/problem_setup.hpp"

namespace revwave {
namespace {

// "a,b,c": exactly `count` finite numbers, each parsed whole; `rule` the sentence otherwise.
std::vector<double> parse_list(const std::string& text, std::size_t count, const std::string& rule) {
  std::vector<double> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    double x = 0;
    if (!read_double(item, x) || !std::isfinite(x)) throw InputError(rule);
    v.push_back(x);
  }
  if (v.size() != count || (!text.empty() && text.back() == ',')) throw InputError(rule);
  return v;
}

}  // namespace

std::array<index_t, 3> parse_shape(const std::string& text, const std::string& option) {
  const IntRange rule = at_least(1);
  const std::string bad = option + " '" + text + "' is invalid: expected 3 comma-separated integers, each " +
                          rule.text().substr(rule.text().find(' ') + 1);
  std::array<index_t, 3> out{};
  std::size_t n = 0;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::int64_t x = 0;
    if (n == 3 || !read_int64(item, x) || !rule.admits(x)) throw InputError(bad);
    out[n++] = x;
  }
  if (n != 3 || (!text.empty() && text.back() == ',')) throw InputError(bad);
  return out;
}

Vec3 parse_point(const std::string& text, const std::string& option) {
  const auto v = parse_list(text, 3, option + " '" + text + "' is invalid: expected 3 comma-separated numbers");
  return {v[0], v[1], v[2]};
}

std::vector<Vec3> parse_points(const std::vector<std::string>& texts, const std::string& option) {
  std::vector<Vec3> out;
  out.reserve(texts.size());
  for (const auto& t : texts) out.push_back(parse_point(t, option));
  return out;
}

std::string point_text(const Vec3& p) { return number_text(p[0]) + "," + number_text(p[1]) + "," + number_text(p[2]); }

PointGrid parse_point_grid(const std::string& text, const std::string& option) {
  const auto v = parse_list(
      text, 3, option + " '" + text + "' is invalid: expected NX,NY,Z (NX, NY whole numbers >= 1, Z a depth in m)");
  PointGrid g;
  g.nx = check_whole(option + " '" + text + "' NX", v[0], at_least(1));
  g.ny = check_whole(option + " '" + text + "' NY", v[1], at_least(1));
  g.z = v[2];
  return g;
}

bool is_number_text(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

ParameterInput parse_parameter(const std::string& text) {
  ParameterInput in;
  if (is_number_text(text))
    in.constant = std::strtod(text.c_str(), nullptr);
  else
    in.file = text;
  return in;
}

}  // namespace revwave
