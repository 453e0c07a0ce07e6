// The kernel launches of cuda/*.cu, emulated: each declares what its kernel reads and writes
// (for the race checker) and runs the kernel's own host+device body over its launch shape.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "cudasim.hpp"
#include "reductions.hpp"
#include "sparse_kernels.hpp"
#include "sparse_threads.hpp"
#include "sweep_columns.hpp"
#include "sweep_kernels.hpp"
#include "sweep_tiled.hpp"

namespace revwave {

using cudasim::Access;
using cudasim::reads;
using cudasim::writes;

namespace {

// The tiled kernel's block: every thread's registers, one shared tile, and each phase run over
// all threads before the next (what __syncthreads guarantees), in the schedule the kernel runs.
template <class T, int R, bool Imaging>
void tiled_sweep(const char* what, const SweepArgs<T>& a) {
  using Sweep = tiled::Sweep<T, R, Imaging>;
  const LaunchShape shape = tiled::launch_shape(a);
  cudasim::for_each_block(what, shape, sizeof(typename Sweep::Shared), [&](const Dim& block) {
    const Dim b = shape.block;
    std::vector<typename Sweep::Thread> threads(static_cast<std::size_t>(b.x) * b.y * b.z);
    typename Sweep::Shared shared;
    std::memset(&shared, 0xff, sizeof shared);  // NaN: a cell read before any thread wrote it shows
    const auto each = [&](auto&& phase) {
      std::size_t n = 0;
      for (unsigned z = 0; z < b.z; ++z)
        for (unsigned y = 0; y < b.y; ++y)
          for (unsigned x = 0; x < b.x; ++x) phase(threads[n++], ThreadPlace{block, {x, y, z}});
    };
    Sweep::run_block(a, block, shared, each, [] {});
  });
}

}  // namespace

template <class T>
void launch_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream, SweepKernel kernel) {
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  const std::size_t field = static_cast<std::size_t>((a.nx + 2 * radius) * a.sx) * sizeof(T);
  std::vector<Access> acc = {reads(a.u, field), writes(a.out, field), reads(a.m, field),
                             reads(a.kx, std::size_t(a.nx) * sizeof(T)), reads(a.ky, std::size_t(a.ny) * sizeof(T)),
                             reads(a.kz, std::size_t(a.nz) * sizeof(T))};
  if (a.u_prev != a.out) acc.push_back(reads(a.u_prev, field));
  if (a.grad != nullptr) {
    acc.insert(acc.end(), {reads(a.fwd_next, field), reads(a.fwd, field), reads(a.fwd_prev, field), writes(a.grad, field)});
  }
  const char* what = a.grad != nullptr ? "the adjoint sweep" : "the sweep";
  cudasim::run_on_stream(stream, what, acc, [&] {
    dispatch_radius(radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      if (kernel == SweepKernel::tiled) {
        if (a.grad != nullptr) tiled_sweep<T, R, true>(what, a);
        else tiled_sweep<T, R, false>(what, a);
        return;
      }
      cudasim::for_each_thread(what, columns::launch_shape(a), [&](const ThreadPlace& t) {
        if (a.grad != nullptr) columns::sweep_thread<T, R, true>(a, t);
        else columns::sweep_thread<T, R, false>(a, t);
      });
    });
  });
}

namespace {

// What a kernel reads of a PointsView.
template <class T>
void point_tables(const PointsView<T>& pts, bool gather, std::vector<Access>& acc) {
  const std::size_t corners = static_cast<std::size_t>(8 * pts.count);
  if (corners == 0) return;
  acc.push_back(reads(pts.index, corners * sizeof(index_t)));
  acc.push_back(reads(pts.weight, corners * sizeof(T)));
  if (!gather) return;
  acc.push_back(reads(pts.target_index, static_cast<std::size_t>(pts.targets) * sizeof(index_t)));
  acc.push_back(reads(pts.target_begin, static_cast<std::size_t>(pts.targets + 1) * sizeof(index_t)));
  acc.push_back(reads(pts.corner, corners * sizeof(index_t)));
}

void one_dimensional(const char* what, index_t items, const std::function<void(index_t)>& body) {
  cudasim::for_each_thread(what, sparse::launch_shape(items),
                           [&](const ThreadPlace& t) { body(sparse::global_index(t)); });
}

}  // namespace

template <class T>
void launch_sample(const PointsView<T>& pts, const T* field, T* out, T post_scale, cudaStream_t stream) {
  if (pts.count == 0) return;
  std::vector<Access> acc = {reads(field), writes(out, std::size_t(pts.count) * sizeof(T))};
  point_tables(pts, false, acc);
  cudasim::run_on_stream(stream, "sampling", acc, [&] {
    one_dimensional("sampling", pts.count,
                       [&](index_t p) { sparse::sample_thread(pts, field, out, post_scale, p); });
  });
}

