# SPDX-License-Identifier: Apache-2.0
# An entry point in DeepView.Profile's names (the deepview_ prefix) with no iteration_provider:
# the run uses its default step (the outputs' sum as loss, SGD) and says so.
import torch
from torch import nn


def deepview_model_provider():
    torch.manual_seed(0)
    return nn.Linear(8, 4)


def deepview_input_provider(batch_size=3):
    return (torch.randn(batch_size, 8),)
