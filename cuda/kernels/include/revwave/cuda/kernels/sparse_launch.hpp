// The sparse kernels' launch structs (the launch layer's concept, launch/kernel_launch.hpp): each
// a 1D launch of the sparse policy's blocks over its items, the thread body of sparse_threads.hpp,
// and what it reads and writes.
#pragma once
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/kernels/sparse_threads.hpp"
#include "revwave/cuda/kernels/tuning/sparse_policy.hpp"

namespace revwave::sparse {

using launch::bytes_of;
using launch::MemoryAccesses;
using launch::reads;
using launch::writes;

// What every sparse kernel shares: the policy's 1D shape, no collectives.
using LinearKernel = launch::LinearKernel<tuning::SparsePolicy>;

// What a kernel reads of a PointsView (gather: the injection's target tables too).
template <class T>
void point_tables(const PointsView<T>& pts, bool gather, MemoryAccesses& acc) {
  const index_t corners = 8 * pts.count;
  if (corners == 0) return;
  acc.push_back(reads(pts.index, bytes_of<index_t>(corners)));
  acc.push_back(reads(pts.weight, bytes_of<T>(corners)));
  if (!gather) return;
  acc.push_back(reads(pts.target_index, bytes_of<index_t>(pts.targets)));
  acc.push_back(reads(pts.target_begin, bytes_of<index_t>(pts.targets + 1)));
  acc.push_back(reads(pts.corner, bytes_of<index_t>(corners)));
}

// What a kernel reads of the probe tables.
inline void probe_tables(const ProbesView& pr, MemoryAccesses& acc) {
  if (pr.count == 0) return;
  acc.push_back(reads(pr.index, bytes_of<index_t>(pr.count)));
  acc.push_back(reads(pr.source_begin, bytes_of<index_t>(pr.count + 1)));
}

template <class T>
struct SampleKernel : LinearKernel {
  static constexpr const char* name = "sampling";
  PointsView<T> pts;
  const T* field;
  T* out;
  T post_scale;
  SampleKernel(const PointsView<T>& p, const T* f, T* o, T s) : pts(p), field(f), out(o), post_scale(s) {}
  LaunchShape shape() const { return shape_for(pts.count); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(field), writes(out, bytes_of<T>(pts.count))};
    point_tables(pts, false, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    sample_thread(pts, field, out, post_scale, item(t.place()));
  }
};

template <class T>
struct InjectKernel : LinearKernel {
  static constexpr const char* name = "injection";
  PointsView<T> pts;
  const T* values;
  index_t value_stride;
  const T* scale;
  T* field;
  InjectKernel(const PointsView<T>& p, const T* v, index_t stride, const T* s, T* f)
      : pts(p), values(v), value_stride(stride), scale(s), field(f) {}
  LaunchShape shape() const { return shape_for(pts.targets); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(values, bytes_of<T>((pts.count - 1) * value_stride + 1)), reads(scale, bytes_of<T>(8 * pts.count)),
           writes(field)};
    point_tables(pts, true, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    inject_thread(pts, values, value_stride, scale, field, item(t.place()));
  }
};

template <class T, int R>
struct ProbeKernel : LinearKernel {
  static constexpr const char* name = "the probes";
  ProbeStep<T> a;
  explicit ProbeKernel(const ProbeStep<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.probes.count); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(a.sweep.u), reads(a.sweep.u_prev), reads(a.sweep.m), reads(a.wavelet),
           writes(a.next, bytes_of<T>(a.probes.count))};
    if (a.grad != nullptr) {  // a reverse step's: the gradient at the source probes kept for the re-imaging
      acc.push_back(reads(a.grad));
      acc.push_back(writes(a.saved, bytes_of<T>(a.probes.count)));
    }
    if (a.boundary_share != nullptr) acc.insert(acc.end(), {reads(a.boundary_share), reads(a.boundary_probe)});
    probe_tables(a.probes, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    probe_thread<T, R>(a, item(t.place()));
  }
};

template <class T>
struct SampleProbesKernel : LinearKernel {
  static constexpr const char* name = "the probes' trace";
  PointsView<T> rec;
  ProbesView probes;
  const T* next;
  T* out;
  SampleProbesKernel(const PointsView<T>& r, const ProbesView& p, const T* n, T* o)
      : rec(r), probes(p), next(n), out(o) {}
  LaunchShape shape() const { return shape_for(rec.count); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(next), writes(out, bytes_of<T>(rec.count)),
           reads(probes.receiver_probe, bytes_of<index_t>(8 * rec.count))};
    point_tables(rec, false, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    sample_probes_thread(rec, probes, next, out, item(t.place()));
  }
};

template <class T>
struct ReadProbesKernel : LinearKernel {
  static constexpr const char* name = "the probes from the history";
  ProbesView probes;
  const T* u_next;
  const T* grad;
  T* next;
  T* saved;
  ReadProbesKernel(const ProbesView& p, const T* un, const T* g, T* n, T* s)
      : probes(p), u_next(un), grad(g), next(n), saved(s) {}
  LaunchShape shape() const { return shape_for(probes.count); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(u_next), writes(next, bytes_of<T>(probes.count))};
    if (grad != nullptr) acc.insert(acc.end(), {reads(grad), writes(saved, bytes_of<T>(probes.count))});
    probe_tables(probes, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    read_probe_thread(probes, u_next, grad, next, saved, item(t.place()));
  }
};

template <class T>
struct ReimageKernel : LinearKernel {
  static constexpr const char* name = "the source re-imaging";
  ProbesView probes;
  SourceReimage<T> a;
  ReimageKernel(const ProbesView& p, const SourceReimage<T>& args) : probes(p), a(args) {}
  LaunchShape shape() const { return shape_for(probes.count); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(a.next, bytes_of<T>(probes.count)),
           reads(a.saved, bytes_of<T>(probes.count)),
           reads(a.lam),
           writes(a.grad),
           reads(a.u),
           reads(a.u_prev)};
    probe_tables(probes, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    reimage_thread(probes, a, item(t.place()));
  }
};

template <class T>
struct AdjointSourceKernel : LinearKernel {
  static constexpr const char* name = "the adjoint source";
  PointsView<T> rec;
  AdjointSourceInjection<T> a;
  AdjointSourceKernel(const PointsView<T>& r, const AdjointSourceInjection<T>& args) : rec(r), a(args) {}
  LaunchShape shape() const { return shape_for(rec.targets); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(a.source, bytes_of<T>(rec.count)),
           reads(a.scale, bytes_of<T>(8 * rec.count)),
           writes(a.lam),
           writes(a.grad),
           reads(a.next),
           reads(a.target_probe, bytes_of<index_t>(rec.targets)),
           reads(a.u),
           reads(a.u_prev)};
    point_tables(rec, true, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    inject_adjoint_source_thread(rec, a, item(t.place()));
  }
};

template <class T>
struct FoldKernel : LinearKernel {
  static constexpr const char* name = "the gradient fold";
  FoldShape s;
  const T* padded;
  double* out;
  FoldKernel(const FoldShape& shape, const T* p, double* o) : s(shape), padded(p), out(o) {}
  LaunchShape shape() const { return shape_for(s.nx * s.ny * s.nz); }
  void accesses(MemoryAccesses& acc) const { acc = {reads(padded), writes(out, bytes_of<double>(s.nx * s.ny * s.nz))}; }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    fold_thread(s, padded, out, item(t.place()));
  }
};

}  // namespace revwave::sparse