template <class T>
void launch_inject(const PointsView<T>& pts, const T* values, index_t value_stride, const T* scale, T* field,
                   cudaStream_t stream) {
  if (pts.targets == 0) return;
  const std::size_t nvalues = static_cast<std::size_t>((pts.count - 1) * value_stride + 1);
  std::vector<Access> acc = {reads(values, nvalues * sizeof(T)), reads(scale, std::size_t(8 * pts.count) * sizeof(T)),
                             writes(field)};
  point_tables(pts, true, acc);
  cudasim::run_on_stream(stream, "injection", acc, [&] {
    one_dimensional("injection", pts.targets,
                       [&](index_t t) { sparse::inject_thread(pts, values, value_stride, scale, field, t); });
  });
}

template <class T>
void launch_residual_misfit(const PointsView<T>& rec, const T* u_next, const T* observed, T* residual, double* misfit,
                            cudaStream_t stream) {
  std::vector<Access> acc = {reads(u_next), writes(misfit, sizeof(double))};
  if (rec.count > 0) {
    acc.push_back(reads(observed, std::size_t(rec.count) * sizeof(T)));
    acc.push_back(writes(residual, std::size_t(rec.count) * sizeof(T)));
  }
  point_tables(rec, false, acc);
  cudasim::run_on_stream(stream, "the residual", acc, [&] {
    // One block; the partial sums are added pairwise, a fixed order as cub's is.
    std::vector<double> part(sparse::sparse_block);
    for (unsigned t = 0; t < sparse::sparse_block; ++t)
      part[t] = sparse::residual_thread(rec, u_next, observed, residual, t, sparse::sparse_block);
    for (std::size_t width = part.size() / 2; width > 0; width /= 2)
      for (std::size_t t = 0; t < width; ++t) part[t] += part[t + width];
    *misfit = part[0];
  });
}

template <class T>
void launch_inject_residual(const PointsView<T>& rec, const ResidualInjection<T>& a, cudaStream_t stream) {
  if (rec.targets == 0) return;
  std::vector<Access> acc = {reads(a.residual, std::size_t(rec.count) * sizeof(T)),
                             reads(a.scale, std::size_t(8 * rec.count) * sizeof(T)),
                             writes(a.lam),
                             writes(a.grad),
                             reads(a.u_next),
                             reads(a.u),
                             reads(a.u_prev)};
  point_tables(rec, true, acc);
  cudasim::run_on_stream(stream, "the adjoint source", acc, [&] {
    one_dimensional("the adjoint source", rec.targets,
                       [&](index_t t) { sparse::inject_residual_thread(rec, a, t); });
  });
}

template <class T>
void launch_fold(const FoldShape& s, const T* padded, double* out, cudaStream_t stream) {
  const index_t n = s.nx * s.ny * s.nz;
  if (n == 0) return;
  cudasim::run_on_stream(stream, "the gradient fold", {reads(padded), writes(out, std::size_t(n) * sizeof(double))}, [&] {
    one_dimensional("the gradient fold", n, [&](index_t t) { sparse::fold_thread(s, padded, out, t); });
  });
}

template <class T>
double device_sum_squares(const T* data, std::size_t n, cudaStream_t stream) {
  double sum = 0;
  cudasim::run_on_stream(stream, "a reduction", {reads(data, n * sizeof(T))}, [&] {
    for (std::size_t i = 0; i < n; ++i) sum += static_cast<double>(data[i]) * static_cast<double>(data[i]);
  });
  cudasim::host_waits(stream);
  return sum;
}

template <class T>
double device_max_abs(const T* data, std::size_t n, cudaStream_t stream) {
  double m = 0;
  cudasim::run_on_stream(stream, "a reduction", {reads(data, n * sizeof(T))}, [&] {
    for (std::size_t i = 0; i < n; ++i) {
      const double v = std::fabs(static_cast<double>(data[i]));
      if (std::isnan(v)) {
        m = v;
        break;
      }
      m = std::max(m, v);
    }
  });
  cudasim::host_waits(stream);
  return m;
}

#define REVWAVE_INSTANTIATE(T)                                                                               \
  template void launch_sweep<T>(const SweepArgs<T>&, int, cudaStream_t, SweepKernel);                         \
  template void launch_sample<T>(const PointsView<T>&, const T*, T*, T, cudaStream_t);                        \
  template void launch_inject<T>(const PointsView<T>&, const T*, index_t, const T*, T*, cudaStream_t);        \
  template void launch_residual_misfit<T>(const PointsView<T>&, const T*, const T*, T*, double*, cudaStream_t); \
  template void launch_inject_residual<T>(const PointsView<T>&, const ResidualInjection<T>&, cudaStream_t);   \
  template void launch_fold<T>(const FoldShape&, const T*, double*, cudaStream_t);                            \
  template double device_sum_squares<T>(const T*, std::size_t, cudaStream_t);                                \
  template double device_max_abs<T>(const T*, std::size_t, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
