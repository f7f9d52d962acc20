// SPDX-License-Identifier: Apache-2.0
// The engine on a GPU: the activation-memory article's activation figures measured by the CUDA
// caching allocator, the peak from its statistics, its reserved bytes in the timeline, operation
// times from CUDA events, and a clear error when the device runs out of memory. Skipped where no
// CUDA device is visible (every test checks first), so the suite runs everywhere; tools/gpu-check
// runs it on a GPU.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include <algorithm>

#include "device/cuda.h"
#include "model/workload.h"
#include "trainscope/error.h"
#include "trainscope/profiler.h"
#include "trainscope/report_format.h"

using namespace trainscope;

namespace {

constexpr int64_t b = 2, s = 4096, d = 1024;
// The caching allocator hands out blocks in multiples of 512 bytes: the loss scalar takes one.
constexpr int64_t kSmallestBlock = 512;

bool noGpu() {
    return !cudaAvailable();
}

RunConfig mlpBlockOnGpu(const std::string& act) {
    RunConfig config;
    config.model = "builtin:mlp";
    config.params = {{"d_model", std::to_string(d)}, {"act", act}};
    config.dtype = DType::BFloat16;
    config.device = Device::Cuda;
    config.inputs = {parseInputSpec("2x4096x1024")};
    return config;
}

// Restarts the allocator's peak when the forward pass begins, as the profiler's memory pass
// does, and observes nothing.
class PeakWindow : public IterationListener {
  public:
    void forwardBegins() override { cuda::resetPeak(); }
};

}  // namespace

#define SKIP_WITHOUT_GPU() \
    if (noGpu())           \
    GTEST_SKIP() << "no CUDA device visible (or a LibTorch without CUDA)"

TEST(Cuda, ReluMlpBlockActivationsAre10bsd) {
    SKIP_WITHOUT_GPU();
    const MemoryReport report = Profiler(mlpBlockOnGpu("relu")).measureMemory();
    EXPECT_GE(report.activationBytes(), 10 * b * s * d);
    EXPECT_LE(report.activationBytes(), 10 * b * s * d + kSmallestBlock);
}

TEST(Cuda, GeluMlpBlockActivationsAre18bsd) {
    SKIP_WITHOUT_GPU();
    const MemoryReport report = Profiler(mlpBlockOnGpu("gelu")).measureMemory();
    EXPECT_GE(report.activationBytes(), 18 * b * s * d);
    EXPECT_LE(report.activationBytes(), 18 * b * s * d + kSmallestBlock);
}

// The same iteration of the same model, run with no observer at all: the caching allocator's
// own peak over it is the report's peak, and the breakdown at the peak adds up to it.
TEST(Cuda, PeakIsTheCachingAllocatorsPeakOfTheSameIteration) {
    SKIP_WITHOUT_GPU();
    const RunConfig config = mlpBlockOnGpu("gelu");
    const MemoryMeasurement measured = Profiler(config).measureMemoryAndTimeline();
    const MemoryReport& report = measured.memory;

    Workload plain(config);
    IterationListener nothing;
    for (int i = 0; i < std::max(config.warmup, 1); ++i) {
        plain.runIteration(nothing);
    }
    PeakWindow window;
    plain.runIteration(window);
    EXPECT_EQ(report.peak_usage_bytes, cuda::allocatorStats().peak_allocated);
    ASSERT_TRUE(report.peak_breakdown.has_value());
    EXPECT_EQ(report.peak_breakdown->total(), report.peak_usage_bytes);
    EXPECT_EQ(report.peak_breakdown->weights, report.weightBytes());

    // The timeline's allocated totals are the allocator's: their highest is the peak.
    int64_t highest = 0;
    for (const MemorySample& sample : measured.timeline.memory) {
        highest = std::max(highest, sample.total_allocated);
    }
    EXPECT_EQ(highest, report.peak_usage_bytes);
}

TEST(Cuda, TimelineRecordsTheAllocatorsReservedBytes) {
    SKIP_WITHOUT_GPU();
    const TimelineReport timeline =
        Profiler(mlpBlockOnGpu("relu")).measureMemoryAndTimeline().timeline;
    ASSERT_FALSE(timeline.memory.empty());
    for (const MemorySample& sample : timeline.memory) {
        ASSERT_GE(sample.total_reserved, sample.total_allocated);
    }
    // The allocator keeps what it reserved (nothing empties its cache): its figure now is the
    // last one recorded.
    EXPECT_EQ(timeline.memory.back().total_reserved, cuda::allocatorStats().reserved);
}

