#include "revwave/survey/summation_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace revwave {

SummationTree::SummationTree(index_t leaves, std::size_t length)
    : leaves_(leaves), length_(length), seen_(static_cast<std::size_t>(std::max<index_t>(leaves, 0)), false) {
  if (leaves < 1) throw std::logic_error("a summation tree needs at least one leaf");
  while ((index_t{1} << root_level_) < leaves) ++root_level_;
}

void SummationTree::add(index_t leaf, double value, std::vector<double> vector) {
  if (leaf < 0 || leaf >= leaves_ || seen_[static_cast<std::size_t>(leaf)]) {
    throw std::logic_error("summation tree: leaf " + std::to_string(leaf) + " is out of range or added twice");
  }
  if (vector.size() != length_) throw std::logic_error("summation tree: leaf " + std::to_string(leaf) + " has the wrong length");
  seen_[static_cast<std::size_t>(leaf)] = true;
  int level = 0;
  index_t k = leaf;
  Node node{value, std::move(vector)};
  for (; level < root_level_; ++level, k >>= 1) {
    const index_t sibling = k ^ 1;
    const bool right_empty = (k & 1) == 0 && (sibling << level) >= leaves_;
    if (right_empty) continue;  // the parent is this node alone
    const auto it = nodes_.find({level, sibling});
    if (it == nodes_.end()) break;  // the sibling is not complete yet: hold this one
    // Floating-point addition is commutative, so left + right and right + left are the same bits;
    // only the association, fixed by the tree, matters.
    Node& other = it->second;
    node.value += other.value;
    for (std::size_t i = 0; i < length_; ++i) node.vector[i] += other.vector[i];
    nodes_.erase(it);
  }
  if (level == root_level_) complete_ = true;
  nodes_.emplace(std::make_pair(level, k), std::move(node));
  peak_held_ = std::max(peak_held_, nodes_.size());
}

double SummationTree::value() const {
  if (!complete_) throw std::logic_error("summation tree: not complete");
  return nodes_.begin()->second.value;
}

std::vector<double>& SummationTree::vector() {
  if (!complete_) throw std::logic_error("summation tree: not complete");
  return nodes_.begin()->second.vector;
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
