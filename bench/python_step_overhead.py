#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What observing a user's own step costs in their Python process (issue 35's target): the
median wall time of a step timed by TrainScope's session (a timed step: the operation timer,
without the memory meter) and of the same step under torch.profiler (record_shapes,
with_stack, profile_memory), each against the plain step, in rounds that interleave the three
in one process. Two models: a tiny-operation model, where the per-operation cost shows (64 x
Linear(16, 16) + ReLU, batch 1, SGD), and the MLP block (Linear(d, 4d), GELU, Linear(4d, d),
d 1024, float32 on the CPU and a sequence of 256 where the seed has bfloat16 and 4096: a
bfloat16 step of that size takes minutes on the CPU).

Targets: on the tiny model, TrainScope <= 1.10x the floor below (an empty callback alone
costs more than 1.10x the plain step there: no observer built on RecordFunction could reach
1.10x of the plain step); <= 1.05x the plain step on the MLP; and cheaper than torch.profiler,
or no difference from it that the plain steps' own spread lets the run read. Where torch has
torch.compile, the MLP compiled too (the same step with the model compiled by Inductor in the
session, as trainscope.profile compiles it: TrainScope times each kernel one by one; the other
rounds run the same generated code with its kernels put back): <= 1.10x the plain step, and
the same against torch.profiler. torch.profiler runs without Inductor's
`cpp.enable_kernel_profile`: with PyTorch 2.15 from pip on the CPU, kernels built so do not
load (docs/python.md).

The floor of any observer built on RecordFunction, as TrainScope's and torch.profiler's are:
the step with an empty global callback on the same scopes (operations, backward nodes, user
scopes), which only makes PyTorch build a RecordFunction for each call. It is compiled with
torch.utils.cpp_extension (a C++ compiler and ninja); without them it is not measured.

    PYTHONPATH=build/dev/python python3 bench/python_step_overhead.py [ROUNDS]
