// The acoustic sweeps' launch structs (launch/kernel_launch.hpp): the column sweep (a thread per
// column, no collectives), the shuffle sweep (the column sweep with warp shuffles), the pair sweep
// (two columns a thread, paired loads; forward), the tiled sweep
// (a block program with barriers and a shared tile), the first step after a restore from encoded
// slots, and what each reads and writes, declared once for all of them.
#pragma once
#include "revwave/cuda/kernels/acoustic/sweep_columns.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_pairs.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_restore.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_tiled.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"

namespace revwave::acoustic {

using launch::MemoryAccesses;
using launch::reads;
using launch::writes;

// Every sweep reads u, m and the damping profiles; forward it writes out (reads u_prev unless it
// is out, in place), in reverse it also reads u_prev and lam and writes out and grad.
template <class T, int R>
void sweep_accesses(const SweepArgs<T>& a, MemoryAccesses& acc) {
  const std::size_t field = launch::bytes_of<T>((a.nx + 2 * R) * a.sx);
  acc = {reads(a.u, field), reads(a.m, field), reads(a.kx, launch::bytes_of<T>(a.nx)),
         reads(a.ky, launch::bytes_of<T>(a.ny)), reads(a.kz, launch::bytes_of<T>(a.nz))};
  if (a.reverse()) {
    acc.insert(acc.end(), {reads(a.u_prev, field), reads(a.lam, field), writes(a.out, field), writes(a.grad, field)});
    if (a.lam_prev != a.out) acc.push_back(reads(a.lam_prev, field));
  } else {
    acc.push_back(writes(a.out, field));
    if (a.u_prev != a.out) acc.push_back(reads(a.u_prev, field));
  }
  if (a.illuminate.enabled()) {
    const SweepIlluminate& s = a.illuminate;
    const std::size_t sum = launch::bytes_of<double>(s.shape[0] * s.shape[1] * s.shape[2]);
    acc.insert(acc.end(), {reads(s.sum, sum), writes(s.sum, sum)});
  }
  if (!a.encode.enabled()) return;
  const std::size_t code = (a.encode.bf16 ? 0 : 8) + launch::bytes_of<std::uint16_t>(a.nx * a.ny * a.nz);
  acc.insert(acc.end(), {writes(a.encode.u, code), writes(a.encode.u_prev, code)});
  if (!a.encode.bf16)
    acc.insert(acc.end(), {reads(a.encode.u_peak, sizeof(double)), reads(a.encode.u_prev_peak, sizeof(double))});
}

template <class T, int R, bool Reverse>
struct SweepKernelBase {
  static constexpr const char* name = Reverse ? "the reverse sweep" : "the sweep";
  SweepArgs<T> a;
  void accesses(MemoryAccesses& acc) const { sweep_accesses<T, R>(a, acc); }
};

// Encode: forward, the state's encoding written in passing (SweepArgs::encode); Illuminate: forward,
// u[n]^2 added in passing (SweepArgs::illuminate).
template <class T, int R, bool Reverse, bool Encode = false, bool Illuminate = false>
struct ColumnsSweep : SweepKernelBase<T, R, Reverse> {
  using Policy = tuning::ColumnsPolicy;
  using Shared = launch::NoShared;
  static constexpr launch::Sync sync = launch::Sync::none;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm;
  explicit ColumnsSweep(const SweepArgs<T>& args) : SweepKernelBase<T, R, Reverse>{args} {}
  LaunchShape shape() const { return columns::launch_shape<Policy>(this->a); }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    columns::sweep_thread<Policy, T, R, Reverse, columns::ZFromMemory, Encode, Illuminate>(this->a, t);
  }
};

template <class T, int R, bool Reverse, bool Encode = false>
struct ShuffleSweep : SweepKernelBase<T, R, Reverse> {
  using Policy = tuning::ShufflePolicy;
  static_assert(Policy::block_z == launch::warp_size, "a warp is one row of the block");
  using Shared = launch::NoShared;
  static constexpr launch::Sync sync = launch::Sync::warp;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm;
  explicit ShuffleSweep(const SweepArgs<T>& args) : SweepKernelBase<T, R, Reverse>{args} {}
  LaunchShape shape() const { return columns::launch_shape<Policy>(this->a); }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    columns::sweep_thread<Policy, T, R, Reverse, columns::ZFromShuffles, Encode>(this->a, t);
  }
};

// Forward only (its reverse is the columns sweep's: sweep_pairs.hpp says why).
template <class T, int R>
struct PairSweep : SweepKernelBase<T, R, false> {
  using Policy = tuning::PairPolicy;
  using Shared = launch::NoShared;
  static constexpr launch::Sync sync = launch::Sync::none;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm;
  explicit PairSweep(const SweepArgs<T>& args) : SweepKernelBase<T, R, false>{args} {}
  LaunchShape shape() const { return pairs::launch_shape(this->a); }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    pairs::forward_thread<T, R>(this->a, t);
  }
};

template <class T, int R, bool Reverse>
struct TiledSweep : SweepKernelBase<T, R, Reverse> {
  using Policy = tuning::TiledPolicy;
  using Program = tiled::Sweep<T, R, Reverse>;
  using Shared = typename Program::Shared;
  static constexpr launch::Sync sync = launch::Sync::block;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm<T, Reverse>;
  explicit TiledSweep(const SweepArgs<T>& args) : SweepKernelBase<T, R, Reverse>{args} {}
  LaunchShape shape() const { return tiled::launch_shape(this->a); }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    typename Program::Thread state;
    const ThreadPlace p = t.place();
    Program::run_block(
        this->a, p.block, t.template shared<Shared>(), [&](auto&& phase) { phase(state, p); }, [&] { t.sync_block(); });
  }
};

template <class T, int R>
struct RestoreKernel {
  using Policy = tuning::RestorePolicy;
  using Shared = launch::NoShared;
  static constexpr const char* name = "the first step after a restore";
  static constexpr launch::Sync sync = launch::Sync::none;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm;
  RestoreStep<T> r;
  explicit RestoreKernel(const RestoreStep<T>& args) : r(args) {}
  LaunchShape shape() const {
    const SweepArgs<T>& a = r.sweep;
    if (a.ny > 65535L * Policy::block_y || a.nx > 65535L) throw std::logic_error("grid too large for the restore step");
    return {{blocks_covering(a.nz, Policy::block_z), blocks_covering(a.ny, Policy::block_y), unsigned(a.nx)},
            {Policy::block_z, Policy::block_y, 1}};
  }
  void accesses(MemoryAccesses& acc) const {
    const SweepArgs<T>& a = r.sweep;
    const std::size_t field = launch::bytes_of<T>((a.nx + 2 * R) * a.sx);
    const std::size_t code = (r.bf16 ? 0 : 8) + launch::bytes_of<std::uint16_t>(a.nx * a.ny * a.nz);
    acc = {reads(r.u_code, code),
           reads(r.u_prev_code, code),
           reads(a.m, field),
           reads(a.kx, launch::bytes_of<T>(a.nx)),
           reads(a.ky, launch::bytes_of<T>(a.ny)),
           reads(a.kz, launch::bytes_of<T>(a.nz)),
           writes(a.out, field),
           writes(r.u_decoded, field)};
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    restore::step_thread<T, R>(r, t.place(), Policy::block_z, Policy::block_y);
  }
};

}  // namespace revwave::acoustic
