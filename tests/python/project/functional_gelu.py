# SPDX-License-Identifier: Apache-2.0
# An MLP whose activation is a function called in its forward, not a module: F.gelu, or F.relu
# where TRAINSCOPE_TEST_FUNCTION=relu. advise cannot swap it, so it predicts the change and names
# the line to edit.
import os

import torch
import torch.nn.functional as F
from torch import nn

ACTIVATION = F.relu if os.environ.get("TRAINSCOPE_TEST_FUNCTION") == "relu" else F.gelu


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin_0 = nn.Linear(256, 1024)
        self.lin_1 = nn.Linear(1024, 256)

    def forward(self, x):
        return self.lin_1(ACTIVATION(self.lin_0(x)))  # trainscope-test: activation


def model_provider():
    torch.manual_seed(0)
    return MLP()


def input_provider(batch_size=8):
    torch.manual_seed(1)
    return (torch.randn(batch_size, 128, 256),)


def iteration_provider(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def iteration(x):
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()

    return iteration
