#include "revwave/numerics/acoustic/cpu_propagator.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/numerics/fold_to_interior.hpp"
#include "revwave/store/memory_store.hpp"

namespace revwave {
template <class T>
CpuPropagator<T>::CpuPropagator(const Problem<T>& problem)
    : CpuPropagator(problem, problem.grid.template field_bytes<T>()) {}

template <class T>
CpuPropagator<T>::CpuPropagator(const Problem<T>& problem, std::size_t field_capacity)
    : p_(problem), pool_(std::max(field_capacity, problem.grid.template field_bytes<T>())) {
  pool_.ensure_capacity(2);
  state_ = HostState{pool_.acquire(), pool_.acquire()};
  layout_ = layout();
  derive();
}

template <class T>
void CpuPropagator<T>::derive() {
  // A window's physics, when retargeted: the last one re-derived where it is of the same kind.
  const std::array<bool, 4> kind{p_.density.has_value(), p_.vti.has_value(), p_.visco.has_value(), p_.cpml.has_value()};
  if (!physics_ || kind != physics_kind_ || !physics_->retarget()) physics_ = make_cpu_physics(p_);
  physics_kind_ = kind;
  const double cell = p_.grid.cell_volume();  // h^3, or h^2 on a plane
  src_scale_.resize(p_.src.index.size());
  for (std::size_t c = 0; c < src_scale_.size(); ++c)
    src_scale_[c] = static_cast<T>(1.0 / (cell * static_cast<double>(leapfrog_a_at(p_, p_.src.index[c]))));
  rec_scale_.resize(p_.rec.index.size());
  for (std::size_t c = 0; c < rec_scale_.size(); ++c) rec_scale_[c] = T(1) / leapfrog_a_at(p_, p_.rec.index[c]);
  probes_ = make_next_field_probes(p_.src, p_.rec);
  next_.resize(probes_.size());
  saved_grad_.resize(probes_.source_targets.size());
}

template <class T>
std::array<index_t, 6> CpuPropagator<T>::layout() const {
  const Grid& g = p_.grid;
  return {g.alloc(0), g.alloc(1), g.alloc(2), g.padded(0), g.padded(1), g.padded(2)};
}

template <class T>
void CpuPropagator<T>::retarget() {
  if (field_bytes() > pool_.field_bytes()) {
    throw std::logic_error("CpuPropagator::retarget: the new problem's fields exceed the capacity it was built for");
  }
  history_.clear();
  copies_.clear();
  derive();
  if (layout() == layout_) return;
  layout_ = layout();
  // Every field is back in the pool between shots but the state's two (reset_forward clears those).
  std::vector<HostField> fields;
  while (pool_.in_use() < pool_.capacity()) fields.push_back(pool_.acquire());
  const std::size_t bytes = field_bytes();
  const auto n = static_cast<std::int64_t>(fields.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t f = 0; f < n; ++f) std::memset(fields[static_cast<std::size_t>(f)].data(), 0, bytes);
}

// m, (u, u_prev), the reverse step's u[n+1], (lam, lam_prev) and the gradient, plus the gradient's
// interior copies; a forward run holds m and (u, u_prev); the dot-product test the adjoint pair too.
template <class T>
int CpuPropagator<T>::working_fields(Workload w) {
  switch (w) {
    case Workload::forward: return 3;
    case Workload::gradient: return 9;
    case Workload::dot_product_test: return 5;
  }
  return 9;
}

template <class T>
void CpuPropagator<T>::reserve_fields(std::int64_t held, const std::function<void()>& between) {
  const std::int64_t fields = 2 + held;
  try {
    pool_.ensure_capacity(fields, between);
  } catch (const OutOfMemoryError& e) {
    throw OutOfMemoryError("could not allocate " + std::to_string(fields) + " wavefields of " +
                           std::to_string(field_bytes()) + " bytes (the state and " + std::to_string(held) +
                           " held by checkpoints): " + e.what());
  }
}

template <class T>
void CpuPropagator<T>::reset_forward() {
  state_ = HostState{};  // unshared fields go back to the pool, and come straight out again
  state_ = HostState{pool_.acquire(), pool_.acquire()};
  std::memset(state_.u.data(), 0, field_bytes());
  std::memset(state_.u_prev.data(), 0, field_bytes());
}

template <class T>
void CpuPropagator<T>::forward_step(index_t n) {
  // In place (the update is point-wise in u[n-1]) unless u[n-1] is also a checkpoint's. A free
  // field's halo and row gaps are zero like any field's: zero-filled when allocated, and steps
  // write padded points only.
  HostField out = state_.u_prev.shared() ? pool_.acquire() : state_.u_prev;
  physics_->forward_sweep(state_.u.template as<T>(), state_.u_prev.template as<T>(), out.template as<T>());
  const std::vector<T> q(static_cast<std::size_t>(p_.src.count), p_.wavelet[static_cast<std::size_t>(n)]);
  inject_points(p_.src, q.data(), src_scale_.data(), out.template as<T>());
  state_.u_prev = std::move(state_.u);
  state_.u = std::move(out);
}

template <class T>
T* CpuPropagator<T>::trace_row(std::vector<T>& rows, index_t sample, index_t width) {
  const std::size_t size = static_cast<std::size_t>(p_.time.nt() * width);
  if (rows.size() != size) rows.assign(size, T(0));
  if (sample < 0 || sample >= p_.time.nt())
    throw std::logic_error("trace sample " + std::to_string(sample) + " out of range");
  return rows.data() + sample * width;
}

template <class T>
void CpuPropagator<T>::record_trace(index_t n) {
  sample_points(p_.rec, state_.u.template as<T>(), trace_row(traces_, n, p_.rec.count));
}

template <class T>
void CpuPropagator<T>::record_next_trace(index_t n) {
  next_at_probes(n - 1, state_.u.template as<T>(), state_.u_prev.template as<T>());
  T* out = trace_row(traces_, n, p_.rec.count);
  // Each receiver's corners summed in sample_points' order.
  const index_t nrec = p_.rec.count;
#pragma omp parallel for schedule(static) if (nrec > 1024)
  for (index_t r = 0; r < nrec; ++r) {
    T s = 0;
    for (index_t k = 8 * r; k < 8 * r + 8; ++k)
      s += static_cast<T>(p_.rec.weight[k]) * next_[probes_.receiver_probe[k]];
    out[r] = s;
  }
}

template <class T>
std::vector<T> CpuPropagator<T>::traces(index_t samples) const {
  const std::size_t count = static_cast<std::size_t>(samples * p_.rec.count);
  if (count > traces_.size()) throw std::logic_error("traces: more samples asked for than were recorded");
  return std::vector<T>(traces_.begin(), traces_.begin() + static_cast<std::ptrdiff_t>(count));
}

template <class T>
void CpuPropagator<T>::add_squared_interior(std::vector<double>& illumination) const {
  const Grid& g = p_.grid;
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2];
  if (illumination.size() != static_cast<std::size_t>(g.interior_points())) {
    throw std::invalid_argument("add_squared_interior: the illumination has the wrong size");
  }
  const T* u = state_.u.template as<T>();
#pragma omp parallel for schedule(static)
  for (index_t ix = 0; ix < nx; ++ix)
    for (index_t iy = 0; iy < ny; ++iy) {
      double* out = illumination.data() + (ix * ny + iy) * nz;
      const T* row = u + g.interior_index(ix, iy, 0);
      for (index_t iz = 0; iz < nz; ++iz) out[iz] += double(row[iz]) * double(row[iz]);
    }
}

