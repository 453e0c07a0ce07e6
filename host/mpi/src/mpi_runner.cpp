// Shots over MPI processes. Rank 0 hands out shot indices in ascending order to whoever asks
// (dynamic balancing: shots differ in cost), runs shots itself between requests, and answers
// requests while its own shot steps (from the shot's progress callback). Every finished shot's J_s
// and g_s travel to rank 0 through host memory and go into the fixed summation tree there, so the
// sums are the same bits for any number of processes and any finishing order. A failure anywhere
// stops the hand-out, cancels the shots in flight at their next time step, and every process
// throws the failing rank's error.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "revwave/core/errors.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/survey/summation_tree.hpp"

namespace revwave {
namespace {

enum Tag : int { kReady = 11, kResult, kGradient, kFailed, kCancelled, kWork, kStop, kAbort };

// Out of a worker's shot when rank 0 says the run has failed elsewhere; not a std::exception, so
// that nothing between the progress callback and the runner mistakes it for the shot's own error.
struct Cancelled {};

// Waits for a matching message without spinning a core away from the shots being computed.
MPI_Status wait_for(int source, int tag) {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st);
    if (flag) return st;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

std::vector<char> receive_bytes(const MPI_Status& st) {
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  std::vector<char> b(static_cast<std::size_t>(n));
  MPI_Recv(b.data(), n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return b;
}

// Gradients travel in pieces that an int count can hold.
constexpr std::size_t kPiece = std::size_t{1} << 27;
void send_doubles(const double* v, std::size_t n, int dest) {
  for (std::size_t i = 0; i < n; i += kPiece) {
    MPI_Send(v + i, static_cast<int>(std::min(kPiece, n - i)), MPI_DOUBLE, dest, kGradient, MPI_COMM_WORLD);
  }
}
void receive_doubles(double* v, std::size_t n, int source) {
  for (std::size_t i = 0; i < n; i += kPiece) {
    MPI_Recv(v + i, static_cast<int>(std::min(kPiece, n - i)), MPI_DOUBLE, source, kGradient, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

void send_bytes(const std::vector<char>& b, int dest, int tag) {
  MPI_Send(b.data(), static_cast<int>(b.size()), MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

// An error or a stop: [kind, flag, message bytes].
std::vector<char> pack(int kind, int flag, const std::string& message) {
  std::vector<char> b(2 * sizeof(int) + message.size());
  std::memcpy(b.data(), &kind, sizeof kind);
  std::memcpy(b.data() + sizeof kind, &flag, sizeof flag);
  std::memcpy(b.data() + 2 * sizeof(int), message.data(), message.size());
  return b;
}

void unpack(const std::vector<char>& b, int& kind, int& flag, std::string& message) {
  if (b.size() < 2 * sizeof(int)) throw std::logic_error("MPI runner: short control message");
  std::memcpy(&kind, b.data(), sizeof kind);
  std::memcpy(&flag, b.data() + sizeof kind, sizeof flag);
  message.assign(b.data() + 2 * sizeof(int), b.size() - 2 * sizeof(int));
}

// Collective over MPI_COMM_WORLD: the error of the lowest failing rank, thrown on every process.
void agree_over_world(int rank, int size, std::exception_ptr failure) {
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

// Rank 0's side of a run: hands shots out, runs its own between requests, sums on the tree.
class Master {
 public:
  Master(int size, std::int64_t count, std::size_t n, const Progress& shots_done)
      : size_(size), count_(count), n_(n), shots_done_(shots_done), tree_(count, n),
        busy_(static_cast<std::size_t>(size), 0), aborted_(static_cast<std::size_t>(size), 0), running_(size - 1) {
    sum_.shots.resize(static_cast<std::size_t>(count));
    sum_.processes = size;
  }

  SurveySum run(const ShotTask& task) {
    const Progress poll = [&](index_t, index_t) { serve(); };
    while (fail_kind_ == 0 && next_ < count_) {
      const std::int64_t s = next_++;
      try {
        ShotOutput out = task(s, poll);
        out.summary.shot = s;
        out.summary.rank = 0;
        record(std::move(out));
      } catch (const std::exception& e) {
        fail(error_kind(e), std::string(e.what()) + " (rank 0)");
      }
      serve();
    }
    while (running_ > 0) handle(wait_for(MPI_ANY_SOURCE, MPI_ANY_TAG));
    if (fail_kind_ != 0) throw_error_of_kind(fail_kind_, fail_message_);
    sum_.objective = tree_.value();
    sum_.gradient = std::move(tree_.vector());
    sum_.peak_partial_sums = tree_.peak_held();
    return std::move(sum_);
  }

 private:
  void record(ShotOutput&& out) {
    const std::int64_t s = out.summary.shot;
    sum_.shots[static_cast<std::size_t>(s)] = out.summary;
    tree_.add(s, out.summary.objective, std::move(out.gradient));
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
        out.gradient.resize(n_);
        receive_doubles(out.gradient.data(), n_, w);
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
  std::size_t n_;
  const Progress& shots_done_;
  SummationTree tree_;
  SurveySum sum_;
  std::int64_t next_ = 0, done_ = 0;
  std::vector<char> busy_, aborted_;
  int running_;  // workers not yet stopped
  int fail_kind_ = 0;
  std::string fail_message_;
};

class MpiShotRunner final : public ShotRunner {
 public:
  MpiShotRunner(int rank, int size) : rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void broadcast_from_root(std::vector<double>& values) override {
    std::uint64_t length = values.size();
    MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    values.resize(static_cast<std::size_t>(length));
    constexpr std::uint64_t chunk = std::uint64_t(1) << 28;  // MPI counts are int
    for (std::uint64_t first = 0; first < length; first += chunk) {
      const int count = static_cast<int>(std::min(chunk, length - first));
      MPI_Bcast(values.data() + first, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
  }

  void agree(std::exception_ptr failure) override { agree_over_world(rank_, size_, failure); }

  SurveySum run(std::int64_t count, std::size_t n, const ShotTask& task, const Progress& shots_done) override {
    if (size_ == 1) return SerialShotRunner().run(count, n, task, shots_done);
    return rank_ == 0 ? Master(size_, count, n, shots_done).run(task) : worker(n, task);
  }

 private:
  SurveySum worker(std::size_t n, const ShotTask& task) {
    MPI_Send(nullptr, 0, MPI_BYTE, 0, kReady, MPI_COMM_WORLD);
    bool abort_seen = false;
    const Progress check_abort = [&](index_t, index_t) {
      int flag = 0;
      MPI_Iprobe(0, kAbort, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      if (flag) {
        MPI_Recv(nullptr, 0, MPI_BYTE, 0, kAbort, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        abort_seen = true;
        throw Cancelled{};
      }
    };
    for (;;) {
      const MPI_Status st = wait_for(0, MPI_ANY_TAG);
      if (st.MPI_TAG == kAbort) {  // the shot it meant had already finished
        receive_bytes(st);
        abort_seen = true;
      } else if (st.MPI_TAG == kWork) {
        std::int64_t s = 0;
        MPI_Recv(&s, 1, MPI_INT64_T, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        try {
          ShotOutput out = task(s, check_abort);
          out.summary.shot = s;
          out.summary.rank = rank_;
          if (out.gradient.size() != n) throw std::logic_error("MPI runner: a shot's gradient has the wrong size");
          MPI_Send(&out.summary, sizeof(ShotSummary), MPI_BYTE, 0, kResult, MPI_COMM_WORLD);
          send_doubles(out.gradient.data(), n, 0);
        } catch (const Cancelled&) {
          MPI_Send(nullptr, 0, MPI_BYTE, 0, kCancelled, MPI_COMM_WORLD);
        } catch (const std::exception& e) {
          send_bytes(pack(error_kind(e), 0, e.what()), 0, kFailed);
        }
      } else if (st.MPI_TAG == kStop) {
        int kind = 0, abort_sent = 0;
        std::string message;
        unpack(receive_bytes(st), kind, abort_sent, message);
        if (abort_sent && !abort_seen) MPI_Recv(nullptr, 0, MPI_BYTE, 0, kAbort, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (kind != 0) throw_error_of_kind(kind, message);
        SurveySum sum;
        sum.root = false;
        sum.processes = size_;
        return sum;
      } else {
        throw std::logic_error("MPI runner: unexpected message tag " + std::to_string(st.MPI_TAG));
      }
    }
  }

  int rank_, size_;
};

}  // namespace

bool mpi_compiled() { return true; }

MpiSession::MpiSession() {
  if (!launched_by_mpirun()) return;
  int provided = 0;
  // Only the main thread calls MPI; the OpenMP threads compute.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
  MPI_Comm_rank(local, &local_rank_);
  MPI_Comm_size(local, &local_size_);
  MPI_Comm_free(&local);
}

MpiSession::~MpiSession() {
  if (active_) MPI_Finalize();
}

void MpiSession::agree(std::exception_ptr failure) {
  if (!active_ || size_ == 1) {
    if (failure) std::rethrow_exception(failure);
    return;
  }
  agree_over_world(rank_, size_, failure);
}

std::unique_ptr<ShotRunner> MpiSession::runner() {
  if (!active_ || size_ == 1) return std::make_unique<SerialShotRunner>();
  return std::make_unique<MpiShotRunner>(rank_, size_);
}

}  // namespace revwave
