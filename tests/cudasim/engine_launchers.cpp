// The shot engine's kernel launches (cuda/backend/src/engine_kernels.cu), emulated as
// launchers.cpp does the others: each declares what it reads and writes for the race checker
// (the chunks of tile blocks it touches, read through the block table as the kernel does) and
// runs the kernel's own body over its launch shape.
#include <set>
#include <vector>

#include "cudasim.hpp"
#include "revwave/cuda/backend/engine_threads.hpp"

namespace revwave {

using cudasim::Access;
using cudasim::reads;
using cudasim::writes;

namespace {

void one_dimensional(const char* what, index_t items, const std::function<void(index_t)>& body) {
  cudasim::for_each_thread(what, engine::launch_shape(items), [&](const ThreadPlace& t) { body(engine::global_index(t)); });
}

// The chunks a list of blocks lies in, as accesses (the table itself is read too).
template <class Blocks>
void chunk_accesses(const BlockTable& table, const Blocks& blocks, bool write, std::vector<Access>& acc) {
  std::set<const double*> chunks;
  for (std::int32_t b : blocks) chunks.insert(table.chunks[b / blocks_per_chunk]);
  acc.push_back(reads(table.chunks));
  for (const double* c : chunks) acc.push_back(write ? writes(c) : reads(c));
}

std::vector<std::int32_t> blocks_of(const TileList& l) {
  std::vector<std::int32_t> out;
  for (index_t k = 0; k < l.count; ++k) out.push_back(l.entries[k].block);
  return out;
}

index_t padded_points(const WindowPlace& w) {
  return (w.shape[0] + 2 * w.nbl) * (w.shape[1] + 2 * w.nbl) * (w.shape[2] + 2 * w.nbl);
}

}  // namespace

template <class T>
void launch_window_cut(const WindowCut<T>& a, cudaStream_t stream) {
  const index_t n = padded_points(a.w);
  cudasim::run_on_stream(stream, "a window's m", {reads(a.whole_m), writes(a.m)}, [&] {
    one_dimensional("a window's m", n, [&](index_t t) { engine::window_cut_thread(a, t); });
  });
}

template <class T>
void launch_tile_fill(const TileFill<T>& a, cudaStream_t stream) {
  if (a.tiles.count == 0) return;
  std::vector<Access> acc = {reads(a.tiles.entries, std::size_t(a.tiles.count) * sizeof(TileEntry))};
  acc.push_back(a.interior != nullptr ? reads(a.interior) : reads(a.padded));
  chunk_accesses(a.blocks, blocks_of(a.tiles), true, acc);
  cudasim::run_on_stream(stream, "a window into its tiles", acc, [&] {
    one_dimensional("a window into its tiles", a.tiles.count * engine::tile_points, [&](index_t t) { engine::tile_fill_thread(a, t); });
  });
}

void launch_block_adds(const BlockAdds& a, cudaStream_t stream) {
  if (a.count == 0) return;
  std::vector<std::int32_t> dst, src;
  for (index_t k = 0; k < a.count; ++k) dst.push_back(a.sums[k].dst), src.push_back(a.sums[k].src);
  std::vector<Access> acc = {reads(a.sums, std::size_t(a.count) * sizeof(BlockSum))};
  chunk_accesses(a.blocks, src, false, acc);
  chunk_accesses(a.blocks, dst, true, acc);
  cudasim::run_on_stream(stream, "the tree's block sums", acc, [&] {
    one_dimensional("the tree's block sums", a.count * engine::tile_points, [&](index_t t) { engine::block_add_thread(a, t); });
  });
}

void launch_tile_dense(const TileDense& a, cudaStream_t stream) {
  if (a.tiles.count == 0) return;
  std::vector<Access> acc = {reads(a.tiles.entries, std::size_t(a.tiles.count) * sizeof(TileEntry)), writes(a.out)};
  chunk_accesses(a.blocks, blocks_of(a.tiles), false, acc);
  cudasim::run_on_stream(stream, "the sum's tiles into the model", acc, [&] {
    one_dimensional("the sum's tiles into the model", a.tiles.count * engine::tile_points,
                    [&](index_t t) { engine::tile_dense_thread(a, t); });
  });
}

void launch_block_copy(const BlockCopy& a, cudaStream_t stream) {
  if (a.tiles.count == 0) return;
  const std::size_t flat = std::size_t(a.tiles.count) * engine::tile_points * sizeof(double);
  std::vector<Access> acc = {reads(a.tiles.entries, std::size_t(a.tiles.count) * sizeof(TileEntry)),
                             a.to_flat ? writes(a.flat, flat) : reads(a.flat, flat)};
  chunk_accesses(a.blocks, blocks_of(a.tiles), !a.to_flat, acc);
  cudasim::run_on_stream(stream, "tile blocks copied", acc, [&] {
    one_dimensional("tile blocks copied", a.tiles.count * engine::tile_points, [&](index_t t) { engine::block_copy_thread(a, t); });
  });
}

template <class T>
void launch_square_add(const SquareAdd<T>& a, cudaStream_t stream) {
  const index_t n = a.w.shape[0] * a.w.shape[1] * a.w.shape[2];
  cudasim::run_on_stream(stream, "the illumination", {reads(a.u), writes(a.illumination, std::size_t(n) * sizeof(double))}, [&] {
    one_dimensional("the illumination", n, [&](index_t t) { engine::square_add_thread(a, t); });
  });
}

#define REVWAVE_INSTANTIATE(T)                                                 \
  template void launch_window_cut<T>(const WindowCut<T>&, cudaStream_t);      \
  template void launch_tile_fill<T>(const TileFill<T>&, cudaStream_t);        \
  template void launch_square_add<T>(const SquareAdd<T>&, cudaStream_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
