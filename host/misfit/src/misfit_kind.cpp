// The misfits by name, and the factory the edges call once they have parsed one.
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/misfit/l2_misfit.hpp"

namespace revwave {

const char* to_string(MisfitKind m) {
  switch (m) {
    case MisfitKind::l2: return "l2";
  }
  return "?";
}

MisfitKind parse_misfit(std::string_view text) {
  if (text == "l2") return MisfitKind::l2;
  throw InputError("--misfit '" + std::string(text) + "' is unknown: use l2");
}

template <class T>
std::unique_ptr<Misfit<T>> make_misfit(MisfitKind kind) {
  switch (kind) {
    case MisfitKind::l2: return std::make_unique<L2Misfit<T>>();
  }
  throw InputError("misfit " + std::to_string(static_cast<int>(kind)) + " is unknown");
}

template std::unique_ptr<Misfit<float>> make_misfit<float>(MisfitKind);
template std::unique_ptr<Misfit<double>> make_misfit<double>(MisfitKind);

}  // namespace revwave
