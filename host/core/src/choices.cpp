#include "revwave/core/choices.hpp"

#include <array>
#include <utility>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

template <class E, std::size_t N>
using Names = std::array<std::pair<E, const char*>, N>;

constexpr Names<Backend, 3> backends{{{Backend::automatic, "auto"}, {Backend::cpu, "cpu"}, {Backend::cuda, "cuda"}}};
constexpr Names<Strategy, 4> strategies{{{Strategy::full, "full"},
                                         {Strategy::revolve, "revolve"},
                                         {Strategy::multilevel, "multilevel"},
                                         {Strategy::online, "online"}}};
constexpr Names<StoreKind, 2> stores{{{StoreKind::memory, "memory"}, {StoreKind::disk, "disk"}}};
constexpr Names<Precision, 2> precisions{{{Precision::float32, "float"}, {Precision::float64, "double"}}};
constexpr Names<Boundary, 2> boundaries{{{Boundary::sponge, "sponge"}, {Boundary::cpml, "cpml"}}};

template <class E, std::size_t N>
const char* name_of(const Names<E, N>& names, E e) {
  for (const auto& [value, name] : names)
    if (value == e) return name;
  return "?";
}

// "full, revolve, multilevel or online"
template <class E, std::size_t N>
std::string listed(const Names<E, N>& names) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) out += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].second;
  return out;
}

template <class E, std::size_t N>
E parse(const Names<E, N>& names, std::string_view text, const char* option) {
  for (const auto& [value, name] : names)
    if (text == name) return value;
  throw InputError(std::string(option) + " '" + std::string(text) + "' is unknown: use " + listed(names));
}

}  // namespace

const char* to_string(Backend b) { return name_of(backends, b); }
const char* to_string(Strategy s) { return name_of(strategies, s); }
const char* to_string(StoreKind s) { return name_of(stores, s); }
const char* to_string(Precision p) { return name_of(precisions, p); }
const char* to_string(Boundary b) { return name_of(boundaries, b); }

Backend parse_backend(std::string_view text) { return parse(backends, text, "--backend"); }
Strategy parse_strategy(std::string_view text) { return parse(strategies, text, "--strategy"); }
StoreKind parse_store(std::string_view text) { return parse(stores, text, "--store"); }
Precision parse_precision(std::string_view text) { return parse(precisions, text, "--precision"); }
Boundary parse_boundary(std::string_view text) { return parse(boundaries, text, "--boundary"); }

}  // namespace revwave
