// SPDX-License-Identifier: Apache-2.0
// The activation-memory article's reference figures (docs/report-formats.md, "What the numbers
// mean"): the MLP with bfloat16 parameters and input, batch 2, sequence 4096, d = 1024, exactly,
// and the loss (a bfloat16 scalar, 2 bytes), which the step holds through the backward pass. The
// gradient that backward() makes for the loss is no activation.
#include <ATen/ATen.h>
#include <c10/core/CPUAllocator.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "model/workload.h"
#include "support/reference_meter.h"
#include "support/report_reader.h"
#include "tracking/memory_observer.h"
#include "trainscope/profiler.h"
#include "trainscope/run.h"

using namespace trainscope;

namespace {

constexpr int64_t b = 2, s = 4096, d = 1024;
constexpr int64_t kLossBytes = 2;

RunConfig mlpBlock(const std::string& act) {
    RunConfig config;
    config.model = "builtin:mlp";
    config.params = {{"d_model", std::to_string(d)}, {"act", act}};
    config.dtype = DType::BFloat16;
    config.inputs = {parseInputSpec("2x4096x1024")};
    // One warm-up (the capture iteration) is enough for memory, and each iteration is minutes
    // of CPU bfloat16 GEMMs.
    config.warmup = 1;
    return config;
}

int64_t bytesOf(const MemoryReport& report, const std::string& weight) {
    for (const WeightEntry& entry : report.weights) {
        if (entry.name == weight) {
            EXPECT_EQ(entry.grad_size_bytes, entry.size_bytes) << weight;
            return entry.size_bytes;
        }
    }
    ADD_FAILURE() << "no weight entry " << weight;
    return 0;
}

void expectMlpBlock(const MemoryReport& report, int64_t expected_activation_bytes) {
    EXPECT_EQ(report.activationBytes(), expected_activation_bytes + kLossBytes);
    ASSERT_FALSE(report.activations.empty());
    EXPECT_EQ(report.activations.back().operation_name, "aten::sum");  // the loss
    EXPECT_EQ(report.activations.back().size_bytes, kLossBytes);
    ASSERT_EQ(report.weights.size(), 4u);
    EXPECT_EQ(bytesOf(report, "lin_0.weight"), 8388608);
    EXPECT_EQ(bytesOf(report, "lin_0.bias"), 8192);
    EXPECT_EQ(bytesOf(report, "lin_1.weight"), 8388608);
    EXPECT_EQ(bytesOf(report, "lin_1.bias"), 2048);
    EXPECT_GE(report.peak_usage_bytes,
              report.weightBytes() + report.gradientBytes() + report.activationBytes());
}

}  // namespace

TEST(ActivationMemory, GeluMlpBlockIs18bsd) {
    const MemoryReport report = Profiler(mlpBlock("gelu")).measureMemory();
    expectMlpBlock(report, 18 * b * s * d);  // 150,994,944 bytes
    // Where it comes from: lin_0's output saved by gelu, gelu's output saved by lin_1, and the
    // model output still held by the training loop.
    ASSERT_GE(report.activations.size(), 3u);
    EXPECT_EQ(report.activations[0].operation_name, "aten::linear");
    EXPECT_EQ(report.activations[0].size_bytes, 8 * b * s * d);
    EXPECT_EQ(report.activations[1].operation_name, "aten::gelu");
    EXPECT_EQ(report.activations[1].size_bytes, 8 * b * s * d);
    EXPECT_EQ(report.activations[2].size_bytes, 2 * b * s * d);
}

TEST(ActivationMemory, ReluMlpBlockIs10bsd) {
    const MemoryReport report = Profiler(mlpBlock("relu")).measureMemory();
    expectMlpBlock(report, 10 * b * s * d);  // 83,886,080 bytes
    // The article's ReLU/GELU ratio, 0.5556, follows from the two exact figures (10/18).
}

// A small MLP trained with Adam, whose state appears in the first step.
RunConfig smallMlpWithAdam() {
    RunConfig config;
    config.model = "builtin:mlp";
    config.params = {{"d_model", "64"}};
    config.inputs = {parseInputSpec("4x16x64")};
    config.optimizer = OptimizerKind::Adam;
    return config;
}

TEST(ActivationMemory, PeakCoversAdamStateOnAnIterationAfterWarmup) {
    RunConfig config = smallMlpWithAdam();
    const MemoryReport adam = Profiler(config).measureMemory();
    config.optimizer = OptimizerKind::Sgd;
    const MemoryReport sgd = Profiler(config).measureMemory();
    // Adam keeps two moments per parameter (float32 here): the peak must include them.
    EXPECT_GE(adam.peak_usage_bytes - sgd.peak_usage_bytes, 2 * adam.weightBytes());
}

