// Limited-memory BFGS: the last m curvature pairs (s, y) and the two-loop recursion that applies
// the inverse-Hessian approximation they define (Nocedal & Wright, Algorithm 7.4) to a vector.
#pragma once
#include <deque>
#include <functional>
#include <vector>

namespace revwave {

// A symmetric positive semi-definite operator w = M v, the initial inverse Hessian up to the
// scale gamma (a preconditioner); empty means the identity.
using Preconditioner = std::function<std::vector<double>(const std::vector<double>&)>;

struct CurvaturePair {
  std::vector<double> s;  // x_{k+1} - x_k
  std::vector<double> y;  // g_{k+1} - g_k
};

class LbfgsMemory {
 public:
  // capacity >= 1 pairs (InputError otherwise).
  explicit LbfgsMemory(int capacity);

  // Keeps the pair when s.y > 1e-10 |s| |y| (the curvature condition that keeps the
  // approximation positive definite), dropping the oldest pair beyond capacity; false if rejected.
  bool update(std::vector<double> s, std::vector<double> y);
  void clear() {
    pairs_.clear();
    sy_.clear();
  }

  // H g by the two-loop recursion with H0 = gamma M, gamma = s.y / (y.M y) of the newest pair
  // (gamma = 1 with no pair: then H g = M g).
  std::vector<double> apply(const std::vector<double>& g, const Preconditioner& m = {}) const;

  int capacity() const { return capacity_; }
  int size() const { return static_cast<int>(pairs_.size()); }
  const std::deque<CurvaturePair>& pairs() const { return pairs_; }
  // Restores pairs saved from pairs(), oldest first (resume); they must fit the capacity.
  void assign(std::deque<CurvaturePair> pairs);

 private:
  int capacity_;
  std::deque<CurvaturePair> pairs_;  // oldest first
  std::deque<double> sy_;            // s.y of each pair, computed once (the same bits every time)
};

// Left to right, on one thread: the order of its sum is part of every iterate's bits (a threaded
// dot would change them), so it stays sequential while the element-wise updates run in parallel.
double dot(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace revwave
