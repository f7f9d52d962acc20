# SPDX-License-Identifier: Apache-2.0
# A DDP training step on Gloo, for runs started as torchrun starts ranks (RANK, WORLD_SIZE,
# MASTER_ADDR, MASTER_PORT in the environment). TRAINSCOPE_TEST_SLOW_RANK names a rank whose
# forward sleeps TRAINSCOPE_TEST_SLOW_MS first: the straggler that the others wait for.
# TRAINSCOPE_TEST_FAILING_RANK names a rank whose third step raises.
import os
import time

import torch
import torch.distributed as dist

RANK = int(os.environ.get("RANK", "0"))
SLOW_RANK = int(os.environ.get("TRAINSCOPE_TEST_SLOW_RANK", "-1"))
SLOW_SECONDS = float(os.environ.get("TRAINSCOPE_TEST_SLOW_MS", "30")) / 1000
FAILING_RANK = int(os.environ.get("TRAINSCOPE_TEST_FAILING_RANK", "-1"))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(256, 512)
        self.fc2 = torch.nn.Linear(512, 256)
        self.head = torch.nn.Linear(256, 10)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if RANK == SLOW_RANK:
            time.sleep(SLOW_SECONDS)  # trainscope-test: straggler
        if RANK == FAILING_RANK and self.calls == 3:
            raise ValueError(f"rank {RANK} fails on purpose")  # trainscope-test: rank-fails
        return self.head(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


def model_provider():
    if not dist.is_initialized():
        dist.init_process_group("gloo")
    torch.manual_seed(0)
    return torch.nn.parallel.DistributedDataParallel(Net(), bucket_cap_mb=0.25)


def input_provider(batch_size=32):
    torch.manual_seed(1 + RANK)
    return torch.randn(batch_size, 256), torch.randint(0, 10, (batch_size,))


def iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step(x, y):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        logged = loss.detach().clone()  # the mean loss over the ranks, as a log would show it
        dist.all_reduce(logged)

    step.optimizer = optimizer
    return step
