// The emulated runtime itself: its checker reports what a GPU could race on and stays quiet
// about what is ordered, and it fails the calls a GPU fails.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cudasim.hpp"
#include "revwave/cuda/runtime/cuda_streams.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/runtime/stream_event.hpp"

namespace revwave {
namespace {

constexpr std::size_t bytes = 4096;

class Cudasim : public ::testing::Test {
 protected:
  void SetUp() override { cudasim::take_reports(); }
  void TearDown() override { cudasim::set_device_memory(std::size_t(4) << 30); }

  // A "kernel" on `s` that writes `b`.
  static void write_on(const Stream& s, DeviceBuffer& b) {
    cudasim::run_on_stream(s, "a test kernel", {cudasim::writes(b.data())}, [&] { std::memset(b.data(), 1, bytes); });
  }
  static bool reported(const std::string& fragment) {
    for (const std::string& r : cudasim::take_reports())
      if (r.find(fragment) != std::string::npos) return true;
    return false;
  }
};

TEST_F(Cudasim, ACopyOnAnotherStreamWithoutAnEventRaces) {
  Stream compute, copy;
  DeviceBuffer field(bytes), slot(bytes);
  write_on(compute, field);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(slot.data(), field.data(), bytes, cudaMemcpyDeviceToDevice, copy));
  EXPECT_TRUE(reported("race: cudaMemcpyAsync device-to-device on stream"));
}

TEST_F(Cudasim, AnEventBetweenTheStreamsOrdersThem) {
  Stream compute, copy;
  Event written;
  DeviceBuffer field(bytes), slot(bytes);
  write_on(compute, field);
  written.record(compute);
  copy.wait(written);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(slot.data(), field.data(), bytes, cudaMemcpyDeviceToDevice, copy));
  write_on(copy, field);  // same stream as the read: ordered
  EXPECT_EQ(cudasim::take_reports(), std::vector<std::string>{});
}

TEST_F(Cudasim, OverwritingWhatAnotherStreamStillReadsRaces) {
  Stream compute, copy;
  Event read_done;
  DeviceBuffer field(bytes), slot(bytes);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(slot.data(), field.data(), bytes, cudaMemcpyDeviceToDevice, copy));
  write_on(compute, field);  // write-after-read, unordered
  EXPECT_TRUE(reported("race: a test kernel on stream"));
  REVWAVE_CUDA_CHECK(cudaDeviceSynchronize());
  // A fence on the read, as WriteFences arms, orders it.
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(slot.data(), field.data(), bytes, cudaMemcpyDeviceToDevice, copy));
  read_done.record(copy);
  compute.wait(read_done);
  write_on(compute, field);
  EXPECT_EQ(cudasim::take_reports(), std::vector<std::string>{});
}

TEST_F(Cudasim, TheHostLearnsOfCompletionOnlyBySynchronising) {
  Stream compute, copy;
  DeviceBuffer field(bytes), slot(bytes);
  write_on(compute, field);
  compute.synchronize();  // host has seen the write complete: work it enqueues next comes after
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(slot.data(), field.data(), bytes, cudaMemcpyDeviceToDevice, copy));
  EXPECT_EQ(cudasim::take_reports(), std::vector<std::string>{});
  Event start(true), end(true);
  start.record(copy);
  end.record(copy);
  float ms = 0;
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, end), cudaErrorNotReady);  // not synchronised yet
  cudaGetLastError();
  end.synchronize();
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, end), cudaSuccess);
}

TEST_F(Cudasim, ReportsAccessesOutsideLiveAllocations) {
  Stream s;
  DeviceBuffer a(bytes), b(bytes);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes + 4, cudaMemcpyDeviceToDevice, s));
  EXPECT_TRUE(reported("runs past the end"));
  std::vector<char> pageable(bytes);
  cudasim::run_on_stream(s, "a test kernel", {cudasim::reads(pageable.data())}, [] {});
  EXPECT_TRUE(reported("no live device or pinned allocation"));
}

TEST_F(Cudasim, ReportsCopiesWhoseDirectionDoesNotMatchTheirPointers) {
  Stream s;
  DeviceBuffer a(bytes);
  std::vector<char> host(bytes);
  EXPECT_EQ(cudaMemcpyAsync(a.data(), host.data(), bytes, cudaMemcpyDeviceToHost, s), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_TRUE(reported("between host and device"));
}

TEST_F(Cudasim, ReportsLaunchShapesAGpuRefuses) {
  cudasim::for_each_thread("a test kernel", {{1, 70000, 1}, {32, 8, 1}}, [](const ThreadPlace&) {});
  EXPECT_TRUE(reported("refuses this launch shape"));
}

TEST_F(Cudasim, RunsOutOfDeviceMemoryLikeAGpu) {
  cudasim::set_device_memory(3 * bytes);
  DeviceBuffer a(2 * bytes);
  try {
    DeviceBuffer b(2 * bytes, "a test buffer");
    FAIL() << "expected CudaOutOfMemoryError";
  } catch (const CudaOutOfMemoryError& e) {
    EXPECT_EQ(e.needed(), 2 * bytes);
    EXPECT_EQ(e.free_bytes(), bytes);
    EXPECT_NE(std::string(e.what()).find("a test buffer needs"), std::string::npos) << e.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // the owner cleared it
}

}  // namespace
}  // namespace revwave
