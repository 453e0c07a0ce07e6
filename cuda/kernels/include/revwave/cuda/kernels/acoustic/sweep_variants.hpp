// The sweep kernels' launches one variant at a time, each in its own .cu file (so that nvcc builds
// them side by side); launch_sweep (sweep_kernels.hpp) checks the arguments and picks one.
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"

namespace revwave::acoustic {

template <class T>
void launch_columns_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream);
template <class T>
void launch_shuffle_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream);
template <class T>
void launch_pair_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream);
template <class T>
void launch_tiled_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream);

}  // namespace revwave::acoustic
