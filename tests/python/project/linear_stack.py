# SPDX-License-Identifier: Apache-2.0
# Four linear layers in a Sequential and a head, trained with SGD: checkpointing each layer keeps
# each layer's input (as large as what the layer saves) and runs it again, so it raises the
# memory it is meant to lower; advise must say so.
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(*(nn.Linear(64, 64) for _ in range(4)))
        self.head = nn.Linear(64, 4)
    def forward(self, x):
        return self.head(self.layers(x))

def model_provider():
    torch.manual_seed(0)
    return Net()

def input_provider(batch_size=8):
    return (torch.randn(batch_size, 64),)

def iteration_provider(model):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    def step(x):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
    return step
