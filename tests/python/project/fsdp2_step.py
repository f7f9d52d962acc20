# SPDX-License-Identifier: Apache-2.0
# An FSDP2 training step (torch.distributed.fsdp.fully_shard over a CPU mesh on Gloo), for runs
# started as torchrun starts ranks (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT). Each block is an
# FSDP unit of its own and the root holds the embedding and the head; the head's weight has 10
# rows, which four ranks cannot share evenly (FSDP2 pads its shard). TRAINSCOPE_TEST_RESHARD=0
# keeps the blocks' parameters gathered from the forward to the backward.
import os

import torch
import torch.distributed as dist

from ddp_step import iteration_provider  # noqa: F401  AdamW, the loss all-reduced for the log

WIDTH = 64
RESHARD = os.environ.get("TRAINSCOPE_TEST_RESHARD", "1") != "0"


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(WIDTH, 4 * WIDTH)
        self.down = torch.nn.Linear(4 * WIDTH, WIDTH)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(x)))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Linear(32, WIDTH)
        self.blocks = torch.nn.Sequential(*(Block() for _ in range(3)))
        self.head = torch.nn.Linear(WIDTH, 10)

    def forward(self, x):
        return self.head(self.blocks(self.embed(x)))


def model_provider():
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard
    if not dist.is_initialized():
        dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = Net()
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    for block in model.blocks:
        fully_shard(block, mesh=mesh, reshard_after_forward=RESHARD)
    fully_shard(model, mesh=mesh)
    return model


def input_provider(batch_size=16):
    torch.manual_seed(1 + dist.get_rank() if dist.is_initialized() else 1)
    return torch.randn(batch_size, 32), torch.randint(0, 10, (batch_size,))
