#include "revwave/optim/lbfgs.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

LbfgsMemory::LbfgsMemory(int capacity) : capacity_(capacity) {
  if (capacity < 1) throw InputError("L-BFGS memory " + std::to_string(capacity) + " is invalid: at least 1 pair");
}

bool LbfgsMemory::update(std::vector<double> s, std::vector<double> y) {
  const double sy = dot(s, y);
  if (!(sy > 1e-10 * std::sqrt(dot(s, s)) * std::sqrt(dot(y, y)))) return false;
  pairs_.push_back({std::move(s), std::move(y)});
  sy_.push_back(sy);
  if (size() > capacity_) {
    pairs_.pop_front();
    sy_.pop_front();
  }
  return true;
}

void LbfgsMemory::assign(std::deque<CurvaturePair> pairs) {
  if (static_cast<int>(pairs.size()) > capacity_) {
    throw InputError("L-BFGS state holds " + std::to_string(pairs.size()) + " pairs, more than the memory of " +
                     std::to_string(capacity_));
  }
  pairs_ = std::move(pairs);
  sy_.clear();
  for (const CurvaturePair& p : pairs_) sy_.push_back(dot(p.s, p.y));
}

namespace {
// v += a w, element by element (the same bits on any number of threads).
void add_scaled(std::vector<double>& v, double a, const std::vector<double>& w) {
  const auto n = static_cast<std::int64_t>(v.size());
#pragma omp parallel for schedule(static) if (n > 65536)
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] += a * w[static_cast<std::size_t>(i)];
}
}  // namespace

std::vector<double> LbfgsMemory::apply(const std::vector<double>& g, const Preconditioner& m) const {
  std::vector<double> q = g;
  std::vector<double> alpha(pairs_.size());
  for (std::size_t k = pairs_.size(); k-- > 0;) {
    const CurvaturePair& p = pairs_[k];
    alpha[k] = dot(p.s, q) / sy_[k];
    add_scaled(q, -alpha[k], p.y);
  }
  std::vector<double> r = m ? m(q) : q;
  if (!pairs_.empty()) {
    const CurvaturePair& newest = pairs_.back();
    const std::vector<double> my = m ? m(newest.y) : newest.y;
    const double gamma = sy_.back() / dot(newest.y, my);
    const auto n = static_cast<std::int64_t>(r.size());
#pragma omp parallel for schedule(static) if (n > 65536)
    for (std::int64_t i = 0; i < n; ++i) r[static_cast<std::size_t>(i)] *= gamma;
  }
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    const CurvaturePair& p = pairs_[k];
    const double beta = dot(p.y, r) / sy_[k];
    add_scaled(r, alpha[k] - beta, p.s);
  }
  return r;
}

}  // namespace revwave
