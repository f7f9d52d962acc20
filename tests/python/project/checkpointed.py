# SPDX-License-Identifier: Apache-2.0
# Two blocks, the second under a reentrant activation checkpoint (torch.utils.checkpoint): its
# operations run again in the backward pass. An entry point without a prefix, trained by SGD.
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Linear(width, 4 * width)
        self.fc2 = nn.Linear(4 * width, width)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))  # trainscope-test: block-forward


class Checkpointed(nn.Module):
    def __init__(self, width=64, use_reentrant=True):
        super().__init__()
        self.first = Block(width)
        self.second = Block(width)
        self.use_reentrant = use_reentrant

    def forward(self, x):
        x = self.first(x)
        return checkpoint(self.second, x, use_reentrant=self.use_reentrant)


def model_provider():
    torch.manual_seed(0)
    return Checkpointed()


def input_provider(batch_size=8):
    return (torch.randn(batch_size, 64, requires_grad=True),)


def iteration_provider(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

    def iteration(x):
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()  # trainscope-test: checkpointed-step

    return iteration
