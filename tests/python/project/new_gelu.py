# SPDX-License-Identifier: Apache-2.0
# An MLP whose activation is a module that computes GELU in several operations, as transformers'
# NewGELUActivation (GPT-2's "gelu_new") does: its nodes save its input and intermediates.
# advise finds it by its class name and swaps it for ReLU.
import math

import torch
from torch import nn


class NewGELUActivation(nn.Module):
    def forward(self, input):
        return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) *
                                               (input + 0.044715 * torch.pow(input, 3.0))))


def model_provider():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(128, 512), NewGELUActivation(), nn.Linear(512, 512),
                         NewGELUActivation(), nn.Linear(512, 10))


def input_provider(batch_size=256):
    torch.manual_seed(1)
    return torch.randn(batch_size, 128), torch.randint(0, 10, (batch_size,))


def iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def iteration(x, y):
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()

    return iteration
