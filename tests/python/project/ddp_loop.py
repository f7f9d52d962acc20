# SPDX-License-Identifier: Apache-2.0
# trainscope.profile around a DDP loop, in a script that torchrun (or the tests, as torchrun
# does) starts once per rank: python3 ddp_loop.py PREFIX. Prints the figures on rank 0.
import sys

import trainscope
from ddp_step import input_provider, iteration_provider, model_provider

model = model_provider()
step = iteration_provider(model)
x, y = input_provider()
with trainscope.profile(sys.argv[1], model=model, optimizer=step.optimizer,
                        warmup=2, active=3) as prof:
    for _ in range(5):
        step(x, y)
        prof.step()
if prof.figures.get("ranks_summary"):
    print(prof.figures["summary"] + prof.figures["ranks_summary"], end="")
