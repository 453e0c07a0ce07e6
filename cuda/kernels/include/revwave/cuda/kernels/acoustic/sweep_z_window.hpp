// Where a column sweep's z neighbours come from (sweep_columns.hpp): the field itself, re-read
// from L1/L2 (the column sweep: 2R loads a point, misaligned by 1..R values), or the warp's other
// lanes (the shuffle sweep). A warp spans 32 consecutive z of a row; lane l holds the row's value
// at its own k, so the neighbour at k + q is lane l + q's; past the warp's ends come 2R halo values
// a row, one held by each of lanes 0..2R-1 (lane l < R: k0 - R + l; lane R <= l < 2R: k0 + 32 +
// l - R). Either way the neighbours are the same values, handed to laplacian_axes in the same
// order, so the bits are the same.
#pragma once
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"

namespace revwave::columns {

struct ZFromMemory {
  static constexpr bool all_lanes = false;  // a thread past nz leaves at once
  template <class T, int R>
  struct Window {
    template <class Thread>
    REVWAVE_HD Window(Thread&, int) {}
    // u points at the point in its plane; the neighbours are u[q].
    template <class Thread>
    REVWAVE_HD const T* gather(Thread&, const T* u, T) const {
      return u;
    }
  };
};

struct ZFromShuffles {
  static constexpr bool all_lanes = true;  // every lane of a row's warp takes part in its shuffles
  template <class T, int R>
  struct Window {
    static_assert(2 * R <= int(launch::warp_size), "the halo lanes of a row");
    T z[2 * R + 1];
    int lane;
    int halo;  // offset from the lane's column of the halo value it holds (0: none)
    template <class Thread>
    REVWAVE_HD Window(Thread& t, int) : lane(static_cast<int>(t.lane())) {
      halo = lane < R ? -R : lane < 2 * R ? int(launch::warp_size) - R : 0;
    }
    // u points at the lane's point, centre is the value there; returns the window's centre.
    template <class Thread>
    REVWAVE_HD const T* gather(Thread& t, const T* u, T centre) {
      const T h = halo != 0 ? u[halo] : T(0);
      const unsigned all = launch::full_mask;
      constexpr int warp = int(launch::warp_size);
      z[R] = centre;
#pragma unroll
      for (int q = 1; q <= R; ++q) {
        // Every lane runs every shuffle (the mask is the whole warp); each then keeps the one it needs.
        const T down = t.shfl_down(all, centre, static_cast<unsigned>(q));
        const T right = t.shfl(all, h, (lane + q - warp + R) & (warp - 1));
        z[R + q] = lane + q < warp ? down : right;
        const T up = t.shfl_up(all, centre, static_cast<unsigned>(q));
        const T left = t.shfl(all, h, (lane - q + R) & (warp - 1));
        z[R - q] = lane >= q ? up : left;
      }
      return z + R;
    }
  };
};

}  // namespace revwave::columns
