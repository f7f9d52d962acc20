# SPDX-License-Identifier: Apache-2.0
# An entry point that misbehaves as TRAINSCOPE_TEST_HOSTILE says (test_python_host's
# EntryPointFaults): it changes folder, exits or is interrupted while it loads, its providers
# fail, its step raises what cannot be printed, a message of several lines or a BaseException,
# starts torch's profiler, calls sys.exit, leaves a thread that never ends or an executor open
# (as Inductor leaves its compile pool), forks a child that exits or goes on with the steps,
# saves a model of a class it defines, or keeps a closure cell it never fills.
import io
import os
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn

HOW = os.environ.get("TRAINSCOPE_TEST_HOSTILE", "")
POOLS = []
if HOW == "chdir":
    os.chdir(os.environ["TRAINSCOPE_TEST_FOLDER"])
elif HOW == "marker":
    open(os.path.join(os.environ["TRAINSCOPE_TEST_FOLDER"], "imported"), "w").close()
elif HOW == "exit":
    sys.exit(3)
elif HOW == "interrupt":
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the entry point loads
elif HOW == "terminate":
    os.kill(os.getpid(), signal.SIGTERM)  # SIGTERM while the entry point loads


class Unprintable(Exception):
    def __str__(self):
        raise ValueError("this exception has no text")


class Stop(BaseException):
    pass


class Net(nn.Linear):  # a class of the entry point's own, which torch.save pickles
    pass


def skyline_model_provider():
    if HOW == "model_provider":
        raise ValueError("no model today")
    torch.manual_seed(0)
    return Net(8, 4) if HOW == "pickle" else nn.Linear(8, 4)


def skyline_input_provider(batch_size=2):
    if HOW == "input_provider":
        return (torch.randn(batch_size, 8) + "text",)  # a TypeError of the user's own
    return (torch.randn(batch_size, 8),)


def reports_written_then_a_while(_):  # busy still as the run ends, also on a loaded machine
    folder = os.environ["TRAINSCOPE_TEST_FOLDER"]
    while len([name for name in os.listdir(folder) if name.endswith(".sqlite")]) < 3:
        time.sleep(0.01)
    time.sleep(5)


def skyline_iteration_provider(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if HOW == "thread":
        threading.Thread(target=threading.Event().wait, name="waits-forever").start()
    if HOW in ("executor", "busy_executor"):  # never shut down: the interpreter's exit does it
        pool = ThreadPoolExecutor(2, thread_name_prefix="left-open")
        pool.submit(reports_written_then_a_while if HOW == "busy_executor" else time.sleep, 0)
        POOLS.append(pool)  # held, as Inductor holds its pool: unheld, its workers would end

    if HOW == "empty_cell" and False:
        scale = 2.0

    calls = []

    def iteration(x):
        calls.append(1)
        if HOW in ("fork_exit", "fork_goes_on") and len(calls) == 3:  # after the memory step
            child = os.fork()
            if child == 0 and HOW == "fork_exit":
                sys.exit(0)  # the child's interpreter ends as a script's does
            if child:
                _, status = os.waitpid(child, 0)
                assert os.waitstatus_to_exitcode(status) == 0, status
        if HOW == "empty_cell" and False:
            x = x * scale
        if HOW == "unprintable":
            raise Unprintable()
        if HOW == "base_exception":
            raise Stop("stopped by the step")
        if HOW == "exit_in_step":
            sys.exit(0)
        if HOW == "pickle":
            torch.save(model, io.BytesIO())
        if HOW == "multiline":  # as LibTorch's messages read
            raise RuntimeError("the shapes differ\n  in two lines\nException raised from check "
                               "at op.cpp:1 (most recent call first):\nframe #0: c10::Error")
        optimizer.zero_grad()
        if HOW == "torch_profiler":  # torch's own profiler, in every step
            with torch.profiler.profile():
                model(x).sum().backward()
        else:
            model(x).sum().backward()
        optimizer.step()

    return iteration
