# SPDX-License-Identifier: Apache-2.0
# the MLP block (bfloat16, batch 2, sequence 4096, d 1024): lin_0 = Linear(d, 4d), the
# activation named by TRAINSCOPE_TEST_ACTIVATION (GELU or ReLU), lin_1 = Linear(4d, d). The
# step holds the output while its loss is made, as `out = model(x); loss = out.sum()` does.
import os

import torch
from torch import nn

D_MODEL = 1024


class MLP(nn.Module):
    def __init__(self, act_fn):
        super().__init__()
        self.lin_0 = nn.Linear(D_MODEL, 4 * D_MODEL, dtype=torch.bfloat16)
        self.act_fn = act_fn
        self.lin_1 = nn.Linear(4 * D_MODEL, D_MODEL, dtype=torch.bfloat16)

    def forward(self, x):
        return self.lin_1(self.act_fn(self.lin_0(x)))


def model_provider():
    torch.manual_seed(0)
    return MLP(nn.GELU() if os.environ["TRAINSCOPE_TEST_ACTIVATION"] == "GELU" else nn.ReLU())


def input_provider(batch_size=2):
    torch.manual_seed(1)
    return (torch.randn(batch_size, 4096, D_MODEL, dtype=torch.bfloat16),)


def iteration_provider(model):
    def iteration(x):
        out = model(x)
        loss = out.sum()
        loss.backward()

    return iteration
