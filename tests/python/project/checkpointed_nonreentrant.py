# SPDX-License-Identifier: Apache-2.0
# checkpointed.py's model with a non-reentrant activation checkpoint (use_reentrant=False, the
# form PyTorch 2.x recommends): the second block's operations run again from a saved tensor's
# unpack hook, inside the backward node that needs them.
import torch

from checkpointed import Checkpointed, input_provider, iteration_provider  # noqa: F401


def model_provider():
    torch.manual_seed(0)
    return Checkpointed(use_reentrant=False)
