# SPDX-License-Identifier: Apache-2.0
# trainscope.profile on rank 0 alone (all_ranks=False) around a DDP loop: the other ranks train
# unobserved. python3 ddp_rank0_only.py PREFIX, started once per rank. Two warm-up steps: DDP
# rebuilds its buckets in its second step, which then runs other operations than the later ones.
import sys

import torch.distributed as dist

import trainscope
from ddp_step import input_provider, iteration_provider, model_provider

model = model_provider()
step = iteration_provider(model)
x, y = input_provider()
if dist.get_rank() == 0:
    with trainscope.profile(sys.argv[1], model=model, optimizer=step.optimizer, warmup=2,
                            active=2, all_ranks=False) as prof:
        for _ in range(4):
            step(x, y)
            prof.step()
else:
    for _ in range(4):
        step(x, y)
