#include "revwave/numerics/acoustic/next_field_probes.hpp"

#include <unordered_map>

namespace revwave {

NextFieldProbes make_next_field_probes(const SparsePoints& src, const SparsePoints& rec) {
  NextFieldProbes p;
  std::unordered_map<index_t, index_t> probe_of;
  auto probe = [&](index_t idx) {
    const auto [it, fresh] = probe_of.emplace(idx, static_cast<index_t>(p.index.size()));
    if (fresh) p.index.push_back(idx);
    return it->second;
  };
  p.receiver_probe.reserve(rec.index.size());
  for (index_t idx : rec.index) p.receiver_probe.push_back(probe(idx));
  std::vector<std::vector<index_t>> corners;
  for (std::size_t k = 0; k < src.index.size(); ++k) {
    const index_t q = probe(src.index[k]);
    if (corners.size() < p.index.size()) corners.resize(p.index.size());
    corners[static_cast<std::size_t>(q)].push_back(static_cast<index_t>(k));
  }
  corners.resize(p.index.size());
  p.source_begin.assign(p.index.size() + 1, 0);
  for (std::size_t q = 0; q < corners.size(); ++q) {
    p.source_corner.insert(p.source_corner.end(), corners[q].begin(), corners[q].end());
    p.source_begin[q + 1] = static_cast<index_t>(p.source_corner.size());
    if (!corners[q].empty()) p.source_targets.push_back(static_cast<index_t>(q));
  }
  return p;
}

}  // namespace revwave
