// SPDX-License-Identifier: Apache-2.0
// A device's time over a span, each instant counted once: computation over communication over
// memory work, the rest idle.
#include <gtest/gtest.h>

#include "analysis/device_breakdown.h"

namespace trainscope {
namespace {

using Kind = DeviceTaskSpan::Kind;

TEST(DeviceBreakdown, EachInstantCountsOnceByWhatRunsThen) {
    // Two streams: a kernel 0-40 and 30-50 overlapping (computation 0-50), an NCCL kernel 45-70
    // (communication where no computation runs: 50-70), a copy 60-90 (memory 70-90), idle 90-100.
    const DeviceBreakdown b = deviceBreakdown({{0, 40, Kind::Computation},
                                               {30, 50, Kind::Computation},
                                               {45, 70, Kind::Communication},
                                               {60, 90, Kind::Memory}},
                                              0, 100);
    EXPECT_EQ(b.span_ns, 100);
    EXPECT_EQ(b.computation_ns, 50);
    EXPECT_EQ(b.communication_ns, 20);
    EXPECT_EQ(b.memory_ns, 20);
    EXPECT_EQ(b.idle_ns, 10);
    EXPECT_EQ(b.overlapped_ns, 5);  // the NCCL kernel beside the computation, 45-50
}

TEST(DeviceBreakdown, TasksAreCutToTheSpanAndGapsAreIdle) {
    const DeviceBreakdown b = deviceBreakdown(
        {{-10, 5, Kind::Memory}, {20, 30, Kind::Computation}, {95, 200, Kind::Communication}}, 0,
        100);
    EXPECT_EQ(b.memory_ns, 5);
    EXPECT_EQ(b.computation_ns, 10);
    EXPECT_EQ(b.communication_ns, 5);
    EXPECT_EQ(b.idle_ns, 80);
    EXPECT_EQ(deviceBreakdown({{0, 10, Kind::Computation}}, 10, 10).span_ns, 0);
}

TEST(DeviceBreakdown, CollectivesKernelsAreCommunication) {
    EXPECT_EQ(kernelKind("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, ...)"),
              Kind::Communication);
    EXPECT_EQ(kernelKind("ncclKernel_AllGather_RING_LL_Sum_int8_t"), Kind::Communication);
    EXPECT_EQ(kernelKind("void at::native::vectorized_elementwise_kernel<4, ...>"),
              Kind::Computation);
    EXPECT_EQ(deviceTaskKind("Memcpy DtoD (Device -> Device)"), Kind::Memory);
    EXPECT_EQ(deviceTaskKind("Memset (Device)"), Kind::Memory);
    EXPECT_EQ(deviceTaskKind("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t"), Kind::Communication);
    EXPECT_EQ(deviceTaskKind("MemcpyKernel"), Kind::Computation);
}

}  // namespace
}  // namespace trainscope
