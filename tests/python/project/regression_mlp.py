# SPDX-License-Identifier: Apache-2.0
# An MLP with GELU regressing onto a float32 target with MSE, trained with AdamW, the step
# holding its output. Under bfloat16 autocast of the forward the loss takes a bfloat16 output
# and the float32 target, which PyTorch promotes: a float32 loss (whose storage, on the CPU, is
# the elementwise loss) and gradient, while the target stays as it is. Where
# TRAINSCOPE_TEST_SCALE is set, the output is scaled by a float32 buffer first (float32 under
# autocast too, while the last layer's own output is bfloat16).
import os

import torch
from torch import nn
from torch.nn import functional as F

SCALED = bool(os.environ.get("TRAINSCOPE_TEST_SCALE"))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(128, 512)
        self.act = nn.GELU()
        self.down = nn.Linear(512, 128)
        self.register_buffer("scale", torch.full((128,), 0.5))

    def forward(self, x):
        y = self.down(self.act(self.up(x)))
        return y * self.scale if SCALED else y


def model_provider():
    torch.manual_seed(0)
    return MLP()


def input_provider(batch_size=8):
    torch.manual_seed(1)
    return torch.randn(batch_size, 64, 128), torch.randn(batch_size, 64, 128)


def iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step(x, target):
        optimizer.zero_grad()
        prediction = model(x)
        F.mse_loss(prediction, target).backward()
        optimizer.step()

    return step
