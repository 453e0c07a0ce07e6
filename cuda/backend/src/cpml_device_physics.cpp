#include "revwave/cuda/backend/cpml_device_physics.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "revwave/core/dispatch_radius.hpp"
#include "revwave/cuda/backend/acoustic_device_physics.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/numerics/acoustic/next_field_probes.hpp"

namespace revwave {
namespace {

template <class V>
DeviceBuffer upload(const std::vector<V>& host, const char* what) {
  DeviceBuffer b(std::max<std::size_t>(host.size(), 1) * sizeof(V), what);
  b.upload(host.data(), host.size() * sizeof(V));
  return b;
}

}  // namespace

template <class T>
CpmlDevicePhysics<T>::CpmlDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev,
                                        std::unique_ptr<DevicePhysics<T>> inner, std::size_t field_capacity)
    : p_(problem),
      dev_(dev),
      inner_(std::move(inner)),
      next_field_(std::max(field_capacity, problem.grid.template field_bytes<T>()), "u[n+1] for the C-PML's reverse") {
  build();
}

template <class T>
bool CpmlDevicePhysics<T>::retarget(UploadRing* ring, cudaStream_t stream) {
  if (!p_.cpml || !inner_->retarget(ring, stream)) return false;
  REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));  // the last steps may still read the tables
  if (p_.grid.template field_bytes<T>() > next_field_.bytes())
    throw std::logic_error("CpmlDevicePhysics::retarget: the window exceeds the fields' capacity");
  build();
  next_field_.zero_async(stream);  // the halos and row gaps of the new layout, which no sweep writes
  return true;
}

template <class T>
void CpmlDevicePhysics<T>::build() {
  if (!p_.cpml) throw std::logic_error("the C-PML physics on a problem without a C-PML");
  radius_ = static_cast<int>(p_.grid.radius());
  t_ = CpmlTables<T>{};
  stagger_ = DeviceBuffer{};
  image_ = nullptr;
  const Grid& g = p_.grid;
  const CpmlProfile<T>& c = *p_.cpml;
  const CpmlLayout& l = c.layout;
  const CpmlPointTables<T> host = cpml_point_tables(g, c);  // the layout here, the profile uploaded below
  static_cast<CpmlPointTables<T>&>(t_) = host;
  for (int a = 0; a < 3; ++a) {
    a_[a] = upload(c.a[a], "the C-PML's a");
    b_[a] = upload(c.b[a], "the C-PML's b");
    t_.a[a] = a_[a].template as<T>();
    t_.b[a] = b_[a].template as<T>();
  }
  d1_ = upload(c.d1, "the C-PML's weights");
  d2_ = upload(c.d2, "the C-PML's weights");
  t_.d1 = d1_.template as<T>();
  t_.d2 = d2_.template as<T>();

  // The points are found by arithmetic (CpmlTables): nothing the size of the layer is built here.
  t_.origin = g.origin();
  t_.slab_count = l.slab_points(0) + l.slab_points(1) + l.slab_points(2);
  t_.tail_values = l.values;
  t_.region = cpml_region(host, radius_);

  // Which region place each probe is, or -1.
  const NextFieldProbes probes = make_next_field_probes(p_.src, p_.rec);
  std::vector<index_t> probe_region(probes.index.size(), -1);
  for (std::size_t p = 0; p < probes.index.size(); ++p) {
    const std::array<index_t, 3> at = g.coordinates(probes.index[p]);
    probe_region[p] = t_.region.place(at.data());
  }
  probes_ = static_cast<index_t>(probe_region.size());
  probe_region_ = upload(probe_region, "the C-PML's probes");
  share_ = DeviceBuffer(std::max<std::size_t>(probe_region.size(), 1) * sizeof(T), "the C-PML's share at the probes");

  const std::size_t values = static_cast<std::size_t>(std::max<index_t>(l.values, 1)) * sizeof(T);
  adjoint_ = DeviceBuffer(values, "the C-PML's nu and mu");
  psi_ = DeviceBuffer{};
  grad0_ = DeviceBuffer{};
  if (const std::optional<DensityCoefficients<T>> rho = inner_->density_coefficients())
    use_density(*rho, inner_->density_image());
  size_passes();
}

template <class T>
void CpmlDevicePhysics<T>::size_passes() {
  const std::size_t values = static_cast<std::size_t>(std::max<index_t>(t_.tail_values, 1)) * sizeof(T);
  const std::size_t per_region = static_cast<std::size_t>(std::max<index_t>(t_.region.count, 1)) * sizeof(T);
  if (t_.ds == nullptr)
    psi_ = DeviceBuffer{};
  else if (psi_.bytes() == 0)
    psi_ = DeviceBuffer(values, "the reverse step's psi");
  if (in_sweep())
    grad0_ = DeviceBuffer{};
  else if (grad0_.bytes() == 0)
    grad0_ = DeviceBuffer(per_region, "dJ/dm at the C-PML's region");
}

template <class T>
CpmlTables<T> CpmlDevicePhysics<T>::tables() const {
  CpmlTables<T> t = t_;
  const SweepArgs<T>& b = dev_.sweep_base();
  t.m = b.m;
  t.kappa[0] = b.kx;
  t.kappa[1] = b.ky;
  t.kappa[2] = b.kz;
  t.c = b.c;
  return t;
}

