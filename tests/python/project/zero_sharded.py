# SPDX-License-Identifier: Apache-2.0
# The GPT-style model of gpt_blocks.py trained by AdamW in one process, or, in a job of several
# ranks (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT as torchrun sets them), by
# ZeroRedundancyOptimizer over AdamW on Gloo: each rank holds the state of its share of the
# parameters. advise --ranks N predicts the job's peak from the one process; the test runs the
# job to measure it.
import os

import torch
import torch.distributed as dist

from gpt_blocks import input_provider, iteration_with, model_provider as gpt  # noqa: F401

RANKS = int(os.environ.get("WORLD_SIZE", "1"))


def model_provider():
    if RANKS > 1 and not dist.is_initialized():
        dist.init_process_group("gloo")
    return gpt()


def iteration_provider(model):
    if RANKS > 1:
        from torch.distributed.optim import ZeroRedundancyOptimizer
        optimizer = ZeroRedundancyOptimizer(model.parameters(),
                                            optimizer_class=torch.optim.AdamW, lr=1e-4)
    else:
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    return iteration_with(model, optimizer)
