// A fixed pairwise summation tree over shot indices: the survey's J and g are the same bits
// whatever order the shots finish in and however many processes computed them.
#pragma once
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "revwave/core/config.hpp"

namespace revwave {

// The tree over leaves 0..n-1: node (level l, index k) is the sum over the aligned block
// [k 2^l, (k+1) 2^l) of leaves, truncated at n; it is (l-1, 2k) + (l-1, 2k+1), or just (l-1, 2k)
// where the right block is empty. Leaves may arrive in any order, each once; a node is summed as
// soon as both of its children are there, so what is held at once is a few partial sums, not
// every leaf (ascending arrival: at most log2(n) + 1). Each partial sum is one scalar (the
// objective) and one vector (the gradient).
class SummationTree {
 public:
  SummationTree(index_t leaves, std::size_t length);

  // Adds leaf `leaf` (0..n-1, once): InputError-free, std::logic_error on a repeat or a wrong size.
  void add(index_t leaf, double value, std::vector<double> vector);
  bool complete() const { return complete_; }
  index_t leaves() const { return leaves_; }
  // Partial sums held now.
  std::size_t held() const { return nodes_.size(); }
  std::size_t peak_held() const { return peak_held_; }
  // The root, once complete.
  double value() const;
  std::vector<double>& vector();

 private:
  struct Node {
    double value = 0;
    std::vector<double> vector;
  };
  index_t leaves_;
  std::size_t length_;
  std::map<std::pair<int, index_t>, Node> nodes_;  // (level, index) -> partial sum
  std::vector<bool> seen_;
  std::size_t peak_held_ = 0;
  bool complete_ = false;
  int root_level_ = 0;
};

// The same association on plain numbers, recursively: the reference the tests check against.
double tree_sum(const std::vector<double>& leaves);

}  // namespace revwave
