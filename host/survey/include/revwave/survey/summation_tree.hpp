// A fixed pairwise summation tree over shot indices: the survey's J and g are the same bits
// whatever order the shots finish in and however many processes computed them.
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "revwave/core/config.hpp"

namespace revwave {

// The tree over leaves 0..n-1: node (level l, index k) is the sum over the aligned block
// [k 2^l, (k+1) 2^l) of leaves, truncated at n; it is (l-1, 2k) + (l-1, 2k+1), or just (l-1, 2k)
// where the right block is empty. Leaves may arrive in any order, each once; a node is summed as
// soon as both of its children are there, so what is held at once is a few partial sums, not
// every leaf (ascending arrival: at most log2(n) + 1). Each partial sum is one scalar (the
// objective) and one payload (the gradient: a dense vector, or a TiledPart wherever it lives),
// added by `add(into, other)`. Floating-point addition commutes, so left + right and right + left
// are the same bits; only the association, fixed by the tree, matters.
template <class Payload>
class BasicSummationTree {
 public:
  using Add = std::function<void(Payload& into, Payload&& other)>;
  BasicSummationTree(index_t leaves, Add add)
      : leaves_(leaves), add_(std::move(add)), seen_(static_cast<std::size_t>(std::max<index_t>(leaves, 0)), false) {
    if (leaves < 1) throw std::logic_error("a summation tree needs at least one leaf");
    while ((index_t{1} << root_level_) < leaves) ++root_level_;
  }

  // Adds leaf `leaf` (0..n-1, once): std::logic_error on a repeat.
  void add(index_t leaf, double value, Payload payload) {
    if (leaf < 0 || leaf >= leaves_ || seen_[static_cast<std::size_t>(leaf)]) {
      throw std::logic_error("summation tree: leaf " + std::to_string(leaf) + " is out of range or added twice");
    }
    seen_[static_cast<std::size_t>(leaf)] = true;
    int level = 0;
    index_t k = leaf;
    Node node{value, std::move(payload)};
    for (; level < root_level_; ++level, k >>= 1) {
      const index_t sibling = k ^ 1;
      const bool right_empty = (k & 1) == 0 && (sibling << level) >= leaves_;
      if (right_empty) continue;  // the parent is this node alone
      const auto it = nodes_.find({level, sibling});
      if (it == nodes_.end()) break;  // the sibling is not complete yet: hold this one
      node.value += it->second.value;
      add_(node.payload, std::move(it->second.payload));
      nodes_.erase(it);
    }
    if (level == root_level_) complete_ = true;
    nodes_.emplace(std::make_pair(level, k), std::move(node));
    peak_held_ = std::max(peak_held_, nodes_.size());
  }
  bool complete() const { return complete_; }
  index_t leaves() const { return leaves_; }
  // Partial sums held now.
  std::size_t held() const { return nodes_.size(); }
  std::size_t peak_held() const { return peak_held_; }
  // The root, once complete.
  double value() const { return root().value; }
  Payload& payload() { return const_cast<Node&>(root()).payload; }

 private:
  struct Node {
    double value = 0;
    Payload payload;
  };
  const Node& root() const {
    if (!complete_) throw std::logic_error("summation tree: not complete");
    return nodes_.begin()->second;
  }
  index_t leaves_;
  Add add_;
  std::map<std::pair<int, index_t>, Node> nodes_;  // (level, index) -> partial sum
  std::vector<bool> seen_;
  std::size_t peak_held_ = 0;
  bool complete_ = false;
  int root_level_ = 0;
};

// The tree on dense vectors of one length (the reference the tiled sums are tested against).
class SummationTree {
 public:
  SummationTree(index_t leaves, std::size_t length);
  // Adds leaf `leaf` (0..n-1, once): InputError-free, std::logic_error on a repeat or a wrong size.
  void add(index_t leaf, double value, std::vector<double> vector);
  bool complete() const { return tree_.complete(); }
  index_t leaves() const { return tree_.leaves(); }
  std::size_t held() const { return tree_.held(); }
  std::size_t peak_held() const { return tree_.peak_held(); }
  double value() const { return tree_.value(); }
  std::vector<double>& vector() { return tree_.payload(); }

 private:
  std::size_t length_;
  BasicSummationTree<std::vector<double>> tree_;
};

// The same association on plain numbers, recursively: the reference the tests check against.
double tree_sum(const std::vector<double>& leaves);

}  // namespace revwave
