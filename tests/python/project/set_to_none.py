# SPDX-License-Identifier: Apache-2.0
# An entry point whose step clears the gradients after the optimizer's step with
# zero_grad(set_to_none=True), PyTorch 2.x's default: none is left when the step ends.
import torch
from torch import nn


def skyline_model_provider():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(24, 40), nn.GELU(), nn.Linear(40, 8))


def skyline_input_provider(batch_size=6):
    return (torch.randn(batch_size, 24),)


def skyline_iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def iteration(x):
        model(x).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    return iteration
