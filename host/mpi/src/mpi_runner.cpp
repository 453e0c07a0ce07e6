// Shots over MPI processes. Rank 0 hands out shot indices in ascending order to whoever asks
// (dynamic balancing: shots differ in cost), runs shots itself between requests, and answers
// requests while its own shot steps (from the shot's progress callback). Every finished shot's J_s
// and g_s travel to rank 0 through host memory and go into the fixed summation tree there, so the
// sums are the same bits for any number of processes and any finishing order. A shot's gradient
// travels as the tiles its window touches. A failure anywhere
// stops the hand-out, cancels the shots in flight at their next time step, and every process
// throws the failing rank's error.
#include "revwave/mpi/mpi_runner.hpp"

#include "mpi_messages.hpp"
#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

using namespace mpi_detail;

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

  SurveySum run(std::int64_t count, TileBlocks& sums, const ShotTask& task, const Progress& shots_done) override {
    if (size_ == 1) return SerialShotRunner().run(count, sums, task, shots_done);
    return rank_ == 0 ? run_master(size_, count, sums, task, shots_done) : worker(task);
  }

 private:
  SurveySum worker(const ShotTask& task) {
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
    auto last = std::chrono::steady_clock::now();
    for (;;) {
      const MPI_Status st = wait_for(0, MPI_ANY_TAG);
      if (st.MPI_TAG == kAbort) {  // the shot it meant had already finished
        receive_bytes(st);
        abort_seen = true;
      } else if (st.MPI_TAG == kWork) {
        std::int64_t s = 0;
        MPI_Recv(&s, 1, MPI_INT64_T, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        try {
          ShotOutput out = run_task(task, s, rank_, check_abort, last);
          MPI_Send(&out.summary, sizeof(ShotSummary), MPI_BYTE, 0, kResult, MPI_COMM_WORLD);
          send_part(out.gradient, 0);
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
  int provided = 0, initialized = 0;
  // MPI may have been started by another user of the process (mpi4py in a Python script): then it
  // is theirs to finalize.
  MPI_Initialized(&initialized);
  // Only the main thread calls MPI; the OpenMP threads compute.
  if (!initialized) MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  owns_ = !initialized;
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
  if (active_ && owns_) MPI_Finalize();
}

void MpiSession::agree(const std::exception_ptr& failure) {
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
