// The kernel launches of cuda/*.cu, emulated: each declares what its kernel reads and writes
// (for the race checker) and runs the kernel's own host+device body over its launch shape.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "revwave/cuda/kernels/cast_kernels.hpp"
#include "cudasim.hpp"
#include "revwave/cuda/kernels/reductions.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/cuda/kernels/sparse_threads.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_columns.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_tiled.hpp"

namespace revwave {

using cudasim::Access;
using cudasim::reads;
using cudasim::writes;

namespace {

// The tiled kernel's block: every thread's registers and one shared tile, poisoned (NaN) at the
// start. run_block hands over its phases one by one; those queued since the last barrier run
// thread by thread, each thread through all of them, in a shuffled order that changes with every
// barrier. Where the kernel has its __syncthreads this is what the GPU guarantees; where one were
// missing, a thread would read tile cells others have not written yet (NaN) or have overwritten
// with the next plane, and the results would show it.
template <class T, int R, bool Reverse>
void tiled_sweep(const char* what, const SweepArgs<T>& a) {
  using Sweep = tiled::Sweep<T, R, Reverse>;
  using Thread = typename Sweep::Thread;
  using Phase = std::function<void(Thread&, const ThreadPlace&)>;
  const LaunchShape shape = tiled::launch_shape(a);
  cudasim::for_each_block(what, shape, sizeof(typename Sweep::Shared), [&](const Dim& block) {
    const Dim b = shape.block;
    const std::size_t count = static_cast<std::size_t>(b.x) * b.y * b.z;
    std::vector<Thread> threads(count);
    std::vector<ThreadPlace> places(count);
    for (std::size_t n = 0; n < count; ++n)
      places[n] = ThreadPlace{block, {static_cast<unsigned>(n % b.x), static_cast<unsigned>((n / b.x) % b.y),
                                      static_cast<unsigned>(n / (std::size_t(b.x) * b.y))}};
    typename Sweep::Shared shared;
    std::memset(&shared, 0xff, sizeof shared);  // NaN: a cell read before any thread wrote it shows
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::mt19937 rng(block.x * 7919u + block.y * 104729u + block.z * 1299709u);
    std::vector<Phase> pending;
    const auto barrier = [&] {
      std::shuffle(order.begin(), order.end(), rng);
      for (std::size_t n : order)
        for (const Phase& phase : pending) phase(threads[n], places[n]);
      pending.clear();
    };
    Sweep::run_block(a, block, shared, [&](auto&& phase) { pending.emplace_back(phase); }, barrier);
    barrier();  // the kernel's end
  });
}

}  // namespace

template <class T>
void launch_sweep(const SweepArgs<T>& a, int radius, cudaStream_t stream, SweepKernel kernel) {
  if (a.nx <= 0 || a.ny <= 0 || a.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(a, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  const std::size_t field = static_cast<std::size_t>((a.nx + 2 * radius) * a.sx) * sizeof(T);
  std::vector<Access> acc = {reads(a.u, field), reads(a.m, field), reads(a.kx, std::size_t(a.nx) * sizeof(T)),
                             reads(a.ky, std::size_t(a.ny) * sizeof(T)), reads(a.kz, std::size_t(a.nz) * sizeof(T))};
  if (a.reverse()) {
    acc.insert(acc.end(), {reads(a.u_prev, field), reads(a.lam, field), writes(a.out, field), writes(a.grad, field)});
    if (a.lam_prev != a.out) acc.push_back(reads(a.lam_prev, field));
  } else {
    acc.push_back(writes(a.out, field));
    if (a.u_prev != a.out) acc.push_back(reads(a.u_prev, field));
  }
  const char* what = a.reverse() ? "the reverse sweep" : "the sweep";
  cudasim::run_on_stream(stream, what, acc, [&] {
    dispatch_radius(radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      if (kernel == SweepKernel::tiled) {
        if (a.reverse()) tiled_sweep<T, R, true>(what, a);
        else tiled_sweep<T, R, false>(what, a);
        return;
      }
      cudasim::for_each_thread(what, columns::launch_shape(a), [&](const ThreadPlace& t) {
        if (a.reverse()) columns::sweep_thread<T, R, true>(a, t);
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

namespace {

// What a kernel reads of the probe tables.
void probe_tables(const ProbesView& pr, std::vector<Access>& acc) {
  if (pr.count == 0) return;
  acc.push_back(reads(pr.index, std::size_t(pr.count) * sizeof(index_t)));
  acc.push_back(reads(pr.source_begin, std::size_t(pr.count + 1) * sizeof(index_t)));
}

}  // namespace

template <class T>
void launch_probes(const ProbeStep<T>& a, int radius, cudaStream_t stream) {
  if (a.probes.count == 0) return;
  std::vector<Access> acc = {reads(a.sweep.u), reads(a.sweep.u_prev), reads(a.sweep.m), reads(a.wavelet),
                             writes(a.next, std::size_t(a.probes.count) * sizeof(T))};
  if (a.grad != nullptr) {  // a reverse step's: the gradient at the source probes kept for the re-imaging
    acc.push_back(reads(a.grad));
    acc.push_back(writes(a.saved, std::size_t(a.probes.count) * sizeof(T)));
  }
  probe_tables(a.probes, acc);
  cudasim::run_on_stream(stream, "the probes", acc, [&] {
    dispatch_radius(radius, [&](auto r) {
      one_dimensional("the probes", a.probes.count,
                      [&](index_t p) { sparse::probe_thread<T, decltype(r)::value>(a, p); });
    });
  });
}

template <class T>
void launch_sample_probes(const PointsView<T>& rec, const ProbesView& probes, const T* next, T* out, cudaStream_t stream) {
  if (rec.count == 0) return;
  std::vector<Access> acc = {reads(next), writes(out, std::size_t(rec.count) * sizeof(T)),
                             reads(probes.receiver_probe, std::size_t(8 * rec.count) * sizeof(index_t))};
  point_tables(rec, false, acc);
  cudasim::run_on_stream(stream, "the probes' trace", acc, [&] {
    one_dimensional("the probes' trace", rec.count,
                    [&](index_t r) { sparse::sample_probes_thread(rec, probes, next, out, r); });
  });
}

template <class T>
void launch_reimage_sources(const ProbesView& probes, const SourceReimage<T>& a, cudaStream_t stream) {
  if (probes.count == 0) return;
  std::vector<Access> acc = {reads(a.next, std::size_t(probes.count) * sizeof(T)),
                             reads(a.saved, std::size_t(probes.count) * sizeof(T)),
                             reads(a.lam), writes(a.grad), reads(a.u), reads(a.u_prev)};
  probe_tables(probes, acc);
  cudasim::run_on_stream(stream, "the source re-imaging", acc, [&] {
    one_dimensional("the source re-imaging", probes.count, [&](index_t p) { sparse::reimage_thread(probes, a, p); });
  });
}

template <class T>
void launch_inject_adjoint_source(const PointsView<T>& rec, const AdjointSourceInjection<T>& a, cudaStream_t stream) {
  if (rec.targets == 0) return;
  std::vector<Access> acc = {reads(a.source, std::size_t(rec.count) * sizeof(T)),
                             reads(a.scale, std::size_t(8 * rec.count) * sizeof(T)),
                             writes(a.lam),
                             writes(a.grad),
                             reads(a.next),
                             reads(a.target_probe, std::size_t(rec.targets) * sizeof(index_t)),
                             reads(a.u),
                             reads(a.u_prev)};
  point_tables(rec, true, acc);
  cudasim::run_on_stream(stream, "the adjoint source", acc, [&] {
    one_dimensional("the adjoint source", rec.targets,
                       [&](index_t t) { sparse::inject_adjoint_source_thread(rec, a, t); });
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

// The checkpoint casts (fp16 / bf16): the encode reads the whole allocated field (its padded box)
// and, for fp16, the peak the reduction left on the device.
template <class T>
void launch_encode(const CastShape& s, const T* field, const double* peak, void* out, cudaStream_t stream) {
  if (s.points() == 0) return;
  const std::size_t field_bytes = static_cast<std::size_t>((s.origin + (s.box0 - 1) * s.sx + (s.box1 - 1) * s.sy + s.box2)) * sizeof(T);
  std::vector<Access> acc = {reads(field, field_bytes), writes(out, s.encoded_bytes())};
  if (!s.bf16) acc.push_back(reads(peak, sizeof(double)));
  cudasim::run_on_stream(stream, "a checkpoint encode", acc, [&] {
    cudasim::for_each_thread("a checkpoint encode", cast::launch_shape(s.points()), [&](const ThreadPlace& t) {
      cast::encode_thread(s, field, peak, static_cast<unsigned char*>(out), cast::global_index(t));
    });
  });
}

template <class T>
void launch_decode(const CastShape& s, const void* in, T* field, cudaStream_t stream) {
  if (s.points() == 0) return;
  const std::size_t field_bytes = static_cast<std::size_t>((s.origin + (s.box0 - 1) * s.sx + (s.box1 - 1) * s.sy + s.box2)) * sizeof(T);
  cudasim::run_on_stream(stream, "a checkpoint decode", {reads(in, s.encoded_bytes()), writes(field, field_bytes)}, [&] {
    cudasim::for_each_thread("a checkpoint decode", cast::launch_shape(s.points()), [&](const ThreadPlace& t) {
      cast::decode_thread(s, static_cast<const unsigned char*>(in), field, cast::global_index(t));
    });
  });
}

// The reductions in a fixed (sequential) order; no scratch is needed.
template <class T>
DeviceReducer<T>::DeviceReducer(std::size_t max_items) : max_items_(max_items) {}

template <class T>
void DeviceReducer<T>::sum_squares(const T* data, std::size_t n, double* out, cudaStream_t stream) {
  if (n > max_items_) throw std::logic_error("reduction larger than its scratch");
  cudasim::run_on_stream(stream, "a reduction", {reads(data, n * sizeof(T)), writes(out, sizeof(double))}, [&] {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += static_cast<double>(data[i]) * static_cast<double>(data[i]);
    *out = sum;
  });
}

template <class T>
void DeviceReducer<T>::max_abs(const T* data, std::size_t n, double* out, cudaStream_t stream) {
  if (n > max_items_) throw std::logic_error("reduction larger than its scratch");
  cudasim::run_on_stream(stream, "a reduction", {reads(data, n * sizeof(T)), writes(out, sizeof(double))}, [&] {
    double m = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = std::fabs(static_cast<double>(data[i]));
      if (std::isnan(v)) {
        m = v;
        break;
      }
      m = std::max(m, v);
    }
    *out = m;
  });
}

template class DeviceReducer<float>;
template class DeviceReducer<double>;

#define REVWAVE_INSTANTIATE(T)                                                                               \
  template void launch_sweep<T>(const SweepArgs<T>&, int, cudaStream_t, SweepKernel);                         \
  template void launch_sample<T>(const PointsView<T>&, const T*, T*, T, cudaStream_t);                        \
  template void launch_inject<T>(const PointsView<T>&, const T*, index_t, const T*, T*, cudaStream_t);        \
  template void launch_probes<T>(const ProbeStep<T>&, int, cudaStream_t);                                    \
  template void launch_sample_probes<T>(const PointsView<T>&, const ProbesView&, const T*, T*, cudaStream_t);     \
  template void launch_reimage_sources<T>(const ProbesView&, const SourceReimage<T>&, cudaStream_t);         \
  template void launch_inject_adjoint_source<T>(const PointsView<T>&, const AdjointSourceInjection<T>&,        \
                                                cudaStream_t);                                                \
  template void launch_fold<T>(const FoldShape&, const T*, double*, cudaStream_t);                          \
  template void launch_encode<T>(const CastShape&, const T*, const double*, void*, cudaStream_t);           \
  template void launch_decode<T>(const CastShape&, const void*, T*, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
