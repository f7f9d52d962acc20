// SPDX-License-Identifier: Apache-2.0
// An eager step whose backward nodes run on another thread than its forward pass: autograd
// runs a CUDA graph's nodes on the device's own thread, with the caller's thread-local state,
// while the thread that called backward() waits. The session finds the same backward pass,
// activations, peak and backward times as when the nodes run on the caller's thread (the CPU).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <ATen/ThreadLocalState.h>

#include <string>
#include <thread>
#include <vector>

#include "trainscope/session.h"

using namespace trainscope;

namespace {

struct StepFigures {
    int64_t activation_bytes = 0;
    int64_t peak_bytes = 0;
    std::vector<std::string> phases;
    std::vector<std::pair<std::string, bool>> operations;  // name, has a backward time
};

StepFigures observe(bool backward_on_another_thread) {
    Session session(SessionOptions{});
    torch::manual_seed(1);
    torch::nn::Sequential model(torch::nn::Linear(16, 32), torch::nn::ReLU(),
                                torch::nn::Linear(32, 4));
    torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
    const torch::Tensor input = torch::randn({8, 16});
    for (int step = 0; step < 3; ++step) {
        session.beginStep();
        const torch::Tensor loss = model->forward(input).pow(2).mean();
        const torch::Tensor seed = torch::ones_like(loss);  // backward()'s, on the caller
        if (backward_on_another_thread) {
            const at::ThreadLocalState caller;
            std::thread device([&] {
                const at::ThreadLocalStateGuard as_the_caller(caller);
                loss.backward(seed);
            });
            device.join();
        } else {
            loss.backward(seed);
        }
        optimizer.step();
        optimizer.zero_grad();
        session.endStep();
    }
    const SessionReports reports = session.assemble();
    StepFigures figures{reports.memory.activationBytes(), reports.memory.peak_usage_bytes, {}, {}};
    for (const TimelinePhase& phase : reports.timeline.phases)
        figures.phases.push_back(phase.name);
    for (const RunTimeEntry& entry : reports.time.entries)
        figures.operations.emplace_back(entry.operation_name, entry.backward_ms.has_value());
    return figures;
}

}  // namespace

TEST(SessionBackwardThread, NodesOnAnotherThreadAreTheStepsBackwardPass) {
    const StepFigures in_place = observe(false);
    const StepFigures elsewhere = observe(true);
    ASSERT_GT(in_place.activation_bytes, 0);
    ASSERT_EQ(in_place.phases, (std::vector<std::string>{"forward", "backward", "optimizer"}));
    EXPECT_EQ(elsewhere.activation_bytes, in_place.activation_bytes);
    EXPECT_EQ(elsewhere.peak_bytes, in_place.peak_bytes);
    EXPECT_EQ(elsewhere.phases, in_place.phases);
    EXPECT_EQ(elsewhere.operations, in_place.operations);
}
