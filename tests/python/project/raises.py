# SPDX-License-Identifier: Apache-2.0
# An entry point whose step raises on its first call.
import torch


def model_provider():
    return torch.nn.Linear(4, 4)


def input_provider(batch_size=2):
    return (torch.randn(batch_size, 4),)


def iteration_provider(model):
    def iteration(x):
        raise ValueError("the batch is malformed")  # trainscope-test: raises

    return iteration