template <class T>
double CpuPropagator<T>::wavefield_energy() const {
  // Per x-plane partial sums added in order: the same bits whatever the thread count. Within a
  // plane, 16 interleaved sums (lanes of vectors), added in a fixed order at its end: one running
  // sum waited on its add's latency, 0.2 of a step's time (8th order, 100^3 points, one thread),
  // and the growth guard takes 64 to 128 sums a run; these read the plane at memory speed (0.03).
  constexpr int lanes = 16;
  const Grid& g = p_.grid;
  const T* u = state_.u.template as<T>();
  std::vector<double> planes(static_cast<std::size_t>(g.alloc(0)), 0.0);
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < g.alloc(0); ++i) {
    const T* plane = u + i * g.stride_x();
    const index_t n = g.stride_x();
    double acc[lanes] = {};
    index_t k = 0;
    for (; k + lanes <= n; k += lanes)
      for (int j = 0; j < lanes; ++j) acc[j] += double(plane[k + j]) * double(plane[k + j]);
    for (; k < n; ++k) acc[k % lanes] += double(plane[k]) * double(plane[k]);
    double s = 0;
    for (double a : acc) s += a;
    planes[static_cast<std::size_t>(i)] = s;
  }
  double total = 0;
  for (double s : planes) total += s;
  return total;
}

