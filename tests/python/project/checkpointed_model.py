# SPDX-License-Identifier: Apache-2.0
# checkpointed.py's model under one non-reentrant activation checkpoint as a whole, in the
# step: the backward pass runs the model's forward again, which is no new micro-batch.
import torch
from torch.utils.checkpoint import checkpoint

from checkpointed import Checkpointed, input_provider  # noqa: F401


def model_provider():
    torch.manual_seed(0)
    return Checkpointed()


def iteration_provider(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

    def iteration(x):
        optimizer.zero_grad()
        checkpoint(model, x, use_reentrant=False).sum().backward()
        optimizer.step()

    return iteration
