// The density kernels' launches (cuda/kernels/src/density/density_kernels.cu), emulated as
// launchers.cpp emulates the others: each declares what its kernel reads and writes (for the race
// checker) and runs the kernel's own host+device body over its launch shape. Apart from
// launchers.cpp until the one launch layer replaces both.
#include <vector>

#include "cudasim.hpp"
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/kernels/density/density_threads.hpp"

namespace revwave {

using cudasim::Access;
using cudasim::reads;
using cudasim::writes;

namespace {

template <class T>
void point_tables(const PointsView<T>& pts, std::vector<Access>& acc) {
  const std::size_t corners = static_cast<std::size_t>(8 * pts.count);
  acc.push_back(reads(pts.weight, corners * sizeof(T)));
  acc.push_back(reads(pts.target_index, static_cast<std::size_t>(pts.targets) * sizeof(index_t)));
  acc.push_back(reads(pts.target_begin, static_cast<std::size_t>(pts.targets + 1) * sizeof(index_t)));
  acc.push_back(reads(pts.corner, corners * sizeof(index_t)));
}

void probe_tables(const ProbesView& pr, std::vector<Access>& acc) {
  acc.push_back(reads(pr.index, std::size_t(pr.count) * sizeof(index_t)));
  acc.push_back(reads(pr.source_begin, std::size_t(pr.count + 1) * sizeof(index_t)));
}

void one_dimensional(const char* what, index_t items, const std::function<void(index_t)>& body) {
  cudasim::for_each_thread(what, sparse::launch_shape(items),
                           [&](const ThreadPlace& t) { body(sparse::global_index(t)); });
}

}  // namespace

template <class T>
void launch_density_sweep(const DensitySweepArgs<T>& a, int radius, cudaStream_t stream) {
  using density_threads::Mode;
  const SweepArgs<T>& b = a.base;
  if (b.nx <= 0 || b.ny <= 0 || b.nz <= 0) return;
  if (!in_plane_offsets_fit_32_bits(b, radius)) throw std::logic_error("grid planes too large for 32-bit offsets");
  const std::size_t field = static_cast<std::size_t>((b.nx + 2 * radius) * b.sx) * sizeof(T);
  std::vector<Access> acc = {reads(b.u, field), reads(b.m, field), reads(a.s, field), reads(a.t, field),
                             reads(b.kx, std::size_t(b.nx) * sizeof(T)), reads(b.ky, std::size_t(b.ny) * sizeof(T)),
                             reads(b.kz, std::size_t(b.nz) * sizeof(T))};
  Mode mode = a.adjoint ? Mode::adjoint : Mode::forward;
  if (b.reverse()) {
    mode = a.image_g != nullptr ? Mode::reverse_imaging : Mode::reverse;
    acc.insert(acc.end(), {reads(b.u_prev, field), reads(b.lam, field), writes(b.out, field), writes(b.grad, field)});
    if (b.lam_prev != b.out) acc.push_back(reads(b.lam_prev, field));
    if (a.image_g != nullptr) acc.insert(acc.end(), {writes(a.image_g, field), writes(a.image_q, field)});
  } else {
    acc.push_back(writes(b.out, field));
    if (b.u_prev != b.out) acc.push_back(reads(b.u_prev, field));
  }
  const char* what = b.reverse() ? "the density reverse sweep" : "the density sweep";
  cudasim::run_on_stream(stream, what, acc, [&] {
    dispatch_radius(radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      cudasim::for_each_thread(what, density_threads::launch_shape(a), [&](const ThreadPlace& t) {
        switch (mode) {
          case Mode::forward: return density_threads::sweep_thread<T, R, Mode::forward>(a, t);
          case Mode::adjoint: return density_threads::sweep_thread<T, R, Mode::adjoint>(a, t);
          case Mode::reverse: return density_threads::sweep_thread<T, R, Mode::reverse>(a, t);
          case Mode::reverse_imaging: return density_threads::sweep_thread<T, R, Mode::reverse_imaging>(a, t);
        }
      });
    });
  });
}

template <class T>
void launch_density_probes(const DensityProbeStep<T>& a, int radius, cudaStream_t stream) {
  const ProbeStep<T>& ps = a.base;
  if (ps.probes.count == 0) return;
  const std::size_t per_probe = std::size_t(ps.probes.count) * sizeof(T);
  std::vector<Access> acc = {reads(ps.sweep.u), reads(ps.sweep.u_prev), reads(ps.sweep.m), reads(a.s), reads(a.t),
                             reads(ps.wavelet), writes(ps.next, per_probe)};
  if (ps.grad != nullptr) acc.insert(acc.end(), {reads(ps.grad), writes(ps.saved, per_probe)});
  if (a.lam != nullptr) {
    acc.insert(acc.end(), {reads(a.lam), reads(a.image_g), writes(a.k_u, per_probe), writes(a.y, per_probe),
                           writes(a.saved_g, per_probe)});
  }
  probe_tables(ps.probes, acc);
  cudasim::run_on_stream(stream, "the density probes", acc, [&] {
    dispatch_radius(radius, [&](auto r) {
      one_dimensional("the density probes", ps.probes.count,
                      [&](index_t p) { density_threads::probe_thread<T, decltype(r)::value>(a, p); });
    });
  });
}

template <class T>
void launch_density_reimage(const ProbesView& probes, const DensityReimage<T>& a, cudaStream_t stream) {
  if (probes.count == 0) return;
  const std::size_t per_probe = std::size_t(probes.count) * sizeof(T);
  std::vector<Access> acc = {reads(a.lam),
                             reads(a.s),
                             reads(a.next, per_probe),
                             reads(a.k_u, per_probe),
                             reads(a.y, per_probe),
                             reads(a.saved_g, per_probe),
                             writes(a.image_g)};
  probe_tables(probes, acc);
  cudasim::run_on_stream(stream, "the density re-imaging", acc, [&] {
    one_dimensional("the density re-imaging", probes.count,
                    [&](index_t p) { density_threads::reimage_thread(probes, a, p); });
  });
}

template <class T>
void launch_density_adjoint_source(const PointsView<T>& rec, const DensityAdjointSourceImages<T>& a,
                                   cudaStream_t stream) {
  if (rec.targets == 0) return;
  std::vector<Access> acc = {reads(a.source, std::size_t(rec.count) * sizeof(T)),
                             reads(a.scale, std::size_t(8 * rec.count) * sizeof(T)),
                             reads(a.target_probe, std::size_t(rec.targets) * sizeof(index_t)),
                             reads(a.k_u),
                             reads(a.u),
                             writes(a.image_g),
                             writes(a.image_q)};
  point_tables(rec, acc);
  cudasim::run_on_stream(stream, "the density adjoint source", acc, [&] {
    one_dimensional("the density adjoint source", rec.targets,
                    [&](index_t t) { density_threads::adjoint_source_thread(rec, a, t); });
  });
}

#define REVWAVE_INSTANTIATE(T)                                                                             \
  template void launch_density_sweep<T>(const DensitySweepArgs<T>&, int, cudaStream_t);                    \
  template void launch_density_probes<T>(const DensityProbeStep<T>&, int, cudaStream_t);                   \
  template void launch_density_reimage<T>(const ProbesView&, const DensityReimage<T>&, cudaStream_t);      \
  template void launch_density_adjoint_source<T>(const PointsView<T>&, const DensityAdjointSourceImages<T>&, \
                                                 cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
