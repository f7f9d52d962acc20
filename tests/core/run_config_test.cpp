// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "trainscope/error.h"
#include "trainscope/run_config.h"

using namespace trainscope;

TEST(RunConfig, ParsesShapesAndInputSpecs) {
    EXPECT_EQ(parseShape("2x4096x1024"), (std::vector<int64_t>{2, 4096, 1024}));
    const InputSpec tokens = parseInputSpec("4x128:int64:50257");
    EXPECT_EQ(tokens.shape, (std::vector<int64_t>{4, 128}));
    EXPECT_EQ(tokens.dtype, DType::Int64);
    EXPECT_EQ(tokens.high, 50257);
    EXPECT_EQ(toString(tokens), "4x128:int64:50257");
    EXPECT_FALSE(parseInputSpec("3x3").dtype.has_value());
}

TEST(RunConfig, RejectsBadText) {
    EXPECT_THROW(parseShape("2x0"), Error);
    EXPECT_THROW(parseShape("2xx3"), Error);
    EXPECT_THROW(parseShape("abc"), Error);
    EXPECT_THROW(parseInputSpec("2x3:float64"), Error);
    EXPECT_THROW(parseDType("double"), Error);
    EXPECT_THROW(parseLoss("l1"), Error);
    EXPECT_THROW(parseOptimizer("lamb"), Error);
    EXPECT_THROW(parseDevice("tpu"), Error);
}