// A tensor that two attributes name (GPT-2's tied output layer) is one weight: its bytes, its
// gradient and its optimizer state count once, and its other name is recorded as an alias.
TEST(SharedParameters, ATiedWeightIsOneEntryCountedOnce) {
    RunConfig config;
    config.model = TIED_ARCHIVE;
    config.inputs = {parseInputSpec("2x8:int64:1000")};
    config.optimizer = OptimizerKind::Adam;
    const std::string dir = test::makeTempDir();
    RunPlan plan;
    plan.config = config;
    plan.measure = Measure::Memory;
    plan.output = dir + "/tied.memory.sqlite";
    runAndWrite(plan);
    const test::ReportReader report(plan.output);
    EXPECT_EQ(
        report.rows("SELECT name, size_bytes, grad_size_bytes FROM weight_entries ORDER BY id"),
        (std::vector<test::Row>{{"wte.weight", "256000", "256000"},
                                {"fc.weight", "16384", "16384"},
                                {"fc.bias", "256", "256"}}));
    EXPECT_EQ(report.scalar("SELECT value FROM trainscope_metadata WHERE key = 'weight_aliases'"),
              "head.weight=wte.weight");
    // At the peak: the weights once, and Adam's two moments once per tensor (its step counts
    // are not tensors in LibTorch's Adam).
    const auto misc = [&](const char* key) {
        return report.number(std::string("SELECT size_bytes FROM misc_sizes WHERE key = '") + key +
                             "'");
    };
    EXPECT_EQ(misc("peak_weights_bytes"), 272640);
    EXPECT_EQ(misc("peak_optimizer_state_bytes"), 2 * 272640);
    std::filesystem::remove_all(dir);
}

TEST(DTypeCast, OnlyFloatingParametersAndBuffersAreCast) {
    RunConfig config;
    config.model = INDEXED_ARCHIVE;
    config.inputs = {parseInputSpec("4x16")};
    config.dtype = DType::BFloat16;
    Workload workload(config);
    const torch::jit::Module& module = workload.module();
    EXPECT_EQ(module.attr("index").toTensor().scalar_type(), c10::kLong);
    const torch::jit::Module norm = module.attr("norm").toModule();
    EXPECT_EQ(norm.attr("num_batches_tracked").toTensor().scalar_type(), c10::kLong);
    EXPECT_EQ(norm.attr("running_mean").toTensor().scalar_type(), c10::kBFloat16);
    EXPECT_EQ(module.attr("table").toTensor().scalar_type(), c10::kBFloat16);
    IterationListener none;
    workload.runIteration(none);  // indexing with the int64 buffer works
}

// The observer's table of live blocks, carried from one recorded iteration to the next (most
// blocks skip it, paired within their record): what it says is alive when an iteration
// begins, plus that iteration's record, must be what is alive at its end, iteration after
// iteration, with Adam's state created in the first step.
TEST(MemoryRecord, LiveBlocksCarryOverFromIterationToIteration) {
    Workload workload(smallMlpWithAdam());
    MemoryObserver memory(c10::DeviceType::CPU);
    for (int iteration = 0; iteration < 4; ++iteration) {
        workload.runIteration(memory);
        int64_t at_end = 0;
        for (const auto& [ptr, block] : memory.record().live_at_start) {
            at_end += block.bytes;
        }
        for (const MemoryEvent& event : memory.record().events) {
            at_end += event.bytes;
        }
        // Blocks from before the observer are not in its table, nor freed in its record.
        if (iteration > 0) {
            EXPECT_EQ(at_end, memory.liveBytes()) << "iteration " << iteration;
        }
        EXPECT_GT(memory.record().events.size(), 0u);
    }
}

// A gradient made before the meter (by a step before the profile began) is counted as existing;
// when zero_grad frees it, c10's CPU allocator reports nothing (it did not report it allocated),
// so the host tells the meter: freed once, in the record, whatever it is told after.
TEST(MemoryRecord, AnExistingBlockToldFreedIsFreedOnceInTheRecord) {
    const at::Tensor older = at::ones({1024});  // 4 KiB, made before the meter
    const void* block = older.storage().data();
    MemoryObserver memory(c10::DeviceType::CPU);
    memory.addExistingBlock(block, 4096);
    EXPECT_EQ(memory.liveBytes(), 4096);
    memory.forwardBegins();
    memory.existingBlockFreed(block);
    memory.existingBlockFreed(block);  // told again: already freed
    int never_added = 0;
    memory.existingBlockFreed(&never_added);
    memory.iterationEnded();
    EXPECT_EQ(memory.liveBytes(), 0);
    ASSERT_EQ(memory.record().events.size(), 1u);
    EXPECT_EQ(memory.record().events[0].bytes, -4096);
    EXPECT_EQ(memory.record().events[0].ptr, block);
}

