// The messages of the shot-parallel runner (internal to revwave_mpi): tags, waiting without
// spinning, a shot's gradient as the tiles its window touches, errors packed as [kind, flag, message].
#pragma once
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "revwave/survey/shot_runner.hpp"

namespace revwave::mpi_detail {

enum Tag : int { kReady = 11, kResult, kGradient, kFailed, kCancelled, kWork, kStop, kAbort };

// Out of a worker's shot when rank 0 says the run has failed elsewhere; not a std::exception, so
// that nothing between the progress callback and the runner mistakes it for the shot's own error.
struct Cancelled {};

// Waits for a matching message without spinning a core away from the shots being computed.
inline MPI_Status wait_for(int source, int tag) {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st);
    if (flag) return st;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

inline std::vector<char> receive_bytes(const MPI_Status& st) {
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  std::vector<char> b(static_cast<std::size_t>(n));
  MPI_Recv(b.data(), n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return b;
}

// Gradients travel in pieces that an int count can hold (the tiles a shot's window touches).
constexpr std::size_t kPiece = std::size_t{1} << 27;
inline void send_doubles(const double* v, std::size_t n, int dest) {
  for (std::size_t i = 0; i < n; i += kPiece) {
    MPI_Send(v + i, static_cast<int>(std::min(kPiece, n - i)), MPI_DOUBLE, dest, kGradient, MPI_COMM_WORLD);
  }
}
inline void receive_doubles(double* v, std::size_t n, int source) {
  for (std::size_t i = 0; i < n; i += kPiece) {
    MPI_Recv(v + i, static_cast<int>(std::min(kPiece, n - i)), MPI_DOUBLE, source, kGradient, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
}
inline void send_int64s(const std::int64_t* v, std::size_t n, int dest) {
  for (std::size_t i = 0; i < n; i += kPiece) {
    MPI_Send(v + i, static_cast<int>(std::min(kPiece, n - i)), MPI_INT64_T, dest, kGradient, MPI_COMM_WORLD);
  }
}
inline void receive_int64s(std::int64_t* v, std::size_t n, int source) {
  for (std::size_t i = 0; i < n; i += kPiece) {
    MPI_Recv(v + i, static_cast<int>(std::min(kPiece, n - i)), MPI_INT64_T, source, kGradient, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
}

// A shot's part: its tile count, then (tile, owes + 0.0) per tile, then the values tile after tile
// (read from wherever the blocks live): window-sized, never the whole model.
inline void send_part(const TiledPart& part, int dest) {
  const std::vector<TileEntry>& entries = part.entries();
  std::int64_t count = static_cast<std::int64_t>(entries.size());
  MPI_Send(&count, 1, MPI_INT64_T, dest, kGradient, MPI_COMM_WORLD);
  if (count == 0) return;
  std::vector<std::int64_t> tiles;
  tiles.reserve(2 * entries.size());
  for (const TileEntry& e : entries) {
    tiles.push_back(e.tile);
    tiles.push_back(e.plus_zero);
  }
  send_int64s(tiles.data(), tiles.size(), dest);
  std::vector<double> values(part.values());
  part.blocks()->read(entries, values.data());
  send_doubles(values.data(), values.size(), dest);
}

inline TiledPart receive_part(TileBlocks& blocks, int source) {
  std::int64_t count = 0;
  MPI_Recv(&count, 1, MPI_INT64_T, source, kGradient, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (count == 0) return {};
  std::vector<std::int64_t> tiles(2 * static_cast<std::size_t>(count));
  receive_int64s(tiles.data(), tiles.size(), source);
  std::vector<TileEntry> entries(static_cast<std::size_t>(count));
  for (std::size_t k = 0; k < entries.size(); ++k) {
    entries[k].tile = tiles[2 * k];
    entries[k].plus_zero = static_cast<std::int32_t>(tiles[2 * k + 1]);
  }
  std::vector<double> values(entries.size() * static_cast<std::size_t>(TileGrid::points));
  receive_doubles(values.data(), values.size(), source);
  return part_from_values(blocks, std::move(entries), values.data());
}

inline void send_bytes(const std::vector<char>& b, int dest, int tag) {
  MPI_Send(b.data(), static_cast<int>(b.size()), MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

// An error or a stop: [kind, flag, message bytes].
inline std::vector<char> pack(int kind, int flag, const std::string& message) {
  std::vector<char> b(2 * sizeof(int) + message.size());
  std::memcpy(b.data(), &kind, sizeof kind);
  std::memcpy(b.data() + sizeof kind, &flag, sizeof flag);
  std::memcpy(b.data() + 2 * sizeof(int), message.data(), message.size());
  return b;
}

inline void unpack(const std::vector<char>& b, int& kind, int& flag, std::string& message) {
  if (b.size() < 2 * sizeof(int)) throw std::logic_error("MPI runner: short control message");
  std::memcpy(&kind, b.data(), sizeof kind);
  std::memcpy(&flag, b.data() + sizeof kind, sizeof flag);
  message.assign(b.data() + 2 * sizeof(int), b.size() - 2 * sizeof(int));
}

// Collective over MPI_COMM_WORLD: the error of the lowest failing rank, thrown on every process.
void agree_over_world(int rank, int size, const std::exception_ptr& failure);
// Rank 0's side of a run over `size` processes.
SurveySum run_master(int size, std::int64_t count, TileBlocks& sums, const ShotTask& task, const Progress& shots_done);

}  // namespace revwave::mpi_detail
