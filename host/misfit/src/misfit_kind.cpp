// The misfits by name, and the built-in instances the edges reach once they have parsed one.
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/misfit/correlation_misfit.hpp"
#include "revwave/misfit/envelope_misfit.hpp"
#include "revwave/misfit/l2_misfit.hpp"

namespace revwave {

const char* to_string(MisfitKind m) {
  switch (m) {
    case MisfitKind::l2: return "l2";
    case MisfitKind::correlation: return "correlation";
    case MisfitKind::envelope: return "envelope";
    case MisfitKind::custom: return "custom";
  }
  return "?";
}

MisfitKind parse_misfit(std::string_view text) {
  if (text == "l2") return MisfitKind::l2;
  if (text == "correlation") return MisfitKind::correlation;
  if (text == "envelope") return MisfitKind::envelope;
  throw InputError("--misfit '" + std::string(text) + "' is unknown: use l2, correlation or envelope");
}

template <class T>
const Misfit<T>& builtin_misfit(MisfitKind kind) {
  static const CorrelationMisfit<T> correlation;
  static const EnvelopeMisfit<T> envelope;
  switch (kind) {
    case MisfitKind::l2: return l2_misfit<T>();
    case MisfitKind::correlation: return correlation;
    case MisfitKind::envelope: return envelope;
    case MisfitKind::custom: break;
  }
  throw InputError(std::string("misfit ") + to_string(kind) + " is not built in");
}

template <class T>
std::unique_ptr<Misfit<T>> make_misfit(MisfitKind kind) {
  switch (kind) {
    case MisfitKind::l2: return std::make_unique<L2Misfit<T>>();
    case MisfitKind::correlation: return std::make_unique<CorrelationMisfit<T>>();
    case MisfitKind::envelope: return std::make_unique<EnvelopeMisfit<T>>();
    case MisfitKind::custom: break;
  }
  throw InputError(std::string("misfit ") + to_string(kind) + " is not built in");
}

template const Misfit<float>& builtin_misfit<float>(MisfitKind);
template const Misfit<double>& builtin_misfit<double>(MisfitKind);
template std::unique_ptr<Misfit<float>> make_misfit<float>(MisfitKind);
template std::unique_ptr<Misfit<double>> make_misfit<double>(MisfitKind);

}  // namespace revwave
