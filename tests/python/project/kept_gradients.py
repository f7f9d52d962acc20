# SPDX-License-Identifier: Apache-2.0
# An entry point whose step keeps its gradients zeroed rather than freed: zero_grad(
# set_to_none=False) after the optimizer's step, so they are alive through the next forward.
# advise's zero_grad(set_to_none=True) what-if is checked on it.
import torch
from torch import nn


def model_provider():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                         nn.Linear(1024, 10))


def input_provider(batch_size=64):
    torch.manual_seed(1)
    return torch.randn(batch_size, 256), torch.randint(0, 10, (batch_size,))


def iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def iteration(x, y):
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=False)

    return iteration
