// What a gradient run returns: J, dJ/dm (and dJ/drho where asked) at the interior points, and what
// the run cost.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

struct GradientStats {
  double objective = 0;
  index_t steps = 0;          // N
  index_t forward_steps = 0;  // every forward step executed, recomputations included
  index_t reverse_steps = 0;
  index_t stores = 0, restores = 0;
  double seconds_allocate = 0;  // the fields of the state and of the checkpoints (or history), before the time loop
  double seconds_forward = 0;   // until the first reverse step (the misfit included)
  double seconds_reverse = 0;   // from the first reverse step to the end
  double seconds_copies = 0;    // of those, in checkpoint stores and restores
  std::size_t wavefield_storage_bytes = 0;  // history or checkpoint slots
  // Bytes checkpoints (or the history) copied to and from another medium (disk, pinned host):
  // 0 when they stay in memory, where a checkpoint is a handle to the state's fields.
  std::uint64_t checkpoint_copy_bytes = 0;
  CompressionStats compression;  // --compress: what the slots encoded and decoded, and how long it took
};

struct GradientOutput {
  GradientStats stats;
  std::vector<double> gradient;          // interior, C order
  std::vector<double> density_gradient;  // dJ/drho, interior, C order, where the run images it; else empty
};

}  // namespace revwave