// A block that another thread lets go of last (Gloo's worker ending a collective) is freed
// there, where c10 reports no free to the meter (that thread's profiler slot is empty): the
// meter learns of it through its stand-in for the CPU allocator, at that moment, in the record.
TEST(MemoryRecord, ABlockThatAnotherThreadFreesIsFreedInTheRecord) {
    c10::Allocator* allocator = c10::GetCPUAllocator();
    {
        MemoryObserver memory(c10::DeviceType::CPU);
        memory.forwardBegins();
        at::Tensor block = at::ones({1024});  // 4 KiB, made on this thread: c10 reports it
        const void* ptr = block.storage().data();
        EXPECT_EQ(memory.liveBytes(), 4096);
        std::thread([moved = std::move(block)]() mutable { moved.reset(); }).join();
        memory.iterationEnded();
        EXPECT_EQ(memory.liveBytes(), 0);
        ASSERT_EQ(memory.record().events.size(), 2u);
        EXPECT_EQ(memory.record().events[1].bytes, -4096);
        EXPECT_EQ(memory.record().events[1].ptr, ptr);
        // Not recording: the table of live blocks learns it too.
        at::Tensor later = at::ones({256});
        EXPECT_EQ(memory.liveBytes(), 1024);
        std::thread([moved = std::move(later)]() mutable { moved.reset(); }).join();
        EXPECT_EQ(memory.liveBytes(), 0);
    }
    // After the meter: c10's CPU allocator is its own again, and a block made under the meter
    // goes back through it as it would have.
    EXPECT_EQ(c10::GetCPUAllocator(), allocator);
    at::Tensor made_under_the_meter;
    {
        MemoryObserver memory(c10::DeviceType::CPU);
        made_under_the_meter = at::full({512}, 3.0);
    }
    EXPECT_EQ(made_under_the_meter.sum().item<double>(), 1536.0);
    made_under_the_meter.reset();
}

// A block counted by one meter and freed while the next one counts is no free of the next's:
// the next never saw it allocated (a tensor that outlives a profile).
TEST(MemoryRecord, ABlockOfAnEarlierMeterFreedUnderTheNextIsNotItsFree) {
    at::Tensor older;
    {
        MemoryObserver first(c10::DeviceType::CPU);
        older = at::ones({1024});
        EXPECT_EQ(first.liveBytes(), 4096);
    }
    MemoryObserver next(c10::DeviceType::CPU);
    next.forwardBegins();
    older.reset();
    at::Tensor made = at::ones({256});
    made.reset();
    next.iterationEnded();
    EXPECT_EQ(next.liveBytes(), 0);
    ASSERT_EQ(next.record().events.size(), 2u);
    EXPECT_EQ(next.record().events[0].bytes, 1024);
    EXPECT_EQ(next.record().events[1].bytes, -1024);
}

// c10's raw interface hands out a block and takes it back by its pointer alone (the block's
// deleter, raw_deleter()): the meter counts both, and the allocator's own blocks (made before
// the meter) go back through it as before.
TEST(MemoryRecord, ARawBlockOfTheCpuAllocatorIsCountedAndFreed) {
    void* before = c10::GetCPUAllocator()->raw_allocate(512);
    MemoryObserver memory(c10::DeviceType::CPU);
    memory.forwardBegins();
    void* block = c10::GetCPUAllocator()->raw_allocate(2048);
    EXPECT_EQ(memory.liveBytes(), 2048);
    c10::GetCPUAllocator()->raw_deallocate(block);
    EXPECT_EQ(memory.liveBytes(), 0);
    c10::GetCPUAllocator()->raw_deallocate(before);
    memory.iterationEnded();
    EXPECT_EQ(memory.liveBytes(), 0);
    EXPECT_EQ(memory.record().events.size(), 2u);
}

// Where another profiler holds the thread's slot over the meter's (torch.profiler started in
// the step), c10 reports that thread's blocks to it as it would without TrainScope, and the
// meter counts none of them.
TEST(MemoryRecord, AProfilerOverTheMetersSlotIsReportedToAsWithoutIt) {
    MemoryObserver memory(c10::DeviceType::CPU);
    memory.forwardBegins();
    test::ReferenceMeter other(c10::DeviceType::CPU);
    other.start();
    at::Tensor block = at::ones({1024});
    const auto address = reinterpret_cast<uintptr_t>(block.storage().data());
    block.reset();
    other.stop();
    memory.iterationEnded();
    const std::vector<test::AllocationReport> expected{{address, 4096}, {address, -4096}};
    EXPECT_EQ(other.reports(), expected);
    EXPECT_EQ(memory.liveBytes(), 0);
    EXPECT_TRUE(memory.record().events.empty());
}
