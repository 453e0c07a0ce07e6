// The named choices of a run (backend, strategy, store, precision) as enums. Text becomes an enum
// once, where it enters (the CLI's options, the config file, the Python keywords: parse_*), and an
// enum becomes text only where it leaves (JSON, reports: to_string). Nothing in between compares
// names.
#pragma once
#include <string>
#include <string_view>

namespace revwave {

// Where a run computes. `automatic` (--backend auto) is resolved before anything runs: CUDA when a
// device is usable, else the CPU.
enum class Backend { automatic, cpu, cuda };
// The backend every build has, the library's default where a caller names none. Past the edges, code
// asks a backend's capabilities (backend_capabilities in revwave/driver/backend_registry.hpp), never
// which backend it is.
inline constexpr Backend host_backend = Backend::cpu;
enum class Strategy { full, revolve, multilevel, online };
// Where checkpoint slots live: memory (the backend's own: host memory on the CPU, device memory on
// a GPU) or files in a directory.
enum class StoreKind { memory, disk };
enum class Precision { float32, float64 };
// The absorbing layer: a sponge (damping in the update) or a convolutional PML.
enum class Boundary { sponge, cpml };

// The spelling the user writes and the JSON carries: "auto", "cpu", "cuda"; "full", ...; "memory",
// "disk"; "float", "double".
const char* to_string(Backend b);
const char* to_string(Strategy s);
const char* to_string(StoreKind s);
const char* to_string(Precision p);
const char* to_string(Boundary b);

// InputError naming the option, the value and the choices ("--strategy 'x' is unknown: use full,
// revolve, multilevel or online").
Backend parse_backend(std::string_view text);
Strategy parse_strategy(std::string_view text);
StoreKind parse_store(std::string_view text);
Precision parse_precision(std::string_view text);
Boundary parse_boundary(std::string_view text);

// Does the strategy take checkpoint slots (--snaps, --checkpoint-memory, --store)?
inline bool takes_slots(Strategy s) { return s == Strategy::revolve || s == Strategy::online; }

}  // namespace revwave
