# SPDX-License-Identifier: Apache-2.0
"""An entry point in Skyline's contract for the GPU check's Python-host rows (tools/gpu_check.py):
the model of gpu_check.py named by TRAINSCOPE_GPU_CHECK_MODEL, in bfloat16, and the iteration
that gpu_check.py's PyTorch side runs (gradients set to None, forward, sum loss, backward, plain
SGD step). `python3 -m trainscope profile` profiles it; gpu_check.py --reference-entry runs
the same providers without TrainScope."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_check  # noqa: E402 (after its folder is on the path)


def model_provider():
    torch.manual_seed(0)
    return gpu_check.make_model(os.environ["TRAINSCOPE_GPU_CHECK_MODEL"]).to(torch.bfloat16)


def input_provider(batch_size=gpu_check.B):
    torch.manual_seed(1)
    return (torch.randn(batch_size, gpu_check.S, gpu_check.D, dtype=torch.bfloat16),)


def iteration_provider(model):
    params = list(model.parameters())
    optimizer = torch.optim.SGD(params, lr=1e-3, foreach=False)

    def iteration(x):
        for p in params:
            p.grad = None
        out = model(x)
        loss = out.sum()
        loss.backward()
        del loss, out
        optimizer.step()

    return iteration
