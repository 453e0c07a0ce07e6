// Rank 0 of a shot-parallel run: hands shot indices out in ascending order to whichever worker
// asks, runs shots itself between requests (answering requests from its own shot's progress
// callback), and sums every shot's J_s and g_s on the fixed tree as they arrive (a worker's tiles
// go into rank 0's blocks, on its device where it has one).
#include "mpi_messages.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/survey/summation_tree.hpp"

namespace revwave::mpi_detail {
namespace {

// Rank 0's side of a run: hands shots out, runs its own between requests, sums on the tree.
class Master {
 public:
  Master(int size, std::int64_t count, TileBlocks& blocks, const Progress& shots_done)
      : size_(size),
        count_(count),
        shots_done_(shots_done),
        sums_(count, blocks),
        busy_(static_cast<std::size_t>(size), 0),
        aborted_(static_cast<std::size_t>(size), 0),
        running_(size - 1) {
    sum_.shots.resize(static_cast<std::size_t>(count));
    sum_.processes = size;
  }

  SurveySum run(const ShotTask& task) {
    const Progress poll = [&](index_t, index_t) { serve(); };
    auto last = std::chrono::steady_clock::now();
    while (fail_kind_ == 0 && next_ < count_) {
      const std::int64_t s = next_++;
      try {
        record(run_task(task, s, 0, poll, last));
      } catch (const std::exception& e) {
        fail(error_kind(e), std::string(e.what()) + " (rank 0)");
      }
      serve();
      last = std::chrono::steady_clock::now();  // the others' parts summed meanwhile are their shots' phases
    }
    while (running_ > 0) handle(wait_for(MPI_ANY_SOURCE, MPI_ANY_TAG));
    if (fail_kind_ != 0) throw_error_of_kind(fail_kind_, fail_message_);
    sums_.finish(sum_);
    return std::move(sum_);
  }

 private:
  void record(ShotOutput&& out) {
    sums_.add(std::move(out), sum_);
    ++done_;
    if (shots_done_) shots_done_(done_, count_);
  }

  // The first failure is the run's; the workers busy with a shot are told to drop it.
  void fail(int kind, const std::string& message) {
    if (fail_kind_ == 0) {
      fail_kind_ = kind;
      fail_message_ = message;
    }
    for (int w = 1; w < size_; ++w) {
      if (busy_[w] && !aborted_[w]) {
        MPI_Send(nullptr, 0, MPI_BYTE, w, kAbort, MPI_COMM_WORLD);
        aborted_[w] = 1;
      }
    }
  }

  // A worker that has reported gets the next shot, or the stop (with the run's error, if any).
  void reply(int w) {
    busy_[w] = 0;
    if (fail_kind_ == 0 && next_ < count_) {
      const std::int64_t s = next_++;
      MPI_Send(&s, 1, MPI_INT64_T, w, kWork, MPI_COMM_WORLD);
      busy_[w] = 1;
      return;
    }
    send_bytes(pack(fail_kind_, aborted_[w], fail_message_), w, kStop);
    --running_;
  }

  void handle(const MPI_Status& st) {
    const int w = st.MPI_SOURCE;
    switch (st.MPI_TAG) {
      case kResult: {
        ShotOutput out;
        MPI_Recv(&out.summary, sizeof(ShotSummary), MPI_BYTE, w, kResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        out.gradient = receive_part(sums_.blocks(), w);
        if (fail_kind_ == 0) record(std::move(out));
        break;
      }
      case kFailed: {
        int kind = 0, unused = 0;
        std::string message;
        unpack(receive_bytes(st), kind, unused, message);
        fail(kind, message + " (rank " + std::to_string(w) + ")");
        break;
      }
      default:  // kReady, kCancelled
        receive_bytes(st);
        break;
    }
    reply(w);
  }

  // Answers every message waiting now (called between the root's own time steps).
  void serve() {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
      if (!flag) return;
      handle(st);
    }
  }

  int size_;
  std::int64_t count_;
  const Progress& shots_done_;
  TiledSums sums_;
  SurveySum sum_;
  std::int64_t next_ = 0, done_ = 0;
  std::vector<char> busy_, aborted_;
  int running_;  // workers not yet stopped
  int fail_kind_ = 0;
  std::string fail_message_;
};

}  // namespace

SurveySum run_master(int size, std::int64_t count, TileBlocks& sums, const ShotTask& task, const Progress& shots_done) {
  return Master(size, count, sums, shots_done).run(task);
}

// Collective over MPI_COMM_WORLD: the error of the lowest failing rank, thrown on every process.
void agree_over_world(int rank, int size, const std::exception_ptr& failure) {
  int mine = failure ? rank : size, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size) return;
  std::vector<char> payload;
  if (rank == first) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      payload = pack(error_kind(e), 0, e.what());
    } catch (...) {
      payload = pack(1, 0, "unknown error");
    }
  }
  int length = static_cast<int>(payload.size());
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  payload.resize(static_cast<std::size_t>(length));
  MPI_Bcast(payload.data(), length, MPI_BYTE, first, MPI_COMM_WORLD);
  if (rank == first) std::rethrow_exception(failure);
  int kind = 0, unused = 0;
  std::string message;
  unpack(payload, kind, unused, message);
  throw_error_of_kind(kind, message);
}

}  // namespace revwave::mpi_detail
