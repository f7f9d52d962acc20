# SPDX-License-Identifier: Apache-2.0
# An entry point whose step takes a while: for the tests that end a run with a signal.
import time

import torch


def model_provider():
    return torch.nn.Linear(8, 8)


def input_provider(batch_size=2):
    return (torch.randn(batch_size, 8),)


def iteration_provider(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def iteration(x):
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        time.sleep(0.2)

    return iteration