template <class T>
void CpuPropagator<T>::reset_adjoint() {
  const std::size_t bytes = field_bytes();
  if (lam_.bytes() < bytes) {  // sized once for the largest problem the propagator serves
    const std::size_t capacity = std::max(bytes, pool_.field_bytes());
    lam_ = HostBuffer(capacity);  // mapped zero
    lam_prev_ = HostBuffer(capacity);
    grad_ = HostBuffer(capacity);
  } else {
    std::memset(lam_.data(), 0, bytes);
    std::memset(lam_prev_.data(), 0, bytes);
    std::memset(grad_.data(), 0, bytes);
  }
  physics_->reset_images();  // a re-targeted physics' too (retarget leaves them as they were)
}

template <class T>
void CpuPropagator<T>::set_adjoint_source(std::vector<T> r) {
  if (r.size() % static_cast<std::size_t>(std::max<index_t>(p_.rec.count, 1)) != 0) {
    throw std::logic_error("set_adjoint_source: not a whole number of samples");
  }
  adjoint_source_ = std::move(r);
}

template <class T>
const T* CpuPropagator<T>::adjoint_source(index_t sample) const {
  const std::size_t end = static_cast<std::size_t>((sample + 1) * p_.rec.count);
  if (sample < 0 || end > adjoint_source_.size()) {
    throw std::logic_error("adjoint source sample " + std::to_string(sample) + " was not given");
  }
  return adjoint_source_.data() + sample * p_.rec.count;
}

template <class T>
void CpuPropagator<T>::reverse_step(index_t n) {
  reverse_from(n, state_.u.template as<T>(), state_.u_prev.template as<T>());
}

template <class T>
void CpuPropagator<T>::next_at_probes(index_t n, const T* u, const T* u_prev) {
  const NextFieldProbes& pr = probes_;
  physics_->next_at(u, u_prev, pr.index.data(), pr.size(), next_.data());
  const T q = p_.wavelet[static_cast<std::size_t>(n)];
  for (index_t t : pr.source_targets)
    for (index_t e = pr.source_begin[t]; e < pr.source_begin[t + 1]; ++e) {
      const index_t k = pr.source_corner[e];
      next_[t] += static_cast<T>(p_.src.weight[k]) * q * src_scale_[k];
    }
}

// Bit for bit what the two-pass step (forward sweep into a field, source injection, adjoint
// sweep imaging with that field, adjoint-source injection) gives: the point formulas are the
// same and, with contraction off (CMakeLists.txt), so are their roundings wherever they run.
template <class T>
void CpuPropagator<T>::reverse_from(index_t n, const T* u, const T* u_prev, const T* u_next) {
  const NextFieldProbes& pr = probes_;
  const StepCoefficients<T> c = p_.coeffs;
  const T* r_next = adjoint_source(n + 1);
  if (u_next != nullptr) {
    // The step wrote the sweep's value and then added the source terms in inject_points' order:
    // next_at_probes' sum, its bits.
    for (std::size_t q = 0; q < pr.size(); ++q) next_[q] = u_next[pr.index[q]];
  } else {
    next_at_probes(n, u, u_prev);
  }

  T* grad = grad_.template as<T>();
  for (std::size_t i = 0; i < pr.source_targets.size(); ++i) saved_grad_[i] = grad[pr.index[pr.source_targets[i]]];
  T* lam = lam_.template as<T>();
  T* lam_next = lam_prev_.template as<T>();  // lam[n+3] in, lam[n+1] out
  ReverseStepView<T> step{u,      u_prev, lam,          lam_next, lam_next,         grad,
                          u_next, &pr,    next_.data(), r_next,   rec_scale_.data()};
  physics_->reverse_sweep(step);
  // Where a source injects, the sweep imaged with u[n+1] less its source term: image again from
  // the gradient as it was, with the whole u[n+1].
  for (std::size_t i = 0; i < pr.source_targets.size(); ++i) {
    const index_t t = pr.source_targets[i], idx = pr.index[t];
    grad[idx] = saved_grad_[i] + imaging_term(c, lam_next[idx], next_[t], u[idx], u_prev[idx]);
  }
  // lam += S^T r / a at the receivers, and the imaging condition's share of that increment.
  for (index_t r = 0; r < p_.rec.count; ++r)
    for (int cr = 0; cr < 8; ++cr) {
      const index_t k = 8 * r + cr;
      const index_t idx = p_.rec.index[k];
      const T delta = static_cast<T>(p_.rec.weight[k]) * r_next[r] * rec_scale_[k];
      lam_next[idx] += delta;
      grad[idx] += imaging_term(c, delta, next_[pr.receiver_probe[k]], u[idx], u_prev[idx]);
    }
  physics_->after_adjoint_source(step);
  swap(lam_, lam_prev_);
}

