#include "revwave/misfit/record_resampling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace revwave {

namespace {

constexpr double pi = 3.14159265358979323846;
// Half the amplitude at 0.85 of the records' Nyquist frequency: with the window's transition (about
// 0.3 of it either side for 16 samples at beta 8) the stop band begins at the Nyquist frequency, so
// nothing folds back onto the records, and the pass band is flat to 0.7 of it.
constexpr double cutoff = 0.85;
constexpr double kaiser_beta = 8.0;

double sinc(double x) { return x == 0 ? 1.0 : std::sin(pi * x) / (pi * x); }

// Fewer multiply-adds than this run on one thread (a team's start costs more).
constexpr index_t parallel_from = index_t(1) << 22;

void check_substeps(index_t k) {
  if (k < 1) throw std::logic_error("record resampling: substeps " + std::to_string(k) + " < 1");
}

}  // namespace

std::vector<double> resampling_taps(index_t k) {
  check_substeps(k);
  if (k == 1) return {1.0};
  const index_t reach = k * resampling_half_width;  // |m| < reach
  std::vector<double> h(static_cast<std::size_t>(2 * reach - 1));
  const double i0_beta = std::cyl_bessel_i(0.0, kaiser_beta);
  for (index_t m = -(reach - 1); m < reach; ++m) {
    const double t = static_cast<double>(m) / static_cast<double>(reach);
    const double window = std::cyl_bessel_i(0.0, kaiser_beta * std::sqrt(1.0 - t * t)) / i0_beta;
    h[static_cast<std::size_t>(m + reach - 1)] = cutoff * sinc(cutoff * static_cast<double>(m) / k) * window;
  }
  // Each phase (the taps that reach one simulation sample from successive record samples) sums to
  // 1 / k: a constant passes R and k R^T unchanged.
  for (index_t p = 0; p < k; ++p) {
    double sum = 0;
    for (std::size_t i = static_cast<std::size_t>(p); i < h.size(); i += static_cast<std::size_t>(k)) sum += h[i];
    for (std::size_t i = static_cast<std::size_t>(p); i < h.size(); i += static_cast<std::size_t>(k))
      h[i] /= sum * static_cast<double>(k);
  }
  return h;
}

index_t simulation_samples(index_t record_samples, index_t k) {
  check_substeps(k);
  if (record_samples < 1)
    throw std::logic_error("record resampling: " + std::to_string(record_samples) + " record samples");
  return k == 1 ? record_samples : (record_samples - 1 + resampling_half_width) * k + 1;
}

index_t record_samples(index_t simulation_samples, index_t k) {
  check_substeps(k);
  if (simulation_samples < 1)
    throw std::logic_error("record resampling: " + std::to_string(simulation_samples) + " simulation samples");
  if (k == 1) return simulation_samples;
  return std::max<index_t>(1, (simulation_samples - 1) / k + 1 - resampling_half_width);
}

namespace {

// The input rows an output row sums: first..last, the first's tap and the tap's step from one to the next.
struct Terms {
  index_t first, last, tap, step;
};

// out (rows x nrec): row i = sum over the input rows in terms(i) of h[tap] in[row, :], in that order,
// in double. Rows go to the OpenMP team above parallel_from multiply-adds (`per_row` terms a row):
// each row sums its terms in one order, so the bits are any team's.
template <class T, class TermsOf>
void tap_rows(const T* in, index_t rows, index_t nrec, const std::vector<double>& h, index_t per_row, TermsOf terms,
              T* out) {
#pragma omp parallel if (rows * nrec * per_row > parallel_from)
  {
    std::vector<double> row(static_cast<std::size_t>(nrec));
#pragma omp for schedule(static)
    for (index_t i = 0; i < rows; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      const Terms t = terms(i);
      for (index_t src = t.first, tap = t.tap; src <= t.last; ++src, tap += t.step) {
        const double weight = h[static_cast<std::size_t>(tap)];
        const T* v = in + src * nrec;
        for (index_t r = 0; r < nrec; ++r) row[static_cast<std::size_t>(r)] += weight * static_cast<double>(v[r]);
      }
      T* o = out + i * nrec;
      for (index_t r = 0; r < nrec; ++r) o[r] = static_cast<T>(row[static_cast<std::size_t>(r)]);
    }
  }
}

}  // namespace