"""

import os
import shutil
import statistics
import sys
import tempfile
import time

import torch
from torch import nn

import trainscope
from trainscope._kernels import KernelWatch
from trainscope._model_hooks import hooks_for
from trainscope._host import ObservedModel, start_session


EMPTY_CALLBACK = r"""
#include <torch/extension.h>
#include <ATen/record_function.h>
static at::CallbackHandle handle = 0;
static std::unique_ptr<at::ObserverContext> begin(const at::RecordFunction&) { return nullptr; }
static void end(const at::RecordFunction&, at::ObserverContext*) {}
void add_callback() {
    handle = at::addGlobalCallback(at::RecordFunctionCallback(begin, end).scopes(
        {at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
         at::RecordScope::USER_SCOPE}));
}
void remove_callback() { at::removeCallback(handle); }
"""


def empty_callback():
    """The module that adds and removes the empty callback, or None (and why) without a
    compiler."""
    from torch.utils.cpp_extension import load_inline
    build = tempfile.mkdtemp(prefix="trainscope-empty-callback-")
    try:
        return load_inline("trainscope_empty_callback", cpp_sources=EMPTY_CALLBACK,
                           functions=["add_callback", "remove_callback"], build_directory=build), None
    except Exception as e:  # no compiler, no ninja: the floor is not measured
        return None, str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
    finally:
        shutil.rmtree(build, ignore_errors=True)


def tiny_model():
    layers = []
    for _ in range(64):
        layers += [nn.Linear(16, 16), nn.ReLU()]
    return nn.Sequential(*layers), torch.randn(1, 16)


def mlp_block():
    d = 1024
    model = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    return model, torch.randn(2, 256, d)


def measure(name, make, steps_per_round, rounds, target, floor_module, compiled=False,
            against_floor=False):
    model, x = make()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    observed = ObservedModel()
    observed.model, observed.optimizer = model, optimizer
    reports = tempfile.TemporaryDirectory(prefix="trainscope-overhead-")  # never committed
    session = start_session(observed, "cpu", tempfile.gettempdir(), {},
                            os.path.join(reports.name, "run"))
    kernels = None
    if compiled:
        # As trainscope.profile does: compiled in the session's warm-up, with Inductor's
        # provenance, and each kernel timed in the observed steps. The other rounds run the
        # same generated code with its kernels put back (KernelWatch.unwrap).
        kernels = KernelWatch(session)
        kernels.start()
        model = torch.compile(model)

    def step():
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()

    for _ in range(3):
        step()
    hooks = hooks_for(model, session)  # as trainscope.profile does
    if kernels is not None:
        kernels.instrument()
        print(f"  {kernels.sites} kernel call sites timed one by one")
    session.begin_step()  # the memory step comes first; the timed steps follow, as in
    step()                # trainscope.profile: without the module hooks
    session.end_step()
    if hooks is not None:
        hooks.remove()
    if kernels is not None:
        kernels.unwrap()
    times = {"plain": [], "empty callback": [], "trainscope": [], "torch.profiler": []}

    def timed(record):
        start = time.perf_counter()
        step()
        record.append(time.perf_counter() - start)

    try:
        for _ in range(rounds):
            for _ in range(steps_per_round):
                timed(times["plain"])
            if floor_module:
                floor_module.add_callback()
                try:
                    for _ in range(steps_per_round):
                        timed(times["empty callback"])
                finally:
                    floor_module.remove_callback()
            if kernels is not None:
                kernels.instrument()
            for _ in range(steps_per_round):
                session.begin_step()
                timed(times["trainscope"])
                session.end_step()
            if kernels is not None:
                kernels.unwrap()
            with torch.profiler.profile(record_shapes=True, with_stack=True,
                                        profile_memory=True):
                for _ in range(steps_per_round):
                    timed(times["torch.profiler"])
    finally:
        if kernels is not None:
            kernels.close()
        session.close()
    plain = statistics.median(times["plain"])
    ours = statistics.median(times["trainscope"]) / plain
    theirs = statistics.median(times["torch.profiler"]) / plain
    floor = statistics.median(times["empty callback"]) / plain if floor_module else None
    print(f"{name}: plain step {plain * 1000:.3f} ms (median of {len(times['plain'])}); "
          + (f"an empty RecordFunction callback {floor:.3f}x, " if floor else "")
          + f"TrainScope's timed step {ours:.3f}x, torch.profiler {theirs:.3f}x")
    # The plain steps' own spread (their interquartile range, as a share of their median): a
    # difference between two observers within it is none that this run can read.
    quartiles = statistics.quantiles(times["plain"], n=4)
    spread = (quartiles[2] - quartiles[0]) / plain
    readable = abs(ours - theirs) > spread
    cheaper = ours < theirs or not readable
    versus = ("cheaper than torch.profiler" if readable and ours < theirs
              else "dearer than torch.profiler" if readable
              else f"no difference from torch.profiler that the plain steps' spread "
                   f"({spread:.1%}) lets this run read")
    if against_floor and floor:
        # Where RecordFunction's own cost is most of the step, the target is against it: what
        # TrainScope adds to the cost of being called at all.
        within = ours / floor <= target
        figure = f"{ours / floor:.3f}x the empty callback's floor"
    else:
        within = ours <= target
        figure = f"{ours:.3f}x the plain step"
    print(f"  TrainScope {figure} (target <= {target:.2f}x), {versus}: "
          f"{'met' if within and cheaper else 'MISSED'}")
    return within and cheaper


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    print(f"torch {torch.__version__}, trainscope {trainscope.__version__}, "
          f"{torch.get_num_threads()} intra-op threads, {rounds} rounds")
    floor_module, why = empty_callback()
    if floor_module is None:
        print(f"the empty callback's floor is not measured: {why}")
    met = measure("tiny-operation model", tiny_model, 20, rounds, 1.10, floor_module,
                  against_floor=True)
    met = measure("MLP block (float32, s=256)", mlp_block, 3, rounds, 1.05,
                  floor_module) and met
    if hasattr(torch, "compile"):
        met = measure("MLP block compiled (torch.compile, Inductor)", mlp_block, 3, rounds,
                      1.10, floor_module, compiled=True) and met
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
