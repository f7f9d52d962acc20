# SPDX-License-Identifier: Apache-2.0
# Two ranks of one job whose loops are not as long: rank 1 ends its loop before its first
# observed step, rank 0 runs on. The steps have no collectives (each rank trains a model of its
# own). python3 ranks_uneven.py PREFIX, started once per rank.
import sys

import torch
import torch.distributed as dist

import trainscope

dist.init_process_group("gloo")
torch.manual_seed(0)
model = torch.nn.Linear(8, 8)
steps = 1 if dist.get_rank() == 1 else 4
with trainscope.profile(sys.argv[1], model=model, warmup=1, active=2) as prof:
    for _ in range(steps):
        model(torch.randn(4, 8)).sum().backward()
        prof.step()
print(f"rank {dist.get_rank()} trained {steps} steps")
