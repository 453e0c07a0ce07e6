#include "revwave/optim/lbfgs.hpp"

#include <cmath>
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
  if (size() > capacity_) pairs_.pop_front();
  return true;
}

void LbfgsMemory::assign(std::deque<CurvaturePair> pairs) {
  if (static_cast<int>(pairs.size()) > capacity_) {
    throw InputError("L-BFGS state holds " + std::to_string(pairs.size()) + " pairs, more than the memory of " +
                     std::to_string(capacity_));
  }
  pairs_ = std::move(pairs);
}

std::vector<double> LbfgsMemory::apply(const std::vector<double>& g, const Preconditioner& m) const {
  std::vector<double> q = g;
  std::vector<double> alpha(pairs_.size());
  for (std::size_t k = pairs_.size(); k-- > 0;) {
    const CurvaturePair& p = pairs_[k];
    alpha[k] = dot(p.s, q) / dot(p.s, p.y);
    for (std::size_t i = 0; i < q.size(); ++i) q[i] -= alpha[k] * p.y[i];
  }
  std::vector<double> r = m ? m(q) : q;
  if (!pairs_.empty()) {
    const CurvaturePair& newest = pairs_.back();
    const std::vector<double> my = m ? m(newest.y) : newest.y;
    const double gamma = dot(newest.s, newest.y) / dot(newest.y, my);
    for (double& v : r) v *= gamma;
  }
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    const CurvaturePair& p = pairs_[k];
    const double beta = dot(p.y, r) / dot(p.s, p.y);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] += (alpha[k] - beta) * p.s[i];
  }
  return r;
}

}  // namespace revwave
