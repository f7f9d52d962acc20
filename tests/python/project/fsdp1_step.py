# SPDX-License-Identifier: Apache-2.0
# fsdp2_step.py's model under FSDP1 (FullyShardedDataParallel, one flat parameter per unit) on
# Gloo, for runs started as torchrun starts ranks: each rank's flat parameter is its padded share.
import torch
import torch.distributed as dist

from fsdp2_step import Net, input_provider, iteration_provider  # noqa: F401


def model_provider():
    from torch.distributed.fsdp import FullyShardedDataParallel
    if not dist.is_initialized():
        dist.init_process_group("gloo")
    torch.manual_seed(0)
    return FullyShardedDataParallel(Net(), device_id=torch.device("cpu"))
