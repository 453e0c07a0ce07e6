// The misfit seam: what the gradient is the gradient of. Between the forward and the reverse
// sweep the driver hands a misfit one shot's synthetic traces (S u[n], n = 0..N, recorded by the
// first forward sweep) and its observed ones; the misfit returns J and its adjoint source
// r[n] = dJ/d(S u[n]), which the reverse sweep injects. Propagators know no misfit: they record
// traces and inject a given adjoint source, so a new misfit (correlation, envelope, a Python
// callable) is a new class here and nothing else.
#pragma once
#include <memory>
#include <string_view>

#include "revwave/misfit/traces.hpp"

namespace revwave {

// The misfits revwave knows by name (parsed where text enters, printed where it leaves), and
// `custom`: one the caller supplies (the Python bindings' callable), which no text names.
enum class MisfitKind { l2, correlation, envelope, custom };
const char* to_string(MisfitKind m);
// InputError naming the value and the choices (l2, correlation, envelope).
MisfitKind parse_misfit(std::string_view text);

template <class T>
class Misfit {
 public:
  virtual ~Misfit() = default;
  virtual MisfitKind kind() const = 0;
  // J(synthetic, observed), called once per shot with whole traces of the same shape; when
  // `adjoint_source` is not null it receives r = dJ/d(synthetic) (synthetic.size() values, the
  // same layout). J is summed in a fixed order, so the same traces give the same bits on every
  // strategy and backend. Called from several threads at once (shots side by side): const and
  // reentrant.
  virtual double evaluate(const Traces<T>& synthetic, const Traces<T>& observed, T* adjoint_source) const = 0;
};

// A built-in misfit (not `custom`): one stateless instance per kind and precision.
template <class T>
const Misfit<T>& builtin_misfit(MisfitKind kind);
template <class T>
std::unique_ptr<Misfit<T>> make_misfit(MisfitKind kind);

}  // namespace revwave
