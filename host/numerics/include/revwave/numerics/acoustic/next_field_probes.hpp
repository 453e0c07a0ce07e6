// Where the fused reverse step needs u[n+1] apart from its sweep: at the receivers' corners
// (the adjoint source's imaging share uses it; the last trace S u[N], which no forward step
// before the first reverse one computes, is sampled from it) and at the sources' corners (there
// u[n+1] carries the injected wavelet, which the sweep's in-register value lacks).
// Each probe is one grid index: u[n+1] there is the sweep's point formula plus the source
// terms of the corners that land on it, added in the forward step's (point, corner) order.
#pragma once
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/numerics/sparse_points.hpp"

namespace revwave {

struct NextFieldProbes {
  std::vector<index_t> index;           // distinct grid indices: receiver corners first, then source corners
  std::vector<index_t> source_begin;    // index.size() + 1 offsets into source_corner
  std::vector<index_t> source_corner;   // source corner ids 8 p + c landing on each probe, ascending
  std::vector<index_t> receiver_probe;  // per receiver corner 8 r + c: its probe
  std::vector<index_t> source_targets;  // probes with at least one source term, ascending

  std::size_t size() const { return index.size(); }
};

NextFieldProbes make_next_field_probes(const SparsePoints& sources, const SparsePoints& receivers);

}  // namespace revwave
