#include "py_misfit.hpp"

#include <nanobind/ndarray.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "revwave/core/errors.hpp"

namespace revwave::python {
namespace {

template <class T>
const char* dtype_name() {
  return sizeof(T) == 4 ? "float32" : "float64";
}

// The adjoint source the callable returned, checked and copied (any strides) into `out`.
template <class T>
void take_adjoint_source(const nb::handle& value, index_t nt, index_t nrec, T* out) {
  const std::string expected =
      "an array of shape (" + std::to_string(nt) + ", " + std::to_string(nrec) + ") and dtype " + dtype_name<T>();
  nb::ndarray<nb::ro> a;
  if (!nb::try_cast(value, a)) {
    throw InputError("misfit: the adjoint source is a " + std::string(nb::inst_name(value).c_str()) + ", expected " +
                     expected);
  }
  if (a.device_type() != nb::device::cpu::value)
    throw InputError("misfit: the adjoint source must be on the CPU, " + expected);
  if (a.ndim() != 2 || a.shape(0) != static_cast<std::size_t>(nt) || a.shape(1) != static_cast<std::size_t>(nrec)) {
    std::string got = "(";
    for (std::size_t i = 0; i < a.ndim(); ++i) got += (i ? ", " : "") + std::to_string(a.shape(i));
    throw InputError("misfit: the adjoint source has shape " + got + (a.ndim() == 1 ? ",)" : ")") + ", expected " +
                     expected);
  }
  if (a.dtype() != nb::dtype<T>())
    throw InputError(std::string("misfit: the adjoint source's dtype is not ") + dtype_name<T>() + ", expected " +
                     expected);
  const T* p = static_cast<const T*>(a.data());
  const std::int64_t s0 = a.stride(0), s1 = a.stride(1);  // in elements
  for (index_t n = 0; n < nt; ++n)
    for (index_t r = 0; r < nrec; ++r) out[n * nrec + r] = p[n * s0 + r * s1];
}

// The callable as a message names it: its qualified name, else its repr.
std::string callable_name(const nb::object& fn) {
  if (nb::hasattr(fn, "__qualname__")) return nb::str(fn.attr("__qualname__")).c_str();
  return nb::repr(fn).c_str();
}

// A non-finite adjoint source is the misfit's doing, not the propagator's: said before the reverse
// sweep runs on it, naming the misfit and the first sample.
template <class T>
void require_finite_adjoint_source(const T* r, index_t nt, index_t nrec, const std::string& name) {
  for (index_t i = 0; i < nt * nrec; ++i) {
    if (std::isfinite(r[i])) continue;
    const double v = static_cast<double>(r[i]);
    throw InputError("misfit " + name + ": its adjoint source is " +
                     (std::isnan(v) ? "NaN"
                      : v > 0       ? "inf"
                                    : "-inf") +
                     " at sample " + std::to_string(i / nrec) + ", receiver " + std::to_string(i % nrec) +
                     "; a misfit must return a finite adjoint source");
  }
}

template <class T>
class PyMisfit final : public Misfit<T> {
 public:
  explicit PyMisfit(nb::object fn) : fn_(std::move(fn)) {}
  // The last reference to the callable may go on a thread without the GIL (a run's options).
  ~PyMisfit() override {
    nb::gil_scoped_acquire gil;
    fn_.reset();
  }
  MisfitKind kind() const override { return MisfitKind::custom; }

  double evaluate(const Traces<T>& syn, const Traces<T>& obs, T* adjoint_source) const override {
    nb::gil_scoped_acquire gil;
    const std::vector<std::size_t> shape = {static_cast<std::size_t>(syn.nt), static_cast<std::size_t>(syn.nrec)};
    // Copies that the callable owns (it may keep them): nt x nrec each way per shot.
    nb::object s = nb::cast(owned(std::vector<T>(syn.values, syn.values + syn.size()), shape));
    nb::object d = nb::cast(owned(std::vector<T>(obs.values, obs.values + obs.size()), shape));
    const nb::object result = fn_(s, d);  // an exception in fn propagates as it is
    if (!nb::isinstance<nb::tuple>(result) || nb::len(result) != 2) {
      throw InputError("misfit: the callable returned a " + std::string(nb::inst_name(result).c_str()) +
                       ", expected a pair (J, adjoint_source)");
    }
    double j = 0;
    if (!nb::try_cast(result[0], j)) {
      throw InputError("misfit: J is a " + std::string(nb::inst_name(result[0]).c_str()) + ", expected a real number");
    }
    if (!std::isfinite(j)) throw InputError("misfit: J = " + std::to_string(j) + " is not finite");
    if (adjoint_source != nullptr) {
      take_adjoint_source<T>(result[1], syn.nt, syn.nrec, adjoint_source);
      require_finite_adjoint_source(adjoint_source, syn.nt, syn.nrec, callable_name(fn_));
    }
    return j;
  }

 private:
  nb::object fn_;
};

}  // namespace

MisfitChoice python_misfit(nb::object fn) {
  if (!PyCallable_Check(fn.ptr()))
    throw InputError(
        "misfit: a name (l2, correlation, envelope) or a callable fn(synthetic, observed) -> (J, adjoint_source)");
  MisfitChoice c;
  c.kind = MisfitKind::custom;
  c.custom_float = std::make_shared<PyMisfit<float>>(fn);
  c.custom_double = std::make_shared<PyMisfit<double>>(fn);
  return c;
}

}  // namespace revwave::python
