# SPDX-License-Identifier: Apache-2.0
# An entry point whose providers break the contract: input_provider takes no batch size, and
# iteration_provider returns no callable.
import torch


def model_provider():
    return torch.nn.Linear(4, 4)


def input_provider():
    return (torch.randn(2, 4),)


def iteration_provider(model):
    return 42