template <class T>
void CpmlDevicePhysics<T>::forward_sweep(const DeviceForwardSweep<T>& s, cudaStream_t stream) {
  if (s.encode != nullptr || s.decode_u != nullptr)
    throw std::logic_error("CpmlDevicePhysics: its sweep neither encodes nor decodes in passing");
  if (!in_sweep() || s.illuminate != nullptr) {
    inner_->forward_sweep(s, stream);
    launch_cpml_forward(tables(), s.u, s.out, radius_, stream);
    return;
  }
  const CpmlTables<T> t = tables();
  launch_cpml_psi(t, s.u, s.out + t.tail, radius_, stream);  // the sweep reads psi[n] at the neighbours
  CpmlSweepFields<T> f;
  f.u = s.u;
  f.out = s.out;
  launch_cpml_sweep(forward_sweep_args(dev_, p_.grid, s), t, f, CpmlSweepMode::forward, radius_, stream);
}

template <class T>
void CpmlDevicePhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) {
  const CpmlTables<T> t = tables();
  if (!in_sweep()) {
    inner_->adjoint_sweep(lam, lam_prev, out, stream);
    launch_cpml_adjoint_passes(t, lam, adjoint_.template as<T>(), radius_, stream);
    launch_cpml_adjoint(t, adjoint_.template as<const T>(), out, radius_, stream);
    return;
  }
  launch_cpml_adjoint_passes(t, lam, adjoint_.template as<T>(), radius_, stream);  // they read lam, not out
  SweepArgs<T> a = dev_.sweep_base();
  a.u = lam;
  a.u_prev = lam_prev;
  a.out = out;
  CpmlSweepFields<T> f;
  f.adj = adjoint_.template as<const T>();
  launch_cpml_sweep(a, t, f, CpmlSweepMode::adjoint, radius_, stream);
}

template <class T>
void CpmlDevicePhysics<T>::probes(const ProbeStep<T>& step, cudaStream_t stream) {
  if (step.probes.count != probes_) throw std::logic_error("CpmlDevicePhysics: the probes changed");
  launch_cpml_probe_share(tables(), probes_, probe_region_.template as<index_t>(), step.sweep.u,
                          share_.template as<T>(), radius_, stream);
  ProbeStep<T> shared = step;
  shared.boundary_share = share_.template as<T>();
  shared.boundary_probe = probe_region_.template as<index_t>();
  inner_->probes(shared, stream);
}

template <class T>
void CpmlDevicePhysics<T>::reverse_sweep(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  if (s.u_next == nullptr) throw std::logic_error("CpmlDevicePhysics::reverse_sweep: u[n+1] not given");
  if (in_sweep()) {
    const CpmlTables<T> t = tables();
    launch_cpml_adjoint_passes(t, s.lam, adjoint_.template as<T>(), radius_, stream);  // from lam[n+2]
    CpmlSweepFields<T> f;
    f.adj = adjoint_.template as<const T>();
    f.u_next = s.u_next;
    launch_cpml_sweep(reverse_sweep_args(dev_, s), t, f, CpmlSweepMode::reverse, radius_, stream);
    return;
  }
  launch_cpml_save_gradient(tables(), s.grad, grad0_.template as<T>(), stream);
  inner_->reverse_sweep(s, stream);
  CpmlReverse<T> r;
  r.u = s.u;
  r.u_prev = s.u_prev;
  r.adj = adjoint_.template as<T>();
  r.grad0 = grad0_.template as<T>();
  r.lam_out = s.lam_out;
  r.grad = s.grad;
  r.c = p_.coeffs;
  // Under a density the layer's share of dJ/drho reads psi[n] (after_adjoint_source): there the
  // history keeps u[n]'s tail.
  if (t_.ds != nullptr) launch_cpml_psi(tables(), s.u, psi_.template as<T>(), radius_, stream);
  launch_cpml_adjoint_passes(tables(), s.lam, adjoint_.template as<T>(), radius_, stream);
  r.u_next = s.u_next;
  launch_cpml_reverse(tables(), r, radius_, stream);
}

template <class T>
const T* CpmlDevicePhysics<T>::next_field(index_t n, const T* u, const T* u_prev, cudaStream_t stream) {
  DeviceForwardSweep<T> sweep;
  sweep.u = u;
  sweep.u_prev = u_prev;
  sweep.out = next_field_.template as<T>();
  forward_sweep(sweep, stream);  // CudaPropagator::forward_step's kernels, in its order
  launch_inject(dev_.src(), dev_.wavelet() + n, 0, dev_.src_scale(), sweep.out, stream);
  return sweep.out;
}

template <class T>
void CpmlDevicePhysics<T>::reset_adjoint(cudaStream_t stream) {
  inner_->reset_adjoint(stream);
  adjoint_.zero_async(stream);
}

template <class T>
void CpmlDevicePhysics<T>::use_density(const DensityCoefficients<T>& c, T* image) {
  t_.ds = c.s;
  t_.dt = c.t;
  for (int a = 0; a < 3; ++a) t_.db[a] = c.b[2 - a];  // x, y, z from z, y, x
  std::vector<T> d(std::begin(c.d), std::end(c.d));
  stagger_ = upload(d, "the density's staggered weights");
  t_.dstag = stagger_.template as<T>();
  image_ = image;
}

template <class T>
void CpmlDevicePhysics<T>::after_adjoint_source(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  inner_->after_adjoint_source(s, stream);
  if (t_.ds == nullptr || image_ == nullptr) return;
  launch_cpml_density_image(tables(), s.u, static_cast<const T*>(s.lam_out), adjoint_.template as<const T>(),
                            psi_.template as<const T>(), image_, radius_, stream);
}

template class CpmlDevicePhysics<float>;
template class CpmlDevicePhysics<double>;

}  // namespace revwave