TEST(Cuda, OperationTimesAreGpuTimesWithinTheIteration) {
    SKIP_WITHOUT_GPU();
    const TimeReport report = Profiler(mlpBlockOnGpu("gelu")).measureTime();
    ASSERT_EQ(report.entries.size(), 4u);  // linear, gelu, linear, and the loss's sum
    for (const RunTimeEntry& entry : report.entries) {
        EXPECT_GT(entry.forward_ms, 0.0) << entry.operation_name;
    }
    for (size_t i = 0; i < 3; ++i) {
        ASSERT_TRUE(report.entries[i].backward_ms.has_value()) << report.entries[i].operation_name;
        EXPECT_GT(*report.entries[i].backward_ms, 0.0) << report.entries[i].operation_name;
    }
    // One stream: the spans do not overlap, and all lie within the iteration's wall time.
    EXPECT_LE(report.partTimes().sum(), report.iteration_ms);
}

TEST(Cuda, ReportsNameTheDevice) {
    SKIP_WITHOUT_GPU();
    RunConfig config = mlpBlockOnGpu("relu");
    config.params["d_model"] = "64";
    config.inputs = {parseInputSpec("2x16x64")};
    const MemoryReport report = Profiler(config).measureMemory();
    const auto gpu = cuda::deviceInfo();
    ASSERT_TRUE(gpu.has_value());
    EXPECT_EQ(report.metadata.at(report_format::kDeviceNameKey), gpu->name);
    EXPECT_EQ(report.metadata.at(report_format::kDeviceMemoryKey),
              std::to_string(gpu->total_bytes));
    EXPECT_EQ(report.metadata.at("device"), "cuda");
}

TEST(Cuda, SdpaTransformerTrainsWithItsBackwardLinked) {
    SKIP_WITHOUT_GPU();
    RunConfig config;
    config.model = "builtin:transformer";
    config.params = {{"attention", "sdpa"}};
    config.dtype = DType::BFloat16;
    config.device = Device::Cuda;
    const TimeReport report = Profiler(config).measureTime();
    const auto sdpa = std::find_if(report.entries.begin(), report.entries.end(), [](const auto& e) {
        return e.operation_name == "aten::scaled_dot_product_attention";
    });
    ASSERT_NE(sdpa, report.entries.end());
    EXPECT_EQ(sdpa->module_path, "blocks_0.attn.heads");
    ASSERT_TRUE(sdpa->backward_ms.has_value());
    EXPECT_GT(*sdpa->backward_ms, 0.0);
}

TEST(Cuda, RunningOutOfDeviceMemoryIsAClearErrorAndTheNextRunWorks) {
    SKIP_WITHOUT_GPU();
    const auto gpu = cuda::deviceInfo();
    ASSERT_TRUE(gpu.has_value());
    // lin_0's output alone is four times the input: make the input a third of the device.
    RunConfig config = mlpBlockOnGpu("gelu");
    const int64_t batch = gpu->total_bytes / 3 / (s * d * 2);
    config.inputs = {parseInputSpec(std::to_string(batch) + "x4096x1024")};
    try {
        Profiler(config).measureMemory();
        FAIL() << "a batch of " << batch << " fitted";
    } catch (const OutOfMemory& e) {
        EXPECT_NE(std::string(e.what()).find("out of memory in the forward pass"),
                  std::string::npos)
            << e.what();
    }
    const MemoryReport after = Profiler(mlpBlockOnGpu("relu")).measureMemory();
    EXPECT_GE(after.activationBytes(), 10 * b * s * d);
    EXPECT_LE(after.activationBytes(), 10 * b * s * d + kSmallestBlock);
}

TEST(Cuda, EventTimerTimesGpuWork) {
    SKIP_WITHOUT_GPU();
    const torch::Tensor a = torch::randn({4096, 4096}, torch::kCUDA);
    cuda::EventTimer timer;
    const int empty = timer.begin();
    timer.end(empty);
    const int product = timer.begin();
    for (int i = 0; i < 10; ++i) {
        (void)torch::matmul(a, a);
    }
    timer.end(product);
    const int unfinished = timer.begin();
    const std::vector<double> spans = timer.resolve();
    ASSERT_EQ(spans.size(), 3u);
    EXPECT_LT(spans[empty], spans[product]);
    EXPECT_GT(spans[product], 0.0);
    EXPECT_EQ(spans[unfinished], 0.0);
    EXPECT_TRUE(timer.resolve().empty());  // resolved spans are forgotten
}
