#include "revwave/survey/summation_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace revwave {

SummationTree::SummationTree(index_t leaves, std::size_t length)
    : length_(length), tree_(leaves, [](std::vector<double>& into, std::vector<double>&& other) {
        for (std::size_t i = 0; i < into.size(); ++i) into[i] += other[i];
      }) {}

void SummationTree::add(index_t leaf, double value, std::vector<double> vector) {
  if (vector.size() != length_)
    throw std::logic_error("summation tree: leaf " + std::to_string(leaf) + " has the wrong length");
  tree_.add(leaf, value, std::move(vector));
}

namespace {
double block_sum(const std::vector<double>& v, index_t lo, int level) {
  const auto n = static_cast<index_t>(v.size());
  if (level == 0) return v[static_cast<std::size_t>(lo)];
  const index_t half = index_t{1} << (level - 1);
  const double left = block_sum(v, lo, level - 1);
  if (lo + half >= n) return left;
  return left + block_sum(v, lo + half, level - 1);
}
}  // namespace

double tree_sum(const std::vector<double>& leaves) {
  if (leaves.empty()) return 0;
  int level = 0;
  while ((std::size_t{1} << level) < leaves.size()) ++level;
  return block_sum(leaves, 0, level);
}

}  // namespace revwave