// Both directions index the taps as h[n k - j + reach - 1] (record sample n, simulation sample j).
template <class T>
void resample_to_records(const T* in, index_t nt_sim, index_t nrec, index_t k, T* out) {
  const index_t nt_rec = record_samples(nt_sim, k);
  const std::vector<double> h = resampling_taps(k);
  const index_t reach = (static_cast<index_t>(h.size()) + 1) / 2;
  // s[j] with j = n k - m, |m| < reach, 0 <= j < nt_sim.
  tap_rows(
      in, nt_rec, nrec, h, reach,
      [&](index_t n) {
        const index_t j0 = std::max<index_t>(0, n * k - (reach - 1)),
                      j1 = std::min<index_t>(nt_sim - 1, n * k + reach - 1);
        return Terms{j0, j1, n * k - j0 + reach - 1, -1};
      },
      out);
}

template <class T>
void resample_to_simulation(const T* in, index_t nt_sim, index_t nrec, index_t k, T* out) {
  const index_t nt_rec = record_samples(nt_sim, k);
  const std::vector<double> h = resampling_taps(k);
  const index_t reach = (static_cast<index_t>(h.size()) + 1) / 2;
  // r[n] with |n k - j| < reach, 0 <= n < nt_rec: the transpose of the sum above, term by term.
  tap_rows(
      in, nt_sim, nrec, h, reach / k,
      [&](index_t j) {
        const index_t n0 = std::max<index_t>(0, (j - (reach - 1) + k - 1) / k);
        const index_t n1 = std::min<index_t>(nt_rec - 1, (j + reach - 1) / k);
        return Terms{n0, n1, n0 * k - j + reach - 1, k};
      },
      out);
}

std::vector<double> interpolate_signature(const std::vector<double>& w, index_t k) {
  check_substeps(k);
  if (k == 1 || w.empty()) return w;
  const index_t nt_sim = simulation_samples(static_cast<index_t>(w.size()), k);
  std::vector<double> out(static_cast<std::size_t>(nt_sim));
  resample_to_simulation(w.data(), nt_sim, 1, k, out.data());
  for (double& v : out) v *= static_cast<double>(k);
  return out;
}

template <class T>
ResampledMisfit<T>::ResampledMisfit(const Misfit<T>& inner, index_t substeps) : inner_(inner), substeps_(substeps) {
  check_substeps(substeps);
}

template <class T>
double ResampledMisfit<T>::evaluate(const Traces<T>& synthetic, const Traces<T>& observed, T* adjoint_source) const {
  if (substeps_ == 1) return inner_.evaluate(synthetic, observed, adjoint_source);
  const index_t k = substeps_, nrec = synthetic.nrec;
  const index_t nt_rec = record_samples(synthetic.nt, k);
  const double dt = synthetic.dt * static_cast<double>(k);
  std::vector<T> resampled(static_cast<std::size_t>(nt_rec * nrec));
  resample_to_records(synthetic.values, synthetic.nt, nrec, k, resampled.data());
  const Traces<T> s{nt_rec, nrec, dt, resampled.data()};
  const Traces<T> d{nt_rec, nrec, dt, observed.values};
  if (adjoint_source == nullptr) return inner_.evaluate(s, d, nullptr);
  std::vector<T> r(resampled.size());
  const double j = inner_.evaluate(s, d, r.data());
  resample_to_simulation(r.data(), synthetic.nt, nrec, k, adjoint_source);
  return j;
}

template void resample_to_records<float>(const float*, index_t, index_t, index_t, float*);
template void resample_to_records<double>(const double*, index_t, index_t, index_t, double*);
template void resample_to_simulation<float>(const float*, index_t, index_t, index_t, float*);
template void resample_to_simulation<double>(const double*, index_t, index_t, index_t, double*);
template class ResampledMisfit<float>;
template class ResampledMisfit<double>;

}  // namespace revwave