template <class T>
std::size_t CpuPropagator<T>::history_step_bytes() const {
  return std::min(field_bytes(), revwave::history_step_bytes<T>(p_.grid, physics_of(p_)));
}

template <class T>
std::size_t CpuPropagator<T>::allocate_history(index_t steps, const std::function<void()>& between) {
  history_.clear();
  copies_.clear();
  const std::size_t bytes = history_step_bytes();
  const std::size_t need = full_history_bytes(steps, bytes);  // u[0..N]
  require_memory(need,
                 "--strategy full (the wavefield history, " + std::to_string(steps + 1) + " fields of " +
                     format_bytes(double(bytes)) + ")",
                 "use --strategy revolve with --snaps or --checkpoint-memory");
  if (bytes < field_bytes()) {
    // A field's first `bytes` are what a step keeps (u, then the layer's values where kept:
    // Grid::cpml_values follow the allocated grid).
    copies_.reserve(static_cast<std::size_t>(steps) + 1);
    for (index_t k = 0; k <= steps; ++k) {
      copies_.emplace_back(bytes);
      if (between) between();
    }
    return need;
  }
  history_.assign(static_cast<std::size_t>(steps) + 1, HostField{});
  // u[0..N] held at once; each step's u[n-1] is the history's, so it writes a free field: N + 1.
  reserve_fields(steps - 1, between);
  return need;
}

template <class T>
void CpuPropagator<T>::record_history(index_t n) {
  if (copies_.empty()) {
    history_.at(static_cast<std::size_t>(n)) = state_.u;
    return;
  }
  HostBuffer& to = copies_.at(static_cast<std::size_t>(n));
  const std::byte* from = state_.u.data();
  // In chunks over the threads: one thread copies a large field at a fraction of the memory's speed.
  constexpr std::size_t chunk = std::size_t(1) << 20;
  const auto chunks = static_cast<std::int64_t>((to.bytes() + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t at = static_cast<std::size_t>(c) * chunk;
    std::memcpy(to.data() + at, from + at, std::min(chunk, to.bytes() - at));
  }
}

template <class T>
const T* CpuPropagator<T>::history_field(index_t k) const {
  const auto at = static_cast<std::size_t>(std::max<index_t>(k, 0));  // u[-1] = u[0] = 0
  return copies_.empty() ? history_[at].template as<T>() : copies_[at].template as<T>();
}

template <class T>
void CpuPropagator<T>::reverse_step_from_history(index_t n) {
  reverse_from(n, history_field(n), history_field(n - 1), history_field(n + 1));
}

template <class T>
void CpuPropagator<T>::release_history() {
  history_.clear();
  history_.shrink_to_fit();
  copies_.clear();
  copies_.shrink_to_fit();
  if (!keep_fields_) pool_.release_unused();
}

template <class T>
void CpuPropagator<T>::adjoint_data_step(index_t j) {
  T* lam = lam_.template as<T>();
  T* lam_prev = lam_prev_.template as<T>();
  physics_->adjoint_sweep(lam, lam_prev, lam_prev);
  inject_points(p_.rec, adjoint_source(j), rec_scale_.data(), lam_prev);
  swap(lam_, lam_prev_);
  // P^T: the source weights w / h^3 (h^2 on a plane), without 1/a (that belongs to A^{-T}).
  const T inv_cell = static_cast<T>(1.0 / p_.grid.cell_volume());
  T* source_out = trace_row(source_traces_, j, p_.src.count);
  sample_points(p_.src, lam_.template as<T>(), source_out);
  for (index_t s = 0; s < p_.src.count; ++s) source_out[s] *= inv_cell;
}

template <class T>
std::vector<T> CpuPropagator<T>::source_traces(index_t samples) const {
  const std::size_t count = static_cast<std::size_t>(samples * p_.src.count);
  if (count > source_traces_.size()) throw std::logic_error("source_traces: more samples asked for than were recorded");
  return std::vector<T>(source_traces_.begin(), source_traces_.begin() + static_cast<std::ptrdiff_t>(count));
}

template <class T>
std::vector<double> CpuPropagator<T>::interior_gradient() const {
  if (defer_gradient_) return {};
  return fold_to_interior<T>(p_.grid, grad_.template as<T>());
}

template class CpuPropagator<float>;
template class CpuPropagator<double>;

}  // namespace revwave
