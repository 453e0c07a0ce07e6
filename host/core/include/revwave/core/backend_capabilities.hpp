// What a backend can do, as a value its propagator type exposes (CpuPropagator::capabilities, the
// CUDA backend's cuda_capabilities) and the backend registry hands out (backend_capabilities in
// revwave/driver/backend_registry.hpp). Planners, tier parsers, budgets and reports ask this value,
// so that none of them names a backend: a third backend is a value here, not a branch in each.
#pragma once

namespace revwave {

struct BackendCapabilities {
  const char* name = "";  // how sentences name the backend: "CPU", "CUDA"
  // Its fields and memory slots live in an accelerator's own memory, not this host's: it takes device
  // budgets (--device-memory, --host-memory, --host-spacing, --shots-at-once), one device per local
  // rank (ordinal = local rank modulo the devices), and its reports say where its slots were placed.
  bool device_memory = false;
  // A tier of page-locked host memory between its memory and the disk (--tier pinned).
  bool pinned_tier = false;
  // Where false, ZFP (which encodes on the host) compresses only the slots spilled to pinned host
  // memory; its own memory tier holds raw slots.
  bool host_codecs_in_memory_tier = true;
  // Runs several shots at once on one device (the shot engine's lanes).
  bool shot_lanes = false;
  // Runs the pseudo-acoustic VTI physics (numerics/vti/).
  bool vti = false;
  // Runs the visco-acoustic physics (numerics/visco/).
  bool visco = false;
  // Its memory slots and a stored history are this host's memory, checked against what the machine
  // has before anything is allocated: where they are not a device's.
  bool slots_in_host_memory() const { return !device_memory; }

  // The tier names it takes, for sentences: "memory or disk", "memory, pinned or disk".
  const char* tier_names() const { return pinned_tier ? "memory, pinned or disk" : "memory or disk"; }
};

// Every tier name and no device: what `revwave schedule`, which runs on no backend, accepts.
inline constexpr BackendCapabilities no_backend{"", false, true, true, false};

}  // namespace revwave
