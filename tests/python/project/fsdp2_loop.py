# SPDX-License-Identifier: Apache-2.0
# fsdp2_step.py's model trained in the user's own loop, one process per rank as torchrun starts
# them: `fsdp2_loop.py PREFIX` profiles it with trainscope.profile (one warm-up step, the memory
# step, a timed step), `fsdp2_loop.py plain` runs it alone. Each prints a digest of this rank's
# shards of the parameters and of AdamW's state after the steps: equal digests mean the same
# training to the bit.
import hashlib
import sys

import torch.distributed as dist

import fsdp2_step

STEPS = 4


def digest(model, optimizer):
    h = hashlib.sha256()
    for p in model.parameters():
        h.update(p.to_local().detach().numpy().tobytes())
        for value in optimizer.state[p].values():
            local = value.to_local() if hasattr(value, "to_local") else value
            h.update(local.detach().numpy().tobytes())
    return h.hexdigest()


def main(mode):
    dist.init_process_group("gloo")
    model = fsdp2_step.model_provider()
    step = fsdp2_step.iteration_provider(model)
    if mode == "plain":
        for _ in range(STEPS):
            step(*fsdp2_step.input_provider())
    else:
        import trainscope
        with trainscope.profile(mode, model=model, optimizer=step.optimizer, warmup=1,
                                active=2) as prof:
            for _ in range(STEPS):
                step(*fsdp2_step.input_provider())
                prof.step()
    print("digest", digest(model, step.optimizer))
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])
